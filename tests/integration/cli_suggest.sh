#!/bin/sh
# Suggestions that point at what was meant: a word other tools use for one of our commands
# names that command (uninstall → remove, not install, which is two edits away), a mistyped
# version for remove names the nearest installed one, and completion offers remove only the
# versions remove would take (not current, previous or a pinned one).
. "$TB_TOP/tests/lib.sh"

for w in uninstall:remove rm:remove delete:remove upgrade:update disable:off enable:on revert:rollback; do
	expect_exit 2 "mesa ${w%%:*}: a usage error" ctl mesa "${w%%:*}" 2026.10.06
	check "  suggests ${w#*:}" grep -q "unknown command \"${w%%:*}\"; did you mean \"${w#*:}\"?" "$T/err"
done
expect_exit 2 "mesa instal (a typo)" ctl mesa instal
check "  still suggests install" grep -q 'did you mean "install"?' "$T/err"

printf 'smoke = off\nkeep_versions = 9\n' >"$TB323FU_MESA_CONFIG"
for v in 2026.09.30 2026.10.06 2026.10.17 2026.10.18; do
	tar=$(tiny_release $v "$T/r-$v") && ctl mesa install-local "$tar" >/dev/null 2>&1 ||
		{ not_ok "install-local of a tiny $v"; done_testing; exit 1; }
done
# current 2026.10.18, previous 2026.10.17
expect_exit 1 "remove 2026.10.0 (not installed)" ctl --json mesa remove 2026.10.0
reason_is not-installed
check "  names the nearest installed version, 2026.10.06" \
	test "$(json_strict "$T/out" 'd["message"]')" = "Mesa 2026.10.0 is not installed; did you mean 2026.10.06? (tb323fu-ctl --store $STORE mesa list)"
expect_exit 1 "remove 2031.1.1 (nothing near)" ctl mesa remove 2031.1.1
check "  names none" grep -qx "tb323fu-ctl: Mesa 2031.1.1 is not installed (tb323fu-ctl --store $STORE mesa list)" "$T/err"

# completion
# comp WORDS…: what the bash completion is offered after `tb323fu-ctl --store S mesa WORDS…`
comp() { "$CTL" __complete tb323fu-ctl --store "$STORE" mesa "$@" | sort | tr '\n' ' '; }
got=$(comp remove "")
check "completion of remove: only what remove would take (not current, not previous)" \
	test "$got" = "2026.09.30 2026.10.06 "
got=$(comp verify "")
check "completion of verify: every installed version" test "$got" = "2026.09.30 2026.10.06 2026.10.17 2026.10.18 "
done_testing
