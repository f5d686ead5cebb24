#!/bin/sh
# The app commands take --user alike: `app list --user` lists the caller's own rules only,
# and `app unset APP` for an application whose only rule is the caller's own says that the
# rule is the user's and how to remove it (--user), changing nothing; the other way round too.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/app-lib.sh"

R=$(tiny_release 2026.10.06 "$T/r") && ctl mesa install-local "$R" --no-smoke >/dev/null ||
	{ not_ok "a tiny release installed"; done_testing; exit 1; }
entry mine.desktop '[Desktop Entry]' 'Type=Application' 'Name=Mine' 'Exec=mine'
entry theirs.desktop '[Desktop Entry]' 'Type=Application' 'Name=Theirs' 'Exec=theirs'
ctl mesa app set --user mine distro >/dev/null && ctl mesa app set theirs current >/dev/null ||
	{ not_ok "two rules set"; done_testing; exit 1; }

# --- app list --user ---
expect_exit 0 "app list --user" ctl --json mesa app list --user
check "  only the caller's own rule" \
	test "$(json_strict "$T/out" '[(r["app"], r["scope"]) for r in d["rules"]]')" = "[('mine.desktop', 'user')]"
expect_exit 0 "app list" ctl --json mesa app list
check "  both rules" \
	test "$(json_strict "$T/out" 'sorted((r["app"], r["scope"]) for r in d["rules"])')" = \
	"[('mine.desktop', 'user'), ('theirs.desktop', 'system')]"
expect_exit 0 "app list --user (text)" ctl mesa app list --user
check "  names mine and not theirs" sh -c "grep -q mine.desktop '$T/out' && ! grep -q theirs.desktop '$T/out'"

# --- unset in the wrong scope ---
listing "$T" | grep -v -e '/out$' -e '/err$' -e '/all-' >"$T/all-before"
expect_exit 0 "app unset mine (its rule is the user's)" ctl mesa app unset mine
check "  says there is no system rule and how to remove the user's" \
	grep -qx 'mine.desktop has no system rule; nothing was changed; your own rule for it is removed with `tb323fu-ctl --store '"$STORE"' mesa app unset --user mine.desktop`' "$T/out"
expect_exit 0 "app unset --user theirs (its rule is the system's)" ctl mesa app unset --user theirs
check "  says there is no user rule and how to remove the system's" \
	grep -qx 'theirs.desktop has no user rule; nothing was changed; the system'"'"'s rule for it is removed with `sudo tb323fu-ctl --store '"$STORE"' mesa app unset theirs.desktop`' "$T/out"
listing "$T" | grep -v -e '/out$' -e '/err$' -e '/all-' >"$T/all-after"
check "  neither changed a file" cmp -s "$T/all-before" "$T/all-after"
expect_exit 0 "app unset --user mine" ctl mesa app unset --user mine
check "  removes the user's rule" sh -c "! ctl_out=\$('$CTL' --store '$STORE' mesa app list --user) || ! echo \"\$ctl_out\" | grep -q mine.desktop"
ctl mesa app unset theirs >/dev/null
done_testing
