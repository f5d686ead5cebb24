#!/bin/sh
# The package's dpkg trigger keeps the override entries current (docs/design.md §16): a small
# package that owns an original entry is installed, upgraded and removed with dpkg in a
# scratch root, beside a package with the trigger of debian/tb323fu-mesa.triggers and the
# `triggered` branch of debian/tb323fu-mesa.postinst (run without chroot, on this test's store).
# The upgrade rebuilds our entry from the new original; the removal removes it.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/app-lib.sh"

if [ "$(id -u)" != 0 ] || ! command -v dpkg-deb >/dev/null; then
	skip "the dpkg trigger" "needs root and dpkg-deb for a scratch dpkg root"
	done_testing
	exit 0
fi
R1=$(tiny_release 2026.10.06 "$T/r1") && ctl mesa install-local "$R1" --no-smoke >/dev/null ||
	{ not_ok "install a release"; done_testing; exit 1; }
ROOT="$T/root"
mkdir -p "$ROOT/var/lib/dpkg/info" "$ROOT/var/lib/dpkg/updates" "$ROOT/var/lib/dpkg/triggers"
: >"$ROOT/var/lib/dpkg/status"
: >"$ROOT/var/lib/dpkg/available"
# The scratch root's applications are where the desktop of this test looks.
export XDG_DATA_DIRS="$T/local/share:$ROOT/usr/share"
DPKG="dpkg --root=$ROOT --force-script-chrootless --force-bad-path --force-not-root --log=/dev/null"

# deb NAME VERSION DIR: builds $T/NAME_VERSION.deb from DIR (DIR/DEBIAN/control written here).
deb() {
	mkdir -p "$3/DEBIAN"
	printf 'Package: %s\nVersion: %s\nArchitecture: all\nMaintainer: test <test@example.org>\nDescription: test package\n' \
		"$1" "$2" >"$3/DEBIAN/control"
	dpkg-deb --root-owner-group -b "$3" "$T/$1_$2.deb" >/dev/null
}

# The trigger's package: our triggers file, and our postinst's `triggered` branch calling this
# build on this store.
P="$T/pkg-trigger"
mkdir -p "$P/DEBIAN"
cp "$TB_TOP/debian/tb323fu-mesa.triggers" "$P/DEBIAN/triggers"
{
	printf '#!/bin/sh\nset -e\nSTORE=%s\n' "$STORE"
	sed -n '/^if \[ "$1" = triggered \]; then$/,/^fi$/p' "$TB_TOP/debian/tb323fu-mesa.postinst" |
		sed "s|/usr/libexec/tb323fu-mesa/tb323fu-ctl-mesa|$CTL --store $STORE mesa|"
	printf 'exit 0\n'
} >"$P/DEBIAN/postinst"
chmod 755 "$P/DEBIAN/postinst"
check "our postinst has the triggered branch" grep -q 'app refresh' "$P/DEBIAN/postinst"
deb tb323fu-trigger-test 1 "$P"

# The application's package, version 1 and 2.
app_pkg() {
	d="$T/pkg-app-$1"
	mkdir -p "$d/usr/share/applications"
	printf '[Desktop Entry]\nType=Application\nName=Packaged\nExec=packaged-v%s %%U\n' "$1" \
		>"$d/usr/share/applications/org.example.Packaged.desktop"
	deb tb323fu-test-app "$1.0" "$d"
}
app_pkg 1 && app_pkg 2
OURS="$LOCAL_APPS/org.example.Packaged.desktop"

expect_exit 0 "dpkg -i the trigger's package and the application 1.0 into the scratch root" \
	sh -c "$DPKG -i '$T/tb323fu-trigger-test_1.deb' && $DPKG -i '$T/tb323fu-test-app_1.0.deb'"
expect_exit 0 "app set org.example.Packaged distro" ctl mesa app set org.example.Packaged distro
check "…ours wraps version 1's Exec" grep -q '^Exec=.* distro -- packaged-v1 %U$' "$OURS"

expect_exit 0 "upgrade the application to 2.0 with dpkg" $DPKG -i "$T/tb323fu-test-app_2.0.deb"
check "…the trigger ran our refresh" grep -q 'org.example.Packaged.desktop: rebuilt' "$T/out"
check "…ours now wraps version 2's Exec" grep -q '^Exec=.* distro -- packaged-v2 %U$' "$OURS"
check "…its marker has version 2's hash" grep -qx "X-TB323FU-Mesa-Original-SHA256=$(sha256sum <"$ROOT/usr/share/applications/org.example.Packaged.desktop" | cut -c1-64)" "$OURS"
check "…and it passes desktop-file-validate" valid "$OURS"

expect_exit 0 "remove the application with dpkg" $DPKG -r tb323fu-test-app
check "…the trigger ran our refresh" grep -q 'org.example.Packaged.desktop: removed' "$T/out"
check "…ours is gone with its original" test ! -e "$OURS"
check "…the rule stays for a reinstall" grep -qx 'org.example.Packaged.desktop=distro' "$STORE/app-rules"
expect_exit 0 "reinstall it" $DPKG -i "$T/tb323fu-test-app_2.0.deb"
check "…ours is back" grep -q '^Exec=.* distro -- packaged-v2 %U$' "$OURS"

$DPKG -r tb323fu-test-app tb323fu-trigger-test >/dev/null 2>&1
done_testing
