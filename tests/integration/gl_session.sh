#!/bin/sh
# The session's GL (docs/design.md §6): `on` leaves it alone, `on --gl native|zink` or
# mesa.conf's session_gl gives the next login the current version's GL (on trial, as a
# switch-on is), and status and doctor say what GL programs get. The login is systemd's real
# environment.d generator reading a link to env.conf, and the profile.d snippet; a surfaceless
# EGL program draws in what they give.
. "$TB_TOP/tests/lib.sh"

V1=2026.11.01
V2=2026.11.02
GEN=/usr/lib/systemd/user-environment-generators/30-systemd-environment-d-generator
SNIPPET=$TB_TOP/dist/profile.d/tb323fu-mesa.sh
DRAW=$TB_BUILD/tests/tools/egl-draw
[ -x "$DRAW" ] || { not_ok "tests/tools/egl-draw is built (make unit-tests)"; done_testing; exit 1; }
[ -x "$GEN" ] || { not_ok "systemd's environment.d generator is installed ($GEN)"; done_testing; exit 1; }
R1=$(standin $V1) && R2=$(standin $V2 --no-gl) || { not_ok "stand-in releases"; done_testing; exit 1; }
ctl mesa install-local "$R1" --no-smoke >/dev/null || not_ok "install $V1"
REAL=$(cd "$STORE" && pwd -P)
mkdir -p "$T/config/environment.d" "$T/home"
ln -s "$STORE/env.conf" "$T/config/environment.d/60-tb323fu-mesa.conf"
printf '. "%s"\n' "$SNIPPET" >"$T/home/.profile"

st() { ctl mesa status --json | json "$1"; }
# login_draw: the EGL program started with what systemd's generator gives the next login
login_draw() {
	env -i PATH=/usr/bin:/bin HOME="$T/home" XDG_CONFIG_HOME="$T/config" "$GEN" >"$T/login.env"
	# shellcheck disable=SC2046 # NAME=value words, none with a space
	env -i PATH=/usr/bin:/bin $(cat "$T/login.env") "$DRAW" >"$T/out" 2>"$T/err"
}
# shell_env: what a login shell gets from the profile.d snippet
shell_env() { env -i PATH=/usr/bin:/bin HOME="$T/home" TB323FU_MESA_DIR="$STORE" sh -l -c env; }
maps_store() { grep -q "^map=$REAL/versions/$V1/lib/gl/libEGL_mesa.so.0" "$T/out"; }

# --- on: the session's GL is left alone ---
expect_exit 0 "on" ctl mesa on
check "…env.conf names no GL variable" sh -c "! grep -q '^__EGL_VENDOR_LIBRARY_FILENAMES=\|^LIBGL_DRIVERS_PATH=' '$STORE/env.conf'"
check "…status --json: session_gl distro, none asked" test "$(st 'd["session_gl"], d["session_gl_asked"]')" = "('distro', 'distro')"
run_cmd ctl mesa status
check "…status says GL programs get the distribution's GL and how to give them the version's" \
	grep -qx "GL: programs get the distribution's GL; \`tb323fu-mesa run\` gives one Mesa $V1's" "$T/out"
login_draw
check "…a program of the next login draws on the distribution's GL" sh -c "grep -qx 'pixels=4096/4096' '$T/out' && ! grep -q '^map=$REAL/' '$T/out'"
expect_exit 0 "keep" ctl mesa keep

# --- on --gl zink: GL on Zink, on trial ---
expect_exit 0 "on --gl zink while on" ctl mesa on --gl zink
check "…says the GL too, on Zink, and the trial" grep -q "^Mesa $V1 is switched on, its GL too, on Zink, but no login reads the store .*; it is on trial for" "$T/out"
check "…env.conf carries Zink's variables after the release's" \
	sh -c "grep -qx 'MESA_LOADER_DRIVER_OVERRIDE=zink' '$STORE/env.conf' && grep -qx '__EGL_VENDOR_LIBRARY_FILENAMES=$STORE/icd/egl_vendor.json' '$STORE/env.conf' && head -1 '$STORE/env.conf' | grep -q '^VK_DRIVER_FILES='"
check "…on trial again" test "$(st 'd["session"], d["session_gl"]')" = "('trial', 'zink')"
login_draw
check "…a program of the next login draws on Zink over the store's GL" \
	sh -c "grep -qx 'pixels=4096/4096' '$T/out' && grep -q '^renderer=zink' '$T/out'"
check "…from the store's EGL vendor library" maps_store
check "…the login's LD_LIBRARY_PATH starts with GL's folder" grep -q "^LD_LIBRARY_PATH=$STORE/current/lib/gl" "$T/login.env"
shell_env >"$T/shell.env"
check "…a login shell gets the same GL variables" \
	sh -c "grep -qx 'MESA_LOADER_DRIVER_OVERRIDE=zink' '$T/shell.env' && grep -q '^LD_LIBRARY_PATH=$STORE/current/lib/gl' '$T/shell.env'"
expect_exit 0 "on --gl zink again" ctl mesa on --gl zink
check "…is already on" grep -q "^Mesa $V1 is already on; nothing was changed" "$T/out"
run_cmd ctl mesa doctor # a problem: no login reads this store
check "…says the session asks for GL on Zink, which no login gets from this store" grep -q "GL: the session asks for Mesa $V1's GL on Zink, but as no login reads this store its programs get the distribution's GL" "$T/out"
expect_exit 0 "keep" ctl mesa keep

# --- on without --gl: back to the distribution's GL, no trial ---
expect_exit 0 "on (mesa.conf silent)" ctl mesa on
check "…env.conf loses GL's variables" sh -c "! grep -q '^MESA_LOADER_DRIVER_OVERRIDE=\|^__EGL_VENDOR' '$STORE/env.conf'"
check "…no trial for giving GL back" test "$(st 'd["session"], d["session_gl"]')" = "('on', 'distro')"

# --- mesa.conf's session_gl ---
printf 'session_gl = native\n' >"$TB323FU_MESA_CONFIG"
expect_exit 0 "on with session_gl = native" ctl mesa on
check "…env.conf: the version's own GL, no Zink" \
	sh -c "grep -q '^__EGL_VENDOR_LIBRARY_FILENAMES=' '$STORE/env.conf' && ! grep -q '^MESA_LOADER_DRIVER_OVERRIDE' '$STORE/env.conf'"
check "…on trial" test "$(st 'd["session"], d["session_gl"], d["session_gl_asked"]')" = "('trial', 'native', 'native')"
login_draw
check "…a program of the next login draws on the store's llvmpipe" \
	sh -c "grep -qx 'pixels=4096/4096' '$T/out' && grep -q '^renderer=llvmpipe' '$T/out'"
check "…from the store's EGL vendor library" maps_store
run_cmd ctl mesa status
check "status says so, and that no login reads this private store, never that the session gets its GL" \
	sh -c "grep -qx \"GL: the session asks for Mesa $V1's GL, but as no login reads this store its programs get the distribution's GL\" '$T/out' && ! grep -q \"the session's programs get Mesa\" '$T/out'"
expect_exit 0 "on --gl distro overrides mesa.conf" ctl mesa on --gl distro
check "…env.conf names no GL" sh -c "! grep -q '^__EGL_VENDOR' '$STORE/env.conf'"
printf 'session_gl = vulkan\n' >"$TB323FU_MESA_CONFIG"
expect_exit 2 "session_gl = vulkan is refused" ctl mesa status
check "…naming the line" grep -q "session_gl" "$T/err"
printf 'session_gl = native\n' >"$TB323FU_MESA_CONFIG"
expect_exit 0 "on again with session_gl = native" ctl mesa on

# --- a version without GL ---
expect_exit 0 "install $V2 (no GL) while the session has GL" ctl mesa install-local "$R2" --no-smoke
check "…env.conf names no GL" sh -c "! grep -q '^__EGL_VENDOR' '$STORE/env.conf'"
check "…status: asked native, gets the distribution's" test "$(st 'd["session_gl"], d["session_gl_asked"]')" = "('distro', 'native')"
run_cmd ctl mesa status
check "…and says why" grep -qx "GL: the session asks for GL native but Mesa $V2 carries none, so programs get the distribution's GL" "$T/out"
expect_exit 1 "on --gl native with $V2" ctl mesa on --gl native
check "…says it carries no GL" grep -q "Mesa $V2 carries no GL (its release's drivers do not name gl): switch it on without --gl" "$T/err"
expect_exit 0 "rollback to $V1" ctl mesa rollback
check "…the session's GL comes back with it" sh -c "grep -q '^__EGL_VENDOR' '$STORE/env.conf'"

# --- off ---
expect_exit 0 "off" ctl mesa off
check "…env.conf is empty" test ! -s "$STORE/env.conf"
check "…status: the distribution's GL, none asked" test "$(st 'd["session_gl"], d["session_gl_asked"]')" = "('distro', 'distro')"
expect_exit 2 "on --gl vulkan" ctl mesa on --gl vulkan

done_testing
