#!/bin/sh
# The store remembers (docs/design.md §12): a version rolled back from, one whose trial expired,
# one that failed its smoke tests and a refused release are marked with their reason (and the
# asset's digest); update, check and status's `available` skip a marked version, saying why,
# until the channel offers a newer one or the user names it (install V, update --to V); a
# refused asset is not fetched again unless the release's asset changed; status, list and
# doctor show the marks; forget clears one. Releases from a fake GitHub on 127.0.0.1.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"

arch=$(uname -m)
for v in 2026.10.06 2026.10.07 2026.10.08 2026.10.09; do
	tiny_release $v "$T/r-$v" >"$T/r-$v.path" || { not_ok "tiny release $v"; done_testing; exit 1; }
done
r() { cat "$T/r-$1.path"; }
# a tarball of 2026.10.09 with other content: the release's asset changed (another digest)
mkdir -p "$T/r-again" && cp "$T/tiny-stage/lib/libvk.so" "$T/tiny-stage/lib/extra.so" || exit 1
if ! again=$(tiny_release 2026.10.09 "$T/r-again"); then
	not_ok "a second tarball of 2026.10.09"
	done_testing
	exit 1
fi
rm -f "$T/tiny-stage/lib/extra.so"

WWW="$T/www"
mkdir -p "$WWW" "$T/keys"
printf 'secret-token\n' >"$T/token"
start_httpd "$WWW" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="http://127.0.0.1:$PORT"
LOG="$WWW/.log"
# serve SPEC-LINES: the fake GitHub offers these releases from now on
serve() { printf '%s\n' "$@" | python3 "$TB_TOP/tests/doubles/fake-github" "$WWW" "$API"; }
net_config 'smoke = off
keep_versions = 4'
jq_() { json_strict "$T/out" "$1"; }
cur() { readlink "$STORE/current"; }
# marked_as VERSION: the reason the store's mark of VERSION gives, "" when none
marked_as() { json_strict "$STORE/marked" "([k['reason'] for k in d['marked'] if k['version'] == '$1'] + [''])[0]"; }

# --- rolled back from: skipped by update, check and status until named
serve "mesa-2026.10.06 - $(r 2026.10.06)"
expect_exit 0 "update installs 2026.10.06" ctl mesa update
serve "mesa-2026.10.07 - $(r 2026.10.07)" "mesa-2026.10.06 - $(r 2026.10.06)"
expect_exit 0 "update installs 2026.10.07" ctl mesa update
check "…current 2026.10.07" test "$(cur)" = versions/2026.10.07
expect_exit 0 "rollback" ctl mesa rollback
check "…current 2026.10.06" test "$(cur)" = versions/2026.10.06
check "the store marks 2026.10.07 rolled-back, with the asset's digest" \
	test "$(json_strict "$STORE/marked" '[(k["version"], k["reason"], k["refused"], k["digest"][:7]) for k in d["marked"]]')" = \
	"[('2026.10.07', 'rolled-back', False, 'sha256:')]"
expect_exit 0 "update after the rollback" ctl --json mesa update
check "…skips 2026.10.07 and says why, and how to take it anyway" test "$(jq_ 'd["updated"], d["skipped"], d["skipped_reason"], d["message"]')" = \
	"(False, '2026.10.07', 'rolled-back', 'Mesa 2026.10.07 is skipped: it is marked rolled-back here (the user rolled back from it); staying on Mesa 2026.10.06; \`tb323fu-ctl --store $STORE mesa update --to 2026.10.07\` installs it anyway, \`tb323fu-ctl --store $STORE mesa forget 2026.10.07\` clears the mark')"
check "…current stays 2026.10.06" test "$(cur)" = versions/2026.10.06
expect_exit 0 "check" ctl --json mesa check
check "…offers nothing newer, names the skipped version" test "$(jq_ 'd["newer"], d["skipped"]')" = "(False, '2026.10.07')"
expect_exit 0 "status --json" ctl --json mesa status
check "…available is empty, marked lists 2026.10.07 with its reason" \
	test "$(jq_ 'd["available"], [(k["version"], k["reason"], k["why"]) for k in d["marked"]]')" = \
	"('', [('2026.10.07', 'rolled-back', 'the user rolled back from it')])"
expect_exit 0 "status" ctl mesa status
check "…says the mark and the command that clears it" grep -qF "Mesa 2026.10.07 is marked rolled-back here (the user rolled back from it): update skips it until a newer version is offered; \`tb323fu-ctl --store $STORE mesa forget 2026.10.07\` clears the mark" "$T/out"
check "…and does not call it available" sh -c "! grep -q 'is available' '$T/out'"
expect_exit 0 "list --json" ctl --json mesa list
check "…marks 2026.10.07 (rolled-back), not 2026.10.06" \
	test "$(jq_ '[(x["version"], x["marked"]) for x in d["versions"]], len(d["marked"])')" = \
	"([('2026.10.07', 'rolled-back'), ('2026.10.06', '')], 1)"
expect_exit 0 "doctor --json" ctl --json mesa doctor
check "…shows the mark" test "$(jq_ '[k["version"] for k in d["marked"]]')" = "['2026.10.07']"
expect_exit 0 "install 2026.10.07 (named)" ctl mesa install 2026.10.07
check "…installs it and clears the mark" test "$(cur) $(marked_as 2026.10.07)" = "versions/2026.10.07 "
expect_exit 0 "rollback again" ctl mesa rollback
expect_exit 0 "update --to 2026.10.07 (named)" ctl --json mesa update --to 2026.10.07
check "…installs it and clears the mark" test "$(cur) $(marked_as 2026.10.07)" = "versions/2026.10.07 "
expect_exit 0 "rollback a third time" ctl mesa rollback
expect_exit 0 "forget 2026.10.07" ctl --json mesa forget 2026.10.07
check "…clears the mark" test "$(jq_ 'd["forgotten"], d["message"]')" = \
	"(True, 'Mesa 2026.10.07 is no longer marked (it was rolled-back: the user rolled back from it); update installs it again when the channel offers it as the newest')"
expect_exit 0 "forget 2026.10.07 again" ctl mesa forget 2026.10.07
check "…nothing was changed" grep -qx "Mesa 2026.10.07 is not marked; nothing was changed" "$T/out"
expect_exit 0 "update after forget" ctl mesa update
check "…installs 2026.10.07" test "$(cur)" = versions/2026.10.07
expect_exit 0 "rollback, then a newer version is offered" ctl mesa rollback
serve "mesa-2026.10.08 - $(r 2026.10.08)" "mesa-2026.10.07 - $(r 2026.10.07)" "mesa-2026.10.06 - $(r 2026.10.06)"
expect_exit 0 "update" ctl mesa update
check "…installs 2026.10.08 (newer than the marked one)" test "$(cur)" = versions/2026.10.08
expect_exit 2 "update --to with no version name" ctl mesa update --to ../x

# --- a refused release: not fetched again while the release list names the same asset
serve "mesa-2026.10.09 flip-byte $(r 2026.10.09)" "mesa-2026.10.08 - $(r 2026.10.08)"
tar="/download/mesa-2026.10.09/tb323fu-mesa-2026.10.09-$arch.tar.gz"
expect_exit 4 "update of a damaged release" ctl --json mesa update
reason_is hash-mismatch
check "…marked refused with its reason and digest" test "$(json_strict "$STORE/marked" '[(k["version"], k["reason"], k["refused"], len(k["digest"])) for k in d["marked"] if k["refused"]]')" = \
	"[('2026.10.09', 'hash-mismatch', True, 71)]"
fetched=$(grep -c "GET $tar " "$LOG")
expect_exit 0 "update again" ctl --json mesa update
check "…skips it, saying why" test "$(jq_ 'd["skipped"], d["skipped_reason"]')" = "('2026.10.09', 'hash-mismatch')"
check "…in words" grep -qF "Mesa 2026.10.09 is skipped: its release was refused here (hash-mismatch: " "$T/out"
check "…and does not fetch it again" test "$(grep -c "GET $tar " "$LOG")" = "$fetched"
expect_exit 0 "download (the channel's newest)" ctl --json mesa download
check "…skips it too, without fetching" test "$(jq_ 'd["skipped"]') $(grep -c "GET $tar " "$LOG")" = "2026.10.09 $fetched"
expect_exit 0 "auto-check (the daily timer)" ctl --json mesa auto-check
check "…offers nothing newer" test "$(jq_ 'd["newer"]')" = False
expect_exit 0 "status --json" ctl --json mesa status
check "…available is not the refused version" test "$(jq_ 'd["available"]')" = ""
run_cmd ctl mesa doctor
check "doctor names the refused release as a problem" grep -q "problem: Mesa 2026.10.09 is marked hash-mismatch here (its release was refused: " "$T/out"
serve "mesa-2026.10.09 - $again" "mesa-2026.10.08 - $(r 2026.10.08)"
expect_exit 0 "update once the release's asset changed (another digest)" ctl mesa update
check "…fetches and installs it" test "$(cur)" = versions/2026.10.09
check "…and its mark is gone" test "$(marked_as 2026.10.09)" = ""

# --- a trial that expired and a smoke test that failed are marked too
expect_exit 0 "on" ctl mesa on
for b in b1 b2 b3; do TB323FU_BOOT_ID=$b ctl mesa boot-tick >/dev/null; done
check "a trial that expired marks its version trial-expired" test "$(marked_as 2026.10.09)" = trial-expired
printf 'smoke = on\n' >>"$TB323FU_MESA_CONFIG"
expect_exit 6 "install 2026.10.06, whose smoke tests fail here" ctl mesa install 2026.10.06
check "…marks it smoke-failed" test "$(marked_as 2026.10.06)" = smoke-failed

# --- a damaged file reads as no marks and is replaced by the next one
printf '{"marked":[{"version":"../../x"}]}' >"$STORE/marked"
expect_exit 0 "status with a hostile marked file" ctl --json mesa status
check "…reads no marks" test "$(jq_ 'd["marked"]')" = "[]"
# --- the marks' sentences true in every state (a store of its own) -----------------------------
STORE="$T/store2"
net_config 'smoke = off
keep_versions = 4'
serve "mesa-2026.10.07 - $(r 2026.10.07)" "mesa-2026.10.06 - $(r 2026.10.06)"
expect_exit 0 "a second store: 2026.10.06 then 2026.10.07" sh -c "'$CTL' --store '$STORE' mesa update --to 2026.10.06 >/dev/null && '$CTL' --store '$STORE' mesa update >/dev/null"
expect_exit 0 "rollback to 2026.10.06" ctl mesa rollback
expect_exit 0 "rollback again, back to the newer 2026.10.07" ctl --json mesa rollback
check "…says the mark of 2026.10.06, not that update skips it until a newer one (it never would take it)" \
	test "$(jq_ '"update skips" in d["message"], "Mesa 2026.10.06 is marked rolled back from (`tb323fu-ctl --store '"$STORE"' mesa forget 2026.10.06` clears that); update would not take it anyway, Mesa 2026.10.07 being newer" in d["message"]')" = "(False, True)"
expect_exit 0 "rollback to 2026.10.06 once more (2026.10.07 marked, the newer)" ctl --json mesa rollback
check "…says update skips 2026.10.07 until a newer version is offered" \
	test "$(jq_ '"update skips Mesa 2026.10.07 from now on, until a newer version is offered" in d["message"]')" = True
serve "mesa-2026.10.08 - $(r 2026.10.08)" "mesa-2026.10.07 - $(r 2026.10.07)" "mesa-2026.10.06 - $(r 2026.10.06)"
expect_exit 0 "update --to 2026.10.08, then rollback: 2026.10.08 marked, 2026.10.07 forgotten" \
	sh -c "'$CTL' --store '$STORE' mesa forget 2026.10.07 >/dev/null && '$CTL' --store '$STORE' mesa update --to 2026.10.08 >/dev/null && '$CTL' --store '$STORE' mesa rollback >/dev/null"
expect_exit 0 "update with the newest marked and a newer one not marked" ctl --json mesa update
check "…staying on 2026.10.06, and naming 2026.10.07, newer and not marked, with the command that installs it" \
	test "$(jq_ 'd["skipped"], d["newer_offered"], d["message"].endswith("; Mesa 2026.10.07, newer than 2026.10.06 and not marked, is offered too: `tb323fu-ctl --store '"$STORE"' mesa update --to 2026.10.07` installs it")')" = "('2026.10.08', '2026.10.07', True)"
expect_exit 0 "update --dry-run in that state" ctl --json mesa update --dry-run
check "…starts as every dry run does" test "$(jq_ 'd["message"].startswith("dry run: Mesa 2026.10.08 is skipped"), d["message"].endswith("; nothing was changed")')" = "(True, True)"
expect_exit 0 "update --to 2026.10.08, which is marked" ctl --json mesa update --to 2026.10.08
check "…says installing it cleared its mark" \
	test "$(jq_ 'd["unmarked"], "Mesa 2026.10.08 is no longer marked (it was rolled-back): installing it cleared the mark" in d["message"]')" = "('rolled-back', True)"
check "…and the mark is gone" test "$(marked_as 2026.10.08)" = ""
done_testing
