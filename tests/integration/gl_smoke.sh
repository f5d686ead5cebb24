#!/bin/sh
# The GL smoke tests after install (docs/design.md §7): gl.draw makes a surfaceless EGL context
# on the release's own gallium driver, draws, reads every pixel back and proves from the mapped
# libraries that it was the release's GL; gl.zink does the same under `run --gl zink`, on Zink
# over the release's Vulkan driver. A release whose gallium driver is damaged fails them and is
# rolled back, as for the other tests; a release without GL skips them. The stand-in is the
# machine's Mesa: Debian 12's 22.3, whose llvmpipe is the DRI driver swrast_dri.so, or Debian
# 13's 25.0, whose gallium drivers are all in libgallium-<version>.so (its dri/*_dri.so are
# stubs of libdril that no loader maps, so damaging one of them would break nothing).
. "$TB_TOP/tests/lib.sh"

V1=2026.12.01
V2=2026.12.02
V3=2026.12.03
R1=$(standin $V1) && R3=$(standin $V3 --no-gl) || { not_ok "stand-in releases"; done_testing; exit 1; }
st() { ctl mesa status --json | json "$1"; }
result() { json "$1" <"$STORE/smoke/$2.json"; }
SYS=/usr/lib/$(gcc -print-multiarch)

# --- a good release ---
expect_exit 0 "install-local $V1 (GL on llvmpipe and Zink) passes its smoke tests" ctl --progress json mesa install-local "$R1"
REAL=$(cd "$STORE" && pwd -P)
check "gl.draw and gl.zink ran and passed" \
	test "$(grep -c '"op":"smoke","test":"gl\.[a-z]*","status":"pass"' "$T/err")" = 2
# detail NAME V: that test's detail in smoke/V.json
detail() { result '[t["detail"] for t in d["tests"] if t["name"] == "'"$1"'"][0]' "$2"; }
# the release's gallium driver, under lib/gl: Mesa 25's libgallium, else the DRI driver
GALLIUM=$(cd "$REAL/versions/$V1/lib/gl" && ls libgallium-*.so 2>/dev/null)
DRIVER=${GALLIUM:-dri/swrast_dri.so}
RENDERER=$(detail gl.draw $V1 | sed 's/: 4096 pixels right.*//')
check "gl.draw: llvmpipe drew every pixel with the release's EGL vendor and gallium driver (${DRIVER##*/})" \
	sh -c "case '$RENDERER' in llvmpipe*) ;; *) exit 1 ;; esac &&
		test \"\$1\" = '$RENDERER: 4096 pixels right; the release'\\''s libEGL_mesa.so.0.0.0, ${DRIVER##*/}'" sh "$(detail gl.draw $V1)"
# Zink's renderer names the device under it: "zink (llvmpipe (…))" in Mesa 22.3, "zink Vulkan
# 1.4(llvmpipe (…) (MESA_LLVMPIPE))" in Mesa 25
ZINK=$(detail gl.zink $V1 | sed 's/: 4096 pixels right.*//')
check "gl.zink: Zink over the release's lavapipe drew every pixel ($ZINK)" \
	sh -c "case \"\$1\" in zink*'($RENDERER'*) ;; *) exit 1 ;; esac" sh "$ZINK"
check "…from the release's EGL vendor, gallium driver and lavapipe" \
	test "$(detail gl.zink $V1)" = "$ZINK: 4096 pixels right; the release's libEGL_mesa.so.0.0.0, ${DRIVER##*/}, libvulkan_lvp.so"

# The check tells the copies apart: the smoke program on the distribution's GL fails gl.draw.
GL_ARGS="--egl-lib $REAL/versions/$V1/lib/gl/libEGL_mesa.so.0 --gl-dir $REAL/versions/$V1/lib/gl --no-vulkan --no-opencl --json"
# shellcheck disable=SC2086
expect_exit 1 "the smoke program under \`run --gl distro\` fails gl.draw" mesa run --gl distro "$SMOKE" $GL_ARGS
check "…naming the distribution's EGL vendor" \
	sh -c "python3 -c 'import json,sys; d=json.load(sys.stdin); t=d[\"tests\"][6]; print(t[\"status\"], t[\"detail\"])' <'$T/out' |
		grep -q '^fail the EGL vendor driver mapped is $SYS/libEGL_mesa'"
# shellcheck disable=SC2086
expect_exit 0 "the smoke program under \`run\` passes gl.draw" mesa run "$SMOKE" $GL_ARGS
# shellcheck disable=SC2086
expect_exit 1 "…and under \`run --gl zink\` it fails gl.draw: the renderer is Zink's" mesa run --gl zink "$SMOKE" $GL_ARGS
check "…said so" sh -c "grep -q 'Zink where the release.s own gallium driver was asked for' '$T/out'"

# --- a release whose gallium driver is damaged: the stand-in with another library in its place ---
# (the file gl.draw found mapped: Mesa 25's libgallium, not libdril's stub)
check "the gallium driver to damage is the one gl.draw named$([ -n "$GALLIUM" ] && echo ", libgallium")" \
	sh -c "test -f '$REAL/versions/$V1/lib/gl/$DRIVER' && ! test -L '$REAL/versions/$V1/lib/gl/$DRIVER' &&
		case \"\$1\" in *', ${DRIVER##*/}') ;; *) exit 1 ;; esac" sh "$(detail gl.draw $V1)"
mkdir -p "$T/x" "$T/broken"
tar -xzf "$R1" -C "$T/x" && mv "$T/x/tree" "$T/stage" || not_ok "unpack $V1's tarball"
printf 'int tb_not_a_gallium_driver(void) { return 1; }\n' >"$T/dri.c"
rm -f "$T/stage/lib/gl/$DRIVER"
cc -shared -fPIC -o "$T/stage/lib/gl/$DRIVER" "$T/dri.c" && chmod 644 "$T/stage/lib/gl/$DRIVER"
# the stand-in's own pack options, from its MANIFEST
opts=$(awk -F= '/^(drivers|vulkan_lib|vulkan_api|vulkan_driver_id|opencl_lib|rusticl_enable|glx_vendor_lib|gbm_backends_dir|gallium_drivers)=/ {
	k = $1; gsub("_", "-", k); print "--" k, substr($0, length($1) + 2) }' "$T/x/MANIFEST")
# shellcheck disable=SC2086
ctl mesa pack --stage "$T/stage" --version $V2 --keep-links $opts "$T/broken" >/dev/null || not_ok "pack $V2"
R2=$(ls "$T/broken"/tb323fu-mesa-$V2-*.tar.*)
expect_exit 6 "install-local of a release with a damaged gallium driver is rolled back (exit 6)" \
	ctl --json --progress json mesa install-local "$R2"
reason_is smoke-failed
check "the Vulkan and OpenCL tests passed, gl.draw and gl.zink failed" \
	test "$(python3 -c 'import json,sys; print(sorted((d["test"], d["status"]) for d in map(json.loads, sys.stdin) if d.get("op") == "smoke" and d.get("status") != "run"))' <"$T/err")" = \
	"[('cl.kernel', 'pass'), ('cl.platform', 'pass'), ('gl.draw', 'fail'), ('gl.zink', 'fail'), ('vk.compute', 'pass'), ('vk.driver', 'pass'), ('vk.loader', 'pass'), ('vk.sync', 'pass')]"
check "the sentence names gl.draw and says the version was removed" \
	sh -c "grep -q 'gl.draw: no surfaceless EGL display' '$T/err' && grep -q 'Mesa $V2 failed its smoke test (.*) and was removed from the store' '$T/err'"
check "$V1 is still current, $V2 recorded as failed" test "$(st 'd["installed"], d["failed"], d["failed_reason_id"]')" = "('$V1', '$V2', 'smoke-failed')"
check "$V2's tree, env and GL files are gone" \
	sh -c "! ls -d '$STORE/versions/$V2' '$STORE/env/$V2.env' '$STORE/env/$V2.gl' '$STORE/env/$V2.zink' '$STORE/icd/versions/$V2' 2>/dev/null"
check "current's GL is still $V1's" grep -q "^LIBGL_DRIVERS_PATH=$STORE/current/lib/gl/dri\$" "$STORE/env/current.gl"
check "…and draws" sh -c "'$MESA' --store '$STORE' run '$SMOKE' $GL_ARGS >/dev/null"

# --- a release without GL skips them ---
expect_exit 0 "install-local $V3 (no GL) passes its smoke tests" ctl mesa install-local "$R3"
check "gl.draw and gl.zink skipped: the release ships no GL" \
	test "$(result '[(t["status"], t["detail"]) for t in d["tests"] if t["name"].startswith("gl.")]' $V3)" = \
	"[('skip', 'the release ships no GL'), ('skip', 'the release ships no GL')]"
check "the sentence counts 6 passed, 2 skipped" grep -q "passed its smoke tests (6 passed, 2 skipped)" "$T/out"

done_testing
