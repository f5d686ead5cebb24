#!/bin/sh
# remove --force VERSION removes the previous version on purpose, saying rollback is no longer
# possible; plain remove of the previous refuses, naming --force; the current version is never
# removed, forced or not (docs/design.md §12).
. "$TB_TOP/tests/lib.sh"

printf 'smoke = off\nkeep_versions = 2\n' >"$TB323FU_MESA_CONFIG"
if ! R1=$(tiny_release 2026.10.01 "$T/r1") || ! R2=$(tiny_release 2026.10.02 "$T/r2"); then
	not_ok "tiny releases"
	done_testing
	exit 1
fi
if ! ctl mesa install-local "$R1" >/dev/null || ! ctl mesa install-local "$R2" >/dev/null; then
	not_ok "install-local of two tiny releases"
fi
expect_exit 1 "remove of the previous version" ctl --json mesa remove 2026.10.01
reason_is in-use
check "…names --force and what it costs" test "$(json_strict "$T/out" 'd["message"]')" = \
	"Mesa 2026.10.01 is the previous version, kept for \`tb323fu-ctl --store $STORE mesa rollback\`; nothing was changed; \`tb323fu-ctl --store $STORE mesa remove --force 2026.10.01\` removes it now, and rollback is then no longer possible"
check "…and it stays" test "$(readlink "$STORE/previous")" = versions/2026.10.01
expect_exit 0 "remove --force --dry-run of the previous" ctl mesa remove --force --dry-run 2026.10.01
check "…says rollback would no longer be possible" grep -q "the previous version: rollback would no longer be possible; nothing was changed" "$T/out"
check "…and changes nothing" test -d "$STORE/versions/2026.10.01"
expect_exit 0 "remove --force of the previous" ctl --json mesa remove --force 2026.10.01
check "…says rollback is no longer possible" test "$(json_strict "$T/out" 'd["message"], d["dropped_previous"]')" = \
	"('Mesa 2026.10.01, the previous version, removed; rollback is no longer possible until another version is installed', True)"
check "…its tree, link and files are gone" sh -c "[ ! -e '$STORE/versions/2026.10.01' ] && [ ! -L '$STORE/previous' ] &&
	[ ! -e '$STORE/env/2026.10.01.env' ] && [ ! -e '$STORE/icd/versions/2026.10.01' ]"
check "status: no previous" test "$(ctl --json mesa status | json_strict - 'd["previous"]')" = ""
expect_exit 1 "rollback afterwards" ctl mesa rollback
expect_exit 1 "remove --force of the current version" ctl --json mesa remove --force 2026.10.02
reason_is in-use
check "…it stays current" test "$(readlink "$STORE/current")" = versions/2026.10.02
done_testing
