#!/bin/sh
# Releases both can read: pack's default output passes our reading of the Open Device Helper's
# channel rules (tests/tools/helper_channel_check.py) and installs here too; with --keep-links
# or another compression the old channel refuses it before writing anything (or never sees it),
# and pack says so. What pack refuses ends with the refusal's own reason and exit code.
. "$TB_TOP/tests/lib.sh"

CHECK="$TB_TOP/tests/tools/helper_channel_check.py"
ARCH=$(uname -m)
V=2026.10.30
# A tree shaped like the tablet's: Turnip's file name, rusticl reached through a link, made of
# the tiny drivers (what is checked is the archive's shape, and pack's compression of a real
# driver takes minutes at zstd's level 19: every stand-in release is a real pack already).
tiny_release 0.1 "$T/warmup" >/dev/null || { not_ok "the tiny drivers"; done_testing; exit 1; }
S="$T/stage"
mkdir -p "$S/lib"
cp "$T/tiny-stage/lib/libvk.so" "$S/lib/libvulkan_freedreno.so"
cp "$T/tiny-stage/lib/libcl.so.1" "$S/lib/libRusticlOpenCL.so.1.0.0"
ln -s libRusticlOpenCL.so.1.0.0 "$S/lib/libRusticlOpenCL.so.1"
check "the stage has a link" test -L "$S/lib/libRusticlOpenCL.so.1"
pack() {
	ctl --json mesa pack --stage "$S" --version $V --drivers vulkan,opencl --vulkan-lib lib/libvulkan_freedreno.so \
		--opencl-lib lib/libRusticlOpenCL.so.1 --rusticl-enable llvmpipe "$@"
}

expect_exit 0 "pack with default options" pack "$T/out-default"
check "…says the helper's channel takes it" grep -q '"helper_channel":true' "$T/out"
if python3 "$CHECK" "$T/out-default" --arch "$ARCH" >"$T/check" 2>&1; then ok "the helper's channel rules accept it"; else not_ok "the helper's channel rules accept it" "$(cat "$T/check")"; fi
check "the link became a copy (no link line in the MANIFEST)" sh -c "! tar xzOf '$T/out-default/tb323fu-mesa-$V-$ARCH.tar.gz' MANIFEST | grep -q '^link '"
expect_exit 0 "…and it installs here too" ctl mesa install-local "$T/out-default/tb323fu-mesa-$V-$ARCH.tar.gz" --no-smoke
expect_exit 0 "…intact" ctl mesa verify $V

expect_exit 0 "pack --keep-links" pack --keep-links "$T/out-links"
check "…says the helper's channel refuses it" sh -c "grep -q '\"helper_channel\":false' '$T/out' && grep -q 'it takes no links' '$T/out'"
python3 "$CHECK" "$T/out-links" --arch "$ARCH" >"$T/check" 2>&1
# the first link the archive holds: rusticl's
refused=$(sed -n "s|^refused: tarball: 'tree/\(.*\)' is not a regular file or directory.*|\1|p" "$T/check")
check "the old channel refuses a link while reading the archive, before it writes (${refused:-none})" \
	sh -c "test -n '$refused' && test -L '$S/$refused'"
expect_exit 0 "pack --compress zst" pack --compress zst "$T/out-zst"
python3 "$CHECK" "$T/out-zst" --arch "$ARCH" >"$T/check" 2>&1
check "the old channel does not see a .tar.zst release" grep -q "refused: no tb323fu-mesa-<version>-$ARCH.tar.gz" "$T/check"
python3 "$CHECK" "$T/out-default" >"$T/check" 2>&1
check "the checker refuses another arch than its own" grep -q "refused: no tb323fu-mesa" "$T/check"
# --- what pack refuses: a slip on the command line is a usage error (exit 2); a MANIFEST the
# options make and the parser refuses is refused as install would refuse it (its reason, exit 4)
expect_exit 2 "pack without --version: usage" ctl --json mesa pack --stage "$S" "$T/refused"
reason_is usage
expect_exit 2 "pack with a --commit of two lines: usage" pack --commit "$(printf 'a\nb')" "$T/refused"
reason_is usage
expect_exit 4 "pack with a --vulkan-lib outside lib/: manifest-invalid, exit 4" pack --vulkan-lib /etc/passwd "$T/refused"
reason_is manifest-invalid
check "…saying which key" grep -q 'vulkan_lib must be a path under lib/' "$T/out"
expect_exit 4 "pack with a --gbm-lib the tree does not hold: manifest-invalid, exit 4" \
	pack --drivers vulkan,opencl,gl --gbm-lib lib/gl/libgbm.so.1 "$T/refused"
reason_is manifest-invalid
expect_exit 4 "pack with --ld-library-path other than lib: runpath-unsafe, exit 4" pack --ld-library-path lib/.. "$T/refused"
reason_is runpath-unsafe
check "…and nothing is packed" test ! -e "$T/refused"
done_testing
