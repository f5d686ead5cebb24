#!/bin/sh
# A version pinned by an application's rule (docs/design.md §16) stays: `remove` refuses it
# naming the rule (reason pinned), the pruning after install-local and after update keeps it,
# `app unset` lets it go. status and doctor show the rules, and a rule whose version is gone.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/app-lib.sh"

V1=2026.10.01
V2=2026.10.02
V3=2026.10.03
V4=2026.10.04
V5=2026.10.05
for v in $V1 $V2 $V3 $V4 $V5; do
	tiny_release $v "$T/r-$v" >"$T/r-$v.path" || { not_ok "release $v"; done_testing; exit 1; }
done
rel() { cat "$T/r-$1.path"; }
ctl mesa install-local "$(rel $V1)" --no-smoke >/dev/null || { not_ok "install $V1"; done_testing; exit 1; }
entry org.example.Old.desktop '[Desktop Entry]' 'Type=Application' 'Name=Old' 'Exec=old-game %f'
entry org.example.Mine.desktop '[Desktop Entry]' 'Type=Application' 'Name=Mine' 'Exec=mine'

expect_exit 0 "app set org.example.Old current, then previous after an install (pins the version previous is)" sh -c \
	"$CTL --store '$STORE' mesa install-local '$(rel $V2)' --no-smoke >/dev/null && $CTL --store '$STORE' mesa app set org.example.Old previous"
check "…the rule names $V1" grep -qx "org.example.Old.desktop=$V1" "$STORE/app-rules"
check "…the entry runs $V1" grep -q "run --version $V1 -- old-game %f" "$LOCAL_APPS/org.example.Old.desktop"

expect_exit 1 "remove $V1, pinned: refused" ctl --json mesa remove $V1
reason_is pinned
check "…the sentence names the rule and how to remove it" \
	grep -q "Mesa $V1 is pinned by the system's rule for org.example.Old.desktop (tb323fu-ctl --store $STORE mesa app unset org.example.Old.desktop)" "$T/err"
check "…$V1 is still installed" test -d "$STORE/versions/$V1"

for v in $V3 $V4; do ctl mesa install-local "$(rel $v)" --no-smoke >/dev/null; done
check "install-local twice more (keep_versions 2): $V1 survives the pruning, $V2 does not" \
	test "$(ls "$STORE/versions")" = "$V1
$V3
$V4"

MIRROR="$T/mirror"
mkdir -p "$MIRROR"
python3 "$TB_TOP/tests/doubles/fake-github" "$MIRROR" "file://$MIRROR" >/dev/null <<EOF
mesa-$V5 - $(rel $V5)
EOF
printf 'source = github:o/r\napi_url = file://%s\nchannel = stable\nrequire_signature = no\n' "$MIRROR" >"$TB323FU_MESA_CONFIG"
expect_exit 0 "update to $V5" ctl mesa update --no-smoke
check "…$V5 current, the pinned $V1 kept, $V3 pruned" test "$(ls "$STORE/versions")" = "$V1
$V4
$V5"
check "…the rule and its entry still name $V1" sh -c "grep -qx 'org.example.Old.desktop=$V1' '$STORE/app-rules' &&
	grep -q 'run --version $V1 --' '$LOCAL_APPS/org.example.Old.desktop'"

expect_exit 0 "a user's own rule pins too: app set --user org.example.Mine $V1" ctl mesa app set --user org.example.Mine $V1
ctl mesa app unset org.example.Old >/dev/null
expect_exit 1 "…with the system's rule unset, remove $V1 is still refused" ctl --json mesa remove $V1
reason_is pinned
check "…naming the user's rule" grep -q "pinned by your rule for org.example.Mine.desktop (tb323fu-ctl --store $STORE mesa app unset --user org.example.Mine.desktop)" "$T/err"
ctl mesa app unset --user org.example.Mine >/dev/null
ctl mesa app set org.example.Old $V1 >/dev/null

expect_exit 0 "status names the rule" ctl mesa status
check "…in a line for people" grep -q "org.example.Old.desktop starts with Mesa $V1 (pinned) (system rule)" "$T/out"
expect_exit 0 "doctor: no problem while $V1 is there" ctl --json mesa doctor
check "…its JSON lists the rule" test "$(json_strict "$T/out" '[(r["app"], r["choice"], r["version_gone"]) for r in d["app_rules"]]')" = "[('org.example.Old.desktop', '$V1', False)]"
check "…status --json keeps exactly its keys" test "$(ctl --json mesa status | json_strict - 'sorted(d)' | tr -d '\n')" = \
	"['available', 'base', 'cts', 'downloaded', 'drivers', 'enabled', 'failed', 'failed_reason', 'failed_reason_id', 'installed', 'last_bench', 'marked', 'max_tries', 'mesa_version', 'message', 'ok', 'op', 'previous', 'progress', 'ready', 'session', 'session_gl', 'session_gl_asked', 'stalled_s', 'state', 'store', 'takeover_needed', 'trial', 'tries']"

chmod -R u+w "$STORE/versions/$V1" && rm -rf "$STORE/versions/$V1"
expect_exit 0 "$V1 deleted by hand: status" ctl mesa status
check "…says the rule's version is gone and what to do" \
	grep -q "the system rule for org.example.Old.desktop names Mesa $V1, which is no longer installed: it will not start; set it again (tb323fu-ctl --store $STORE mesa app set org.example.Old.desktop current)" "$T/out"
expect_exit 1 "doctor: a problem" ctl --json mesa doctor
check "…version_gone in its JSON" test "$(json_strict "$T/out" '[r["version_gone"] for r in d["app_rules"]]')" = "[True]"
check "…and the problem named" test "$(json_strict "$T/out" 'any("org.example.Old.desktop names Mesa '$V1'" in p for p in d["problems"])')" = True
expect_exit 0 "app list --json says it too" ctl --json mesa app list
check "…version_gone" test "$(json_strict "$T/out" '[r["version_gone"] for r in d["rules"]]')" = "[True]"

expect_exit 0 "app unset org.example.Old" ctl mesa app unset org.example.Old
check "…the entry is gone" test ! -e "$LOCAL_APPS/org.example.Old.desktop"
expect_exit 0 "…doctor is content again" ctl mesa doctor

done_testing
