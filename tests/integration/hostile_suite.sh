#!/bin/sh
# What the suites run, and how they choose it, from input others may control. A program the
# tool runs from a path it was given or configured (an OpenCL-CTS binary from --cts or cts_dir,
# dEQP-VK, piglit, the smoke program, the benchmark) must sit where only root (or, not as
# root, the caller) can change it: a folder on the way that others may write, with no sticky
# bit, or a part that belongs to another user, is refused before anything runs, naming the
# part and the fix. And a sub-test filter is compiled within a bound: glibc's regcomp grows
# past 16 GB for `a{1,32000}{1,32000}`.
. "$TB_TOP/tests/lib.sh"

V1=2026.06.01
V2=2026.06.02
R1=$(standin $V1) && R2=$(standin $V2) || { not_ok "stand-in releases"; done_testing; exit 1; }
expect_exit 0 "install-local $V1" ctl mesa install-local "$R1" --sums "$(dirname "$R1")/SHA256SUMS" --no-smoke
root=0
[ "$(id -u)" -eq 0 ] && root=1
export FAKE_CTS_RECORD="$T/record"
# cts_in DIR: the fake OpenCL-CTS binary as DIR/test_fake (DIR made as the caller's, 0755).
cts_in() {
	mkdir -p "$1"
	chmod 0755 "$1"
	cp "$TB_TOP/tests/doubles/fake-cts" "$1/test_fake"
	chmod 0755 "$1/test_fake"
}
# refused NAME PART: the run was refused naming PART's fault and its fix, and nothing ran.
refused() {
	check "$1" grep -qF -- "$2" "$T/err"
	check "…nothing of it ran" test ! -s "$T/record"
}

# --- an OpenCL-CTS binary --------------------------------------------------------------------
cts_in "$T/open/cts"
chmod 0777 "$T/open"
: >"$T/record"
expect_exit 1 "--cts DIR under a folder anyone may write (0777, no sticky bit): refused" \
	ctl mesa smoke $V1 --suite opencl-cts --cts "$T/open/cts" --tests fake --subtests pass_
refused "…naming the folder and the fix" \
	"refusing to run the OpenCL-CTS binary $T/open/cts/test_fake: the folder $T/open is writable by others (mode 0777), so they could replace what runs; take that away (chmod go-w $T/open)"
printf 'cts_dir = %s\ncts_tests = fake\n' "$T/open/cts" >"$TB323FU_MESA_CONFIG"
expect_exit 1 "cts_dir in mesa.conf: the same" ctl --json mesa smoke $V1 --suite opencl-cts --subtests pass_
reason_is unsafe-path
check "…in the JSON's message" test "$(json '"the folder '"$T"'/open is writable by others" in d["message"]' <"$T/out")" = True
: >"$TB323FU_MESA_CONFIG"
chmod 0755 "$T/open"

cts_in "$T/cts"
chmod 0757 "$T/cts/test_fake"
expect_exit 1 "a binary others may write: refused" ctl mesa smoke $V1 --suite opencl-cts --cts "$T/cts" --tests fake --subtests pass_
refused "…naming the file" "the file $T/cts/test_fake is writable by others (mode 0757)"
chmod 0775 "$T/cts/test_fake"
expect_exit 1 "a binary its group may write: refused" ctl mesa smoke $V1 --suite opencl-cts --cts "$T/cts" --tests fake --subtests pass_
refused "…naming the file" "the file $T/cts/test_fake is writable by its group (mode 0775)"
chmod 0755 "$T/cts/test_fake"

# a link to a good binary, the link in a folder anyone may write: the link could be turned
mkdir -m 0777 "$T/links"
chmod 0777 "$T/links" # whatever the umask
ln -s "$T/cts/test_fake" "$T/links/test_fake"
expect_exit 1 "a binary reached through a link in a folder anyone may write: refused" \
	ctl mesa smoke $V1 --suite opencl-cts --cts "$T/links" --tests fake --subtests pass_
refused "…naming the link's folder" "the folder $T/links is writable by others (mode 0777)"

if [ $root = 1 ]; then
	chown nobody "$T/cts"
	expect_exit 1 "as root, a folder that belongs to another user: refused" \
		ctl mesa smoke $V1 --suite opencl-cts --cts "$T/cts" --tests fake --subtests pass_
	refused "…naming the folder, its owner and the fix" \
		"the folder $T/cts belongs to user $(id -u nobody) (not root), who could replace what runs; give it to root (chown root $T/cts)"
	chown root "$T/cts"
	chown nobody "$T/cts/test_fake"
	expect_exit 1 "as root, a binary that belongs to another user: refused" \
		ctl mesa smoke $V1 --suite opencl-cts --cts "$T/cts" --tests fake --subtests pass_
	refused "…naming the file" "the file $T/cts/test_fake belongs to user $(id -u nobody) (not root)"
	chown root "$T/cts/test_fake"
else
	skip "another user's folder or binary, as root" "not root"
fi

# what passes: a sticky folder anyone may write (as /tmp) holding a folder of the caller's
mkdir -m 1777 "$T/sticky"
chmod 1777 "$T/sticky"
cts_in "$T/sticky/cts"
ln -s "$T/sticky/cts" "$T/cts-link"
expect_exit 0 "under a sticky folder anyone may write, through a link of the caller's: runs" \
	ctl mesa smoke $V1 --suite opencl-cts --cts "$T/cts-link" --tests fake --subtests 'pass_'
check "…both sides ran it" test "$(cut -d' ' -f1 "$T/record" | sort -u | tr '\n' ' ')" = "distribution store "

# --- the other programs the tool runs from a path it was given ----------------------------------
mkdir -m 0777 "$T/drop"
chmod 0777 "$T/drop"
cp "$TB_TOP/tests/doubles/fake-deqp-vk" "$T/drop/deqp-vk"
echo dEQP-VK.compute.fake.pass_1 >"$T/cases.txt"
expect_exit 1 "--deqp in a folder anyone may write: refused" \
	ctl mesa smoke $V1 --deqp "$T/drop/deqp-vk" --caselist "$T/cases.txt"
check "…naming dEQP-VK, the folder and the fix" \
	grep -qF "refusing to run the dEQP-VK binary $T/drop/deqp-vk: the folder $T/drop is writable by others (mode 0777)" "$T/err"
printf '#!/bin/sh\necho ran >>"%s"\n' "$T/record" >"$T/drop/piglit"
cp "$T/drop/piglit" "$T/drop/smoke"
cp "$T/drop/piglit" "$T/drop/clpeak"
chmod 0755 "$T/drop/piglit" "$T/drop/smoke" "$T/drop/clpeak"
: >"$T/record"
TB323FU_MESA_PIGLIT="$T/drop/piglit" expect_exit 1 "TB323FU_MESA_PIGLIT in a folder anyone may write: refused" \
	ctl mesa smoke $V1 --suite piglit-cl
refused "…naming piglit" "refusing to run piglit $T/drop/piglit: the folder $T/drop is writable by others"
TB323FU_MESA_SMOKE="$T/drop/smoke" expect_exit 1 "TB323FU_MESA_SMOKE in a folder anyone may write: refused" \
	ctl mesa smoke $V1
refused "…naming the smoke program" "refusing to run the smoke program $T/drop/smoke: the folder $T/drop is writable by others"
PATH="$T/drop:$PATH" expect_exit 1 "bench's clpeak from a folder anyone may write: refused" ctl mesa bench $V1 --rounds 1
refused "…naming clpeak" "refusing to run clpeak $T/drop/clpeak: the folder $T/drop is writable by others"

# --- a sub-test filter within a bound ------------------------------------------------------------
cts_in "$T/cts"
: >"$T/record"
# A limit of the shell's own, so that a build without the bound fails here instead of
# taking the machine's memory (a sanitizer's shadow counts as data: not there).
# shellcheck disable=SC3045 # dash's ulimit and bash's take -d
limited() { if ldd "$CTL" | grep -q libasan; then "$@"; else (ulimit -d 4194304 && "$@"); fi; }
expect_exit 1 "--subtests 'a{1,32000}{1,32000}': refused" \
	limited ctl mesa smoke $V1 --suite opencl-cts --cts "$T/cts" --tests fake --subtests 'a{1,32000}{1,32000}'
refused "…saying it needs too much memory to compile and what to use instead" \
	'--subtests "a{1,32000}{1,32000}" needs more than 64 MiB to compile (each repetition count is expanded in memory); use smaller counts'
check "…in one line" test "$(wc -l <"$T/err")" -eq 1
expect_exit 1 "a filter over 1024 bytes: refused" \
	ctl mesa smoke $V1 --suite opencl-cts --cts "$T/cts" --tests fake --subtests "$(head -c 2000 /dev/zero | tr '\0' a)"
check "…saying how long it is, the pattern cut" grep -q '"a*\.\.\." is 2000 bytes long, more than the 1024' "$T/err"
cat >"$TB323FU_MESA_CONFIG" <<EOF2
smoke_suite = opencl-cts
cts_dir = $T/cts
cts_tests = fake
smoke_suite_filter = a{1,32000}{1,32000}
EOF2
expect_exit 6 "smoke_suite_filter the same after install: the install fails" \
	limited ctl --json mesa install-local "$R2" --sums "$(dirname "$R2")/SHA256SUMS"
check "…saying why" test "$(json '"needs more than 64 MiB to compile" in d["message"]' <"$T/out")" = True
check "…$V1 still current" test "$(ctl mesa status --json | json 'd["installed"]')" = $V1
: >"$TB323FU_MESA_CONFIG"
done_testing
