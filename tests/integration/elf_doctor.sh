#!/bin/sh
# `tb323fu-ctl mesa doctor`: what applications get now (store, session switch, this shell's
# variables, loaders, ICDs, the glibc floor of current against this system) and every problem,
# in human lines and in --json.
. "$TB_TOP/tests/lib.sh"

HOST_GLIBC=$(getconf GNU_LIBC_VERSION | sed 's/^glibc //')

# --- nothing installed ---
expect_exit 0 "doctor on an empty store" ctl mesa doctor
check "says nothing is installed" grep -q "no Mesa version installed" "$T/out"
check "ends with its verdict" test "$(tail -n 1 "$T/out")" = "no problems found"
expect_exit 0 "doctor --json on an empty store" ctl mesa doctor --json
check "json: ok, no current, no problems" \
	test "$(field '" ".join([str(d["ok"]), repr(d["current"]), str(d["problems"]), d["host"]["glibc"]])')" = "True '' [] $HOST_GLIBC"
check "json: the Vulkan loader is found" test -n "$(field 'd["vulkan_loader"]["path"]')"

# --- a stand-in release installed ---
V=2026.11.20
R=$(standin $V) || { not_ok "stand-in release"; done_testing; exit 1; }
ctl mesa install-local "$R" --no-smoke >/dev/null || not_ok "install $V"
expect_exit 0 "doctor with a version installed" ctl mesa doctor --json
check "json: current is the installed version" test "$(field 'd["current"]')" = "$V"
FLOOR=$(field 'd["glibc_floor"]')
check "json: the glibc floor of the release is known" test -n "$FLOOR"
check "and is at most this system's glibc" python3 -c "
import sys
v = lambda s: [int(x) for x in s.split('.')]
sys.exit(0 if v('$FLOOR') <= v('$HOST_GLIBC') else 1)"
check "json: the store's ICD file is listed as the store's" \
	test "$(field '[i["store"] for i in d["vulkan_icds"] if i["file"].endswith("/icd/turnip.json")]')" = "[True]"
expect_exit 0 "doctor in human lines" ctl mesa doctor
check "a line with the glibc floor" grep -q "glibc: this system has $HOST_GLIBC; Mesa $V needs at least $FLOOR" "$T/out"
check "the shell selects no driver" grep -q "this shell selects no driver" "$T/out"

# --- what a shell under `tb323fu-mesa run` gets ---
expect_exit 0 "doctor under tb323fu-mesa run" mesa run "$CTL" --store "$STORE" mesa doctor
check "sees the store's Vulkan ICD in its variables" \
	grep -q "this shell: VK_DRIVER_FILES=.*/icd/turnip.json (the store's)" "$T/out"
check "and RUSTICL_ENABLE" grep -q "this shell: RUSTICL_ENABLE=llvmpipe" "$T/out"

# --- problems ---
expect_exit 1 "a shell whose VK_DRIVER_FILES names a missing file" \
	env VK_DRIVER_FILES="$T/gone.json" "$CTL" --store "$STORE" mesa doctor --json
check "is one problem, naming the file" \
	test "$(field 'len(d["problems"]), "gone.json" in d["problems"][0]')" = "(1, True)"
expect_exit 1 "and in human lines (exit 1: a problem)" env VK_DRIVER_FILES="$T/gone.json" "$CTL" --store "$STORE" mesa doctor
check "counted on the last line" test "$(tail -n 1 "$T/out")" = "1 problem found"

# A version whose private library went away no longer fits: the ELF check says which.
FX=$T/fixtures
sh "$TB_TOP/tests/fixtures/elf/build.sh" "$FX" || not_ok "fixture libraries build"
mkdir -p "$T/stage/lib"
cp "$FX/libtbdriver.so" "$T/stage/lib/libRusticlOpenCL.so.1"
cp "$FX/libtbuser-runpath.so" "$T/stage/lib/libtbuser.so"
cp "$FX/libtbdep.so.1" "$T/stage/lib/libtbdep.so.1"
chmod 0644 "$T/stage/lib/"*
ln -s libtbuser.so "$T/stage/lib/libtb-devlink.so" # a development link, as real releases ship them
"$CTL" mesa pack --stage "$T/stage" --version 2026.11.21 --drivers opencl --keep-links \
	--opencl-lib lib/libRusticlOpenCL.so.1 "$T/rel" >/dev/null || not_ok "pack"
ctl mesa install-local "$T/rel/tb323fu-mesa-2026.11.21-$(uname -m).tar.gz" --no-smoke >/dev/null ||
	not_ok "install 2026.11.21"
chmod u+w "$STORE/versions/2026.11.21/lib" 2>/dev/null
rm -f "$STORE/versions/2026.11.21/lib/libtbdep.so.1"
expect_exit 1 "doctor after a private library went away" ctl mesa doctor --json
check "names the library and what it needs" \
	sh -c "grep -q 'Mesa 2026.11.21 no longer fits this system: lib/libtbuser.so needs libtbdep.so.1, which this system does not have' '$T/out'"

expect_exit 2 "doctor takes no arguments" ctl mesa doctor extra
done_testing
