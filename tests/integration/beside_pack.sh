#!/bin/sh
# Releases both can read: pack's default output passes our reading of the Open Device Helper's
# channel rules (tests/tools/helper_channel_check.py) and installs here too; with --keep-links
# or another compression the old channel refuses it before writing anything (or never sees it),
# and pack says so.
. "$TB_TOP/tests/lib.sh"

CHECK="$TB_TOP/tests/tools/helper_channel_check.py"
ARCH=$(uname -m)
V=2026.10.30
R=$(standin 2026.10.06) || { not_ok "stand-in release"; done_testing; exit 1; }
"$CTL" --store "$T/scratch" mesa install-local "$R" --no-smoke >/dev/null || { not_ok "unpack the stand-in"; done_testing; exit 1; }
# A tree shaped like the tablet's: Turnip's file name, rusticl reached through a link.
S="$T/stage"
mkdir -p "$S"
cp -a "$T/scratch/versions/2026.10.06/lib" "$T/scratch/versions/2026.10.06/share" "$S/"
mv "$S/lib/libvulkan_lvp.so" "$S/lib/libvulkan_freedreno.so"
check "the stage has a link" test -L "$S/lib/libRusticlOpenCL.so.1"

expect_exit 0 "pack with default options" ctl --json mesa pack --stage "$S" --version $V "$T/out-default"
check "…says the helper's channel takes it" grep -q '"helper_channel":true' "$T/out"
if python3 "$CHECK" "$T/out-default" --arch "$ARCH" >"$T/check" 2>&1; then ok "the helper's channel rules accept it"; else not_ok "the helper's channel rules accept it" "$(cat "$T/check")"; fi
check "the link became a copy (no link line in the MANIFEST)" sh -c "! tar xzOf '$T/out-default/tb323fu-mesa-$V-$ARCH.tar.gz' MANIFEST | grep -q '^link '"
expect_exit 0 "…and it installs here too" ctl mesa install-local "$T/out-default/tb323fu-mesa-$V-$ARCH.tar.gz" --no-smoke
expect_exit 0 "…intact" ctl mesa verify $V

expect_exit 0 "pack --keep-links" ctl --json mesa pack --stage "$S" --version $V --keep-links "$T/out-links"
check "…says the helper's channel refuses it" sh -c "grep -q '\"helper_channel\":false' '$T/out' && grep -q 'it takes no links' '$T/out'"
python3 "$CHECK" "$T/out-links" --arch "$ARCH" >"$T/check" 2>&1
# the first link the archive holds: rusticl's, or one of GL's (their order is the stage's)
refused=$(sed -n "s|^refused: tarball: 'tree/\(.*\)' is not a regular file or directory.*|\1|p" "$T/check")
check "the old channel refuses a link while reading the archive, before it writes (${refused:-none})" \
	sh -c "test -n '$refused' && test -L '$S/$refused'"
expect_exit 0 "pack --compress zst" ctl --json mesa pack --stage "$S" --version $V --compress zst "$T/out-zst"
python3 "$CHECK" "$T/out-zst" --arch "$ARCH" >"$T/check" 2>&1
check "the old channel does not see a .tar.zst release" grep -q "refused: no tb323fu-mesa-<version>-$ARCH.tar.gz" "$T/check"
python3 "$CHECK" "$T/out-default" >"$T/check" 2>&1
check "the checker refuses another arch than its own" grep -q "refused: no tb323fu-mesa" "$T/check"
done_testing
