#!/bin/sh
# Session-wide switching: `tb323fu-ctl mesa on` / `off` and what the next login gets from
# systemd's environment.d generator (the real one, reading a link to the store's env.conf as
# /etc/environment.d/60-tb323fu-mesa.conf does) and from login shells with the profile.d
# snippet; and what `make install` puts in place for both.
. "$TB_TOP/tests/lib.sh"

V1=2026.10.06
V2=2026.10.09
GEN=/usr/lib/systemd/user-environment-generators/30-systemd-environment-d-generator
SNIPPET=$TB_TOP/dist/profile.d/tb323fu-mesa.sh
KEYS='^(VK_DRIVER_FILES|VK_ICD_FILENAMES|OCL_ICD_VENDORS|RUSTICL_ENABLE|LD_LIBRARY_PATH)='
R1=$(standin $V1) && R2=$(standin $V2 --ld-library-path lib) ||
	{ not_ok "stand-in releases"; done_testing; exit 1; }
[ -x "$GEN" ] || { not_ok "systemd's environment.d generator is installed ($GEN)"; done_testing; exit 1; }
ctl mesa install-local "$R1" --no-smoke >/dev/null || not_ok "install $V1"
REAL=$(cd "$STORE" && pwd -P)

# The user's side of a login: environment.d in XDG_CONFIG_HOME linking to the store's env.conf,
# a home whose .profile reads the snippet as /etc/profile reads /etc/profile.d/*.sh.
mkdir -p "$T/config/environment.d" "$T/home"
ln -s "$STORE/env.conf" "$T/config/environment.d/60-tb323fu-mesa.conf"
printf '. "%s"\n' "$SNIPPET" >"$T/home/.profile"
# generator [VAR=value…]: what the generator sets in the user manager's environment (it prints
# the variables it sets or changes), our variables only.
generator() {
	env -i PATH=/usr/bin:/bin HOME="$T/home" XDG_CONFIG_HOME="$T/config" "$@" "$GEN" |
		grep -E "$KEYS" | sort
}
# login SHELL [VAR=value…]: the same variables in a login shell.
login() {
	sh=$1
	shift
	env -i PATH=/usr/bin:/bin HOME="$T/home" TB323FU_MESA_DIR="$STORE" "$@" "$sh" -l -c env |
		grep -E "$KEYS" | sort
}
expected() {
	{
		echo "VK_DRIVER_FILES=$REAL/icd/turnip.json"
		echo "VK_ICD_FILENAMES=$REAL/icd/turnip.json"
		echo "OCL_ICD_VENDORS=$REAL/icd/opencl"
		echo "RUSTICL_ENABLE=llvmpipe"
		[ $# -gt 0 ] && echo "LD_LIBRARY_PATH=$1"
	} | sort
}

# --- off: nothing ---
check "env.conf is empty while off" test ! -s "$STORE/env.conf"
check "off: the generator emits none of the variables" test -z "$(generator)"
check "off: a login sh gets none of them" test -z "$(login sh)"
check "off: a login bash gets none of them" test -z "$(login bash)"

# --- on, a release without LD_LIBRARY_PATH ---
mkdir -p "$FLATPAK_SYSTEM_DIR" # a system installation (the test's own): on edits its override
expect_exit 0 "on" ctl mesa on
check "on: the Flatpak installation's override unsets OCL_ICD_VENDORS for its sandboxes" \
	grep -q '^OCL_ICD_VENDORS=' "$FLATPAK_SYSTEM_DIR/overrides/global"
check "on: the generator emits the four variables" test "$(generator)" = "$(expected)"
check "on: a login sh gets the same" test "$(login sh)" = "$(expected)"
check "on: a login bash gets the same" test "$(login bash)" = "$(expected)"
check "on: an inherited LD_LIBRARY_PATH is left as it was" \
	test "$(generator LD_LIBRARY_PATH=/opt/x)" = "$(expected)"
check "on, current not exported to Flatpak: flatpak.conf is empty (tests/integration/flatpak.sh fills it)" \
	test -f "$STORE/flatpak.conf" -a ! -s "$STORE/flatpak.conf"

# --- on, a release that asks for LD_LIBRARY_PATH ---
ctl mesa install-local "$R2" --no-smoke >/dev/null || not_ok "install $V2"
check "installing $V2 while on rewrites env.conf" grep -q '^LD_LIBRARY_PATH=' "$STORE/env.conf"
check "generator: LD_LIBRARY_PATH is the store's lib/ alone when none is inherited" \
	test "$(generator)" = "$(expected "$REAL/current/lib")"
check "generator: the store's lib/ goes before an inherited LD_LIBRARY_PATH" \
	test "$(generator LD_LIBRARY_PATH=/opt/x:/opt/y | grep ^LD_)" = "LD_LIBRARY_PATH=$REAL/current/lib:/opt/x:/opt/y"
check "login sh: the same expansion" test "$(login sh)" = "$(expected "$REAL/current/lib")"
check "login bash: the same expansion" test "$(login bash LD_LIBRARY_PATH=/opt/x | grep ^LD_)" = "LD_LIBRARY_PATH=$REAL/current/lib:/opt/x"
check "login sh in a session that already has it: the directory once" \
	test "$(login sh LD_LIBRARY_PATH="$REAL/current/lib:/opt/x" | grep ^LD_)" = "LD_LIBRARY_PATH=$REAL/current/lib:/opt/x"
check "the snippet leaves no helper variables behind" \
	sh -c "! env -i PATH=/usr/bin:/bin HOME='$T/home' TB323FU_MESA_DIR='$STORE' sh -l -c set | grep -q '^_tb323fu'"
check "the snippet does not run what a store file holds" sh -c "
	mkdir -p '$T/evil' && printf 'A=\$(touch $T/ran)\n\`touch $T/ran\`\nB=x;touch $T/ran\n' >'$T/evil/env.conf' &&
	env -i PATH=/usr/bin:/bin HOME='$T/home' TB323FU_MESA_DIR='$T/evil' sh -l -c true && test ! -e '$T/ran'"

# --- the drivers those sessions really load ---
rm -f "$T"/ld.*
# shellcheck disable=SC2046 # the generator's lines are VAR=value words without blanks
env -i PATH=/usr/bin:/bin $(generator) LD_DEBUG=files LD_DEBUG_OUTPUT="$T/ld" vulkaninfo --summary >/dev/null 2>&1
check "a program in the generated session loads the store's Vulkan driver of $V2" test \
	"$(sed -n 's/.*calling init: //p' "$T"/ld.* | grep '/libvulkan_' | while read -r p; do readlink -f "$p"; done)" = \
	"$REAL/versions/$V2/lib/libvulkan_lvp.so"
rm -f "$T"/ld.*
env -i PATH=/usr/bin:/bin HOME="$T/home" TB323FU_MESA_DIR="$STORE" sh -l -c \
	"LD_DEBUG=files LD_DEBUG_OUTPUT='$T/ld' clinfo -l" >"$T/out" 2>/dev/null
check "clinfo in a login shell sees rusticl's llvmpipe device" grep -q 'Device #0: llvmpipe' "$T/out"
check "and loads the store's rusticl of $V2" test \
	"$(sed -n 's/.*calling init: //p' "$T"/ld.* | grep 'OpenCL.so' | grep -v '/libOpenCL' | while read -r p; do readlink -f "$p"; done)" = \
	"$(readlink -f "$REAL/versions/$V2/lib/libRusticlOpenCL.so.1")"

# --- off again ---
expect_exit 0 "off" ctl mesa off
check "off: the override held only ours, so it is gone with its folder" test ! -e "$FLATPAK_SYSTEM_DIR/overrides"
check "off: env.conf is empty" test ! -s "$STORE/env.conf"
check "off: the generator emits none of the variables" test -z "$(generator)"
check "off: an inherited LD_LIBRARY_PATH is left alone" test -z "$(generator LD_LIBRARY_PATH=/opt/x)"
check "off: a login sh gets none" test -z "$(login sh)"
check "off: a login bash gets none" test -z "$(login bash)"
check "off: tb323fu-mesa run still selects the store per process" test "$(mesa run printenv RUSTICL_ENABLE)" = llvmpipe

# --- make install puts the session files in place ---
DEST=$T/dest
if make -s -C "$TB_TOP" -o all BUILD="$TB_BUILD" PREFIX=/usr DESTDIR="$DEST" install >"$T/out" 2>&1; then
	ok "make install PREFIX=/usr DESTDIR=…"
else
	not_ok "make install PREFIX=/usr DESTDIR=…" "$(tail -5 "$T/out")"
fi
check "environment.d link to the store's env.conf" \
	test "$(readlink "$DEST/etc/environment.d/60-tb323fu-mesa.conf")" = /var/lib/tb323fu/mesa/env.conf
check "environment.d link to the store's flatpak.conf" \
	test "$(readlink "$DEST/etc/environment.d/61-tb323fu-mesa-flatpak.conf")" = /var/lib/tb323fu/mesa/flatpak.conf
check "profile.d snippet" cmp -s "$DEST/etc/profile.d/tb323fu-mesa.sh" "$SNIPPET"
check "the launcher and the control tool in bin/" test -x "$DEST/usr/bin/tb323fu-mesa" -a -x "$DEST/usr/bin/tb323fu-ctl"
check "the default configuration, every line a comment or blank" \
	sh -c "test -f '$DEST/etc/tb323fu/mesa.conf' && ! grep -qvE '^(#|\$)' '$DEST/etc/tb323fu/mesa.conf'"
check "the default configuration is accepted by tb323fu-ctl" \
	sh -c '"$@" >/dev/null' sh "$CTL" --store "$STORE" --config "$DEST/etc/tb323fu/mesa.conf" mesa status
UNIT=$DEST/usr/lib/systemd/system/tb323fu-mesa-boot-tick.service
check "boot-tick unit with the backend's path filled in" grep -qx "ExecStart=/usr/libexec/tb323fu-mesa/tb323fu-ctl-mesa --wait boot-tick" "$UNIT"
check "boot-tick runs before logins and the display manager" grep -qx "Before=systemd-user-sessions.service display-manager.service" "$UNIT"
if command -v systemd-analyze >/dev/null; then
	ln -s "$CTL" "$T/tb323fu-ctl-mesa"
	mkdir -p "$T/units"
	for u in tb323fu-mesa-boot-tick.service tb323fu-mesa-check.service tb323fu-mesa-check.timer; do
		sed "s|/usr/libexec/tb323fu-mesa/tb323fu-ctl-mesa|$T/tb323fu-ctl-mesa|" "$DEST/usr/lib/systemd/system/$u" >"$T/units/$u"
	done
	check "systemd-analyze verify accepts the units" sh -c "cd '$T/units' && systemd-analyze verify tb323fu-mesa-boot-tick.service tb323fu-mesa-check.service tb323fu-mesa-check.timer"
else
	skip "systemd-analyze verify accepts the units" "no systemd-analyze"
fi

done_testing
