#!/bin/sh
# A real start through the desktop machinery (GLib's `gio launch`, which expands the field
# codes as a desktop does) of the override entries `app set` wrote, in a session switched on
# (its variables from the store's env.conf): the entry with a `distro` rule loads the
# distribution's driver, the one pinned to the older version loads that version's, and both
# get exactly the arguments their original entry gives (docs/design.md §16). Which driver was
# loaded is asked of the dynamic linker's trace, as launcher_drivers.sh does.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/app-lib.sh"

if ! command -v gio >/dev/null || ! command -v vulkaninfo >/dev/null; then
	skip "a start through gio launch" "gio (libglib2.0-bin) or vulkaninfo (vulkan-tools) is not installed"
	done_testing
	exit 0
fi
V1=2026.10.06
V2=2026.10.07
R1=$(standin $V1) && R2=$(standin $V2) &&
	ctl mesa install-local "$R1" --no-smoke >/dev/null && ctl mesa install-local "$R2" --no-smoke >/dev/null &&
	ctl mesa on >/dev/null || { not_ok "install two stand-in releases, switch the session on"; done_testing; exit 1; }
REAL=$(cd "$STORE" && pwd -P)
SYSLIB=/usr/lib/${DEB_HOST_MULTIARCH:-$(gcc -print-multiarch 2>/dev/null || echo "$(uname -m)-linux-gnu")}
check "the session file says on" test -s "$STORE/env.conf"

# The program the entries start: its arguments, then vulkaninfo under the linker's trace.
cat >"$T/probe" <<EOF
#!/bin/sh
tag=\$1
shift
for a; do printf '[%s]\n' "\$a"; done >"$T/argv.\$tag"
LD_DEBUG=files LD_DEBUG_OUTPUT="$T/ld.\$tag" vulkaninfo --summary >"$T/vk.\$tag" 2>&1
echo \$? >"$T/done.\$tag.tmp" && mv "$T/done.\$tag.tmp" "$T/done.\$tag"
EOF
chmod +x "$T/probe"
entry org.example.Escape.desktop '[Desktop Entry]' 'Type=Application' 'Name=Escape' \
	"Exec=$T/probe escape \"a b\" \"d\\\\\"e\" 100%% %f %c"
entry org.example.Pinned.desktop '[Desktop Entry]' 'Type=Application' 'Name=Pinned' "Exec=$T/probe pinned %f"

# launch TAG FILE ARG: gio launch FILE ARG in the switched-on session; waits (a bound, no
# guess) for the probe to finish. The trace's driver libraries go to $T/drivers.TAG.
launch() {
	rm -f "$T/done.$1" "$T"/ld."$1".*
	# the desktop's own directories after the test's: the Vulkan loader finds its ICDs there
	(set -a && . "$STORE/env.conf" && XDG_DATA_DIRS="$XDG_DATA_DIRS:/usr/local/share:/usr/share" &&
		gio launch "$2" "$3") >"$T/gio.out" 2>&1 &&
		wait_until 120 test -e "$T/done.$1" || return 1
	cat "$T"/ld."$1".* | sed -n 's/.*calling init: //p' | sort -u |
		while read -r p; do readlink -f "$p"; done | grep -E '/libvulkan_[^/]*$' | sort -u >"$T/drivers.$1"
	test "$(cat "$T/done.$1")" = 0
}

check "the original entry (the Escape application) starts through gio launch" launch escape "$APPS/org.example.Escape.desktop" /etc/hostname
mv "$T/argv.escape" "$T/argv.original"
check "…on the store's driver, as the session says" test "$(cat "$T/drivers.escape")" = "$REAL/versions/$V2/lib/libvulkan_lvp.so"

expect_exit 0 "app set org.example.Escape distro" ctl mesa app set org.example.Escape distro
check "gio launch of ours" launch escape "$LOCAL_APPS/org.example.Escape.desktop" /etc/hostname
check "…loaded the distribution's lavapipe" grep -qx "$SYSLIB/libvulkan_lvp.so" "$T/drivers.escape"
check "…and no driver of the store" sh -c "! grep -q '^$REAL/' '$T/drivers.escape'"
check "…vulkaninfo found its device" grep -q 'driverName *= llvmpipe' "$T/vk.escape"
check "…the program got exactly the original entry's arguments (quotes, %%, %f, %c)" \
	cmp -s "$T/argv.original" "$T/argv.escape"
check "…which are what the original's Exec says" test "$(cat "$T/argv.escape")" = '[a b]
[d"e]
[100%]
[/etc/hostname]
[Escape]'

expect_exit 0 "app set org.example.Pinned $V1 (current is $V2)" ctl mesa app set org.example.Pinned $V1
check "gio launch of ours" launch pinned "$LOCAL_APPS/org.example.Pinned.desktop" /etc/hostname
check "…loaded the driver of $V1, and only it" test "$(cat "$T/drivers.pinned")" = "$REAL/versions/$V1/lib/libvulkan_lvp.so"
check "…with its argument" test "$(cat "$T/argv.pinned")" = '[/etc/hostname]'

# Our action for the other choice: the store's Mesa for the distro rule.
check "our action of the distro rule starts it on the store's Mesa" sh -c "
	grep -q '^Exec=$MESA --store $REAL run -- $T/probe escape' '$LOCAL_APPS/org.example.Escape.desktop'"

ctl mesa off >/dev/null
done_testing
