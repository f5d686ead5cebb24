#!/bin/sh
# Crash evidence of the store's GL (docs/design.md §18), as for Vulkan and OpenCL: a coredump
# whose maps are those of a real GL program (tests/tools/egl-draw held under `tb323fu-mesa
# run`, its /proc maps and environment read as systemd-coredump reads them, in the recorded
# crash's entry) is the version's by its maps; on the distribution's GL it is not ours; one
# that maps nothing of a driver is the version its GL variables select; a kernel line in a
# file of the store's GL is the session's version while the session gets the store's GL,
# else not ours (the distribution's GL has the same names).
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/app-lib.sh"

JR=/usr/lib/systemd/systemd-journal-remote
if [ ! -x "$JR" ]; then
	skip "GL crash evidence from journal files" "systemd-journal-remote (package systemd-journal-remote) is not installed"
	done_testing
	exit 0
fi
DRAW=$TB_BUILD/tests/tools/egl-draw
[ -x "$DRAW" ] || { not_ok "tests/tools/egl-draw is built (make unit-tests)"; done_testing; exit 1; }
. "$TB_TOP/tests/crash-lib.sh"
mkdir -p "$T/bin"
printf '#!/bin/sh\nexit 0\n' >"$T/bin/crasher"
chmod 755 "$T/bin/crasher"
entry org.example.Crasher.desktop '[Desktop Entry]' 'Type=Application' 'Name=Crasher' "Exec=$T/bin/crasher"
fresh || { not_ok "install two stand-in releases, switch the session on"; done_testing; exit 1; }

# record TAG CMD…: egl-draw --hold started by CMD, its maps and environment into $T/TAG.maps
# and $T/TAG.environ once it has drawn, then stopped
record() {
	_tag=$1
	shift
	rm -f "$T/drawn"
	mkfifo "$T/drawn"
	"$@" "$DRAW" --hold >"$T/drawn" 2>"$T/hold.err" &
	_pid=$!
	TB_KILL_ON_EXIT="${TB_KILL_ON_EXIT:-} $_pid"
	_ok=1
	while read -r _line; do [ "$_line" = ready ] && _ok=0 && break; done <"$T/drawn"
	cat "/proc/$_pid/maps" >"$T/$_tag.maps" && cat "/proc/$_pid/environ" >"$T/$_tag.environ" || _ok=1
	kill "$_pid" 2>/dev/null
	wait "$_pid" 2>/dev/null
	return $_ok
}
# crashed TAG FIELDS…: a journal of the recorded crash with those fields, read by crashes --json
crashed() {
	_j=$T/$1.journal
	shift
	journal "$_j" "$FIX/store-lvp.coredump.export,COREDUMP_EXE=$T/bin/crasher$(printf ',%s' "$@")" ||
		not_ok "a journal of the crash"
	TB323FU_MESA_JOURNAL=$_j ctl --json mesa crashes >"$T/out" 2>"$T/err"
}
events() { json '[(e["version"], e["how"]) for e in d["events"]]' <"$T/out"; }
kernel_line() { # kernel_line OBJECT: a journal of the recorded kernel line, faulting in OBJECT
	sed "s/ in libvulkan_lvp.so\[/ in $1[/" "$FIX/store-lvp.kernel.txt" >"$T/gl.kernel.txt"
	journal "$T/kernel.journal" "$T/gl.kernel.txt" || not_ok "a journal of a kernel line"
	TB323FU_MESA_JOURNAL=$T/kernel.journal ctl --json mesa crashes >"$T/out" 2>"$T/err"
}

# --- maps: a GL program on the store's GL ---
check "a GL program under run draws" record store "$MESA" --store "$STORE" run
check "…it maps the store's GL and no Vulkan driver" \
	sh -c "grep -q '$REAL/versions/$V2/lib/gl/' '$T/store.maps' && ! grep -q libvulkan_ '$T/store.maps'"
crashed store "COREDUMP_PROC_MAPS=@$T/store.maps" "COREDUMP_ENVIRON=@$T/store.environ"
check "…its crash is $V2's, by its maps" test "$(events)" = "[('$V2', 'maps')]"

# --- maps: the distribution's GL, the store's Vulkan variables ---
check "a GL program under run --gl distro draws" record distro "$MESA" --store "$STORE" run --gl distro
check "…it maps the system's GL, and has the store's Vulkan variables" \
	sh -c "! grep -q '$REAL/' '$T/distro.maps' && tr '\\0' '\\n' <'$T/distro.environ' | grep -q '^VK_DRIVER_FILES=$STORE/'"
crashed distro "COREDUMP_PROC_MAPS=@$T/distro.maps" "COREDUMP_ENVIRON=@$T/distro.environ"
check "…its crash is not ours (a driver of the system's)" \
	test "$(json 'len(d["events"]), len(d["unattributed"])' <"$T/out")" = "(0, 0)"

# --- environment: nothing of a driver mapped, the GL variables select a version ---
for var in "__EGL_VENDOR_LIBRARY_FILENAMES=$REAL/icd/versions/$V1/egl_vendor.json" \
	"LIBGL_DRIVERS_PATH=$REAL/versions/$V1/lib/gl/dri"; do
	printf 'PATH=/usr/bin:/bin\n%s\n' "$var" >"$T/env.environ"
	crashed env "COREDUMP_PROC_MAPS=" "COREDUMP_ENVIRON=@$T/env.environ"
	check "a crash whose environment has ${var%%=*} of $V1 is $V1's" test "$(events)" = "[('$V1', 'environment')]"
done

# --- kernel lines in a file of the store's GL ---
kernel_line swrast_dri.so
check "a kernel line in swrast_dri.so, the session on without GL: not ours" \
	test "$(json 'len(d["events"]), len(d["unattributed"])' <"$T/out")" = "(0, 0)"
ctl mesa on --gl native >/dev/null || not_ok "on --gl native"
kernel_line swrast_dri.so
check "…with the session's GL the store's: $V2's, by the session" \
	test "$(json '[(e["version"], e["how"], e["object"]) for e in d["events"]]' <"$T/out")" = "[('$V2', 'session', 'swrast_dri.so')]"
kernel_line libEGL_mesa.so.0.0.0
check "…the EGL vendor library's name too" test "$(events)" = "[('$V2', 'session')]"
kernel_line libvulkan_lvp.so
check "…and the Vulkan driver's as before" test "$(events)" = "[('$V2', 'session')]"

done_testing
