#!/bin/sh
# `tb323fu-mesa which --pid` as `$(pidof APP)` calls it: no process id at all (APP is not
# running) is said so, several are answered one by one (in JSON an array of the one-process
# objects), one is answered as ever. The processes are stand-ins that map a file named like a
# Vulkan driver, which is all which --pid looks at.
. "$TB_TOP/tests/lib.sh"


# --- no process id: the words say what was missing and why that happens ---
for args in "--pid" "--pid --json" "--json --pid" "--pid=" "--pid ''"; do
	eval "set -- $args"
	expect_exit 2 "which $args" mesa which "$@"
	check "  says --pid got no process id, and suggests pidof found none" \
		grep -q -- "--pid needs a process id and got .*pidof APP" "$T/err"
done
expect_exit 2 "which --pid --json" mesa which --pid --json
check "  names what it got instead" grep -q "got the option --json" "$T/err"
expect_exit 2 "which --pid 12x: not a process id" mesa which --pid 12x
check "  says which word" grep -qF "not '12x'" "$T/err"
expect_exit 2 "which --pid ' 1': not a process id (a space is no part of one)" mesa which --pid ' 1'
check "  says which word" grep -qF "not ' 1'" "$T/err"
expect_exit 2 "which --pid '1 ': the same" mesa which --pid '1 '
expect_exit 2 "which --pid '1  2': ids are parted by one space, as pidof prints them" mesa which --pid '1  2'
expect_exit 2 "which --pid= 1: --pid= has no id, and what follows is no longer taken for one" mesa which --pid= 1
check "  says --pid got no process id" grep -q -- "--pid needs a process id and got nothing" "$T/err"
expect_exit 2 "which --pid 1 stray: a word after the ids that is not one" mesa which --pid 1 stray
check "  says which word" grep -qF "not 'stray'" "$T/err"

# hold [FILE]: a process (python3) that maps FILE, if given, then says so and stays; its
# pid in $held (a FIFO: a process that dies early ends the wait with EOF).
hold() {
	rm -f "$T/ready"
	mkfifo "$T/ready"
	python3 -c 'import mmap, signal, sys
if len(sys.argv) > 1:
    f = open(sys.argv[1], "rb")
    m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
print("ready", flush=True)
signal.pause()' "$@" >"$T/ready" &
	held=$!
	TB_KILL_ON_EXIT="${TB_KILL_ON_EXIT:-} $held"
	read -r line <"$T/ready" || line=
	[ "$line" = ready ]
}
mkdir -p "$T/lib"
printf 'not really a driver\n' >"$T/lib/libvulkan_held.so"
check "a process with a Vulkan driver mapped" hold "$T/lib/libvulkan_held.so"
A=$held
check "a process without" hold
B=$held

# --- one process: as before ---
expect_exit 0 "which --pid A" mesa which --pid $A
check "  one line, its driver, not headed by the process" \
	test "$(cat "$T/out")" = "Vulkan driver $T/lib/libvulkan_held.so: the distribution's Mesa"
expect_exit 0 "which --pid A --json" mesa which --pid $A --json
check "  one object" test "$(json '(type(d).__name__, d["pid"], [x["path"] for x in d["drivers"]])' <"$T/out")" = \
	"('dict', $A, ['$T/lib/libvulkan_held.so'])"

# --- several: each in turn ---
expect_exit 0 "which --pid A B" mesa which --pid $A $B
printf 'process %s (python3):\n  Vulkan driver %s: the distribution'"'"'s Mesa\n\nprocess %s (python3) has no Vulkan, OpenCL or GL driver loaded\n' \
	$A "$T/lib/libvulkan_held.so" $B >"$T/want"
check "  each process under its id, in the order given" cmp -s "$T/out" "$T/want"
expect_exit 0 'which --pid "A B" (a quoted $(pidof APP))' mesa which --pid "$A $B"
check "  the same" cmp -s "$T/out" "$T/want"
expect_exit 0 "which --pid A --pid B" mesa which --pid $A --pid $B
check "  the same" cmp -s "$T/out" "$T/want"
expect_exit 0 "which --json --pid A B" mesa which --json --pid $A $B
check "  one object (ok, message) listing the one-process objects" \
	test "$(json '[(x["pid"], len(x["drivers"])) for x in d["processes"]], d["ok"], d["message"]' <"$T/out")" = "([($A, 1), ($B, 0)], True, '2 of 2 processes answered')"
mesa which --pid $B --json >"$T/one"
check "  each element is what one process gives" \
	test "$(json 'd["processes"][1]' <"$T/out")" = "$(json 'd' <"$T/one")"

# --- one of them has ended: said so, the others still answered ---
sh -c 'exit 0' &
gone=$!
wait $gone
expect_exit 1 "which --pid A GONE B --json" mesa which --pid $A $gone $B --json
check "  says which process is gone" grep -qx "tb323fu-mesa: no process $gone is running (ps -e lists those that are)" "$T/err"
check "  and answers the others, the gone one failed in its entry" \
	test "$(json '[(x["pid"], x["ok"], x.get("reason", "")) for x in d["processes"]], d["ok"], d["reason"]' <"$T/out")" = \
	"([($A, True, ''), ($gone, False, 'not-found'), ($B, True, '')], False, 'not-found')"
expect_exit 1 "which --pid GONE A (human)" mesa which --pid $gone $A
check "  answers the other" grep -q "^process $A (python3):" "$T/out"
kill $A $B

# --- " (deleted)": the kernel's mark of a removed file, or part of a file's own name ---
printf 'a driver\n' >"$T/lib/libvulkan_named.so (deleted)"
hold "$T/lib/libvulkan_named.so (deleted)" || not_ok "a process maps a file named … (deleted)"
N=$held
expect_exit 0 "which --pid of a file whose name ends in ' (deleted)'" mesa which --pid $N --json
check "  is not reported as removed, and keeps its whole name" \
	test "$(json '[(x["path"].endswith("libvulkan_named.so (deleted)"), x["deleted"]) for x in d["drivers"]]' <"$T/out")" = "[(True, False)]"
printf 'a driver\n' >"$T/lib/libvulkan_gone.so"
hold "$T/lib/libvulkan_gone.so" || not_ok "a process maps a file"
G=$held
rm "$T/lib/libvulkan_gone.so"
expect_exit 0 "which --pid of a file removed since" mesa which --pid $G --json
check "  is reported as removed, under its name" \
	test "$(json '[(x["path"].endswith("libvulkan_gone.so"), x["deleted"]) for x in d["drivers"]]' <"$T/out")" = "[(True, True)]"
kill $N $G
# --- a process root may not read (a container without CAP_SYS_PTRACE): not "run as root"
if [ "$(id -u)" = 0 ] && ! cat /proc/1/maps >/dev/null 2>&1; then
	expect_exit 1 "which --pid 1 as root where the kernel refuses it" mesa which --pid 1
	check "  says the kernel refuses it even to root, not to run as root" \
		grep -q "cannot read /proc/1/maps: .* (the kernel refuses it even to root here" "$T/err"
	check "  never tells root to run as root" sh -c "! grep -q 'or as root' '$T/err'"
else
	skip "which --pid 1 refused to root" "root reads /proc/1/maps here (or the test is not root)"
fi
done_testing
