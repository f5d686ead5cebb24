#!/bin/sh
# One vocabulary (docs/design.md §12, Glossary): installed, downloaded, current, previous, on,
# off, trial, pinned each mean one thing in the sentences, the JSON, the man pages and the
# design. Checked where it can be mechanically: the glossary defines each word once; the
# phrasings that crossed two words are nowhere; a downloaded version is said "downloaded" by
# status (text and JSON) and a version not in the store "not installed" by install; status's
# session and list's USE use the glossary's words only; on, status and doctor say a store no
# login reads in one and the same sentence.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"

# --- the glossary: each word a row, once
for w in installed downloaded current previous "on\* / \*off" trial pinned; do
	n=$(grep -c "^| \*$w\* |" "$TB_TOP/docs/design.md")
	check "the glossary defines $(echo "$w" | tr -d '\\*') once" test "$n" = 1
done

# --- phrasings that used one word for another's thing
crossed=$(grep -rnE 'is installed, not current|is not downloaded|installed versions, newest first and downloaded' \
	"$TB_TOP/ctl" "$TB_TOP/tb323fu-mesa" "$TB_TOP/docs" "$TB_TOP/README.md" 2>/dev/null)
if [ -z "$crossed" ]; then ok "no sentence says \"installed, not current\" or \"not downloaded\""; else
	not_ok "no sentence says \"installed, not current\" or \"not downloaded\"" "$crossed"; fi

# --- downloaded, installed, current, previous in what the commands say
V1=2026.10.01
V2=2026.10.02
R1=$(tiny_release $V1 "$T/r1") && R2=$(tiny_release $V2 "$T/r2") || { not_ok "the releases"; done_testing; exit 1; }
WWW="$T/www"
mkdir -p "$WWW" "$T/keys"
: >"$T/token"
start_httpd "$WWW" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="http://127.0.0.1:$PORT"
printf 'mesa-%s - %s\n' $V2 "$R2" | python3 "$TB_TOP/tests/doubles/fake-github" "$WWW" "$API"
net_config "smoke = off"
st() { "$CTL" --store "$STORE" --json mesa status | json_strict - "$1"; }

expect_exit 0 "install-local $V1" ctl mesa install-local "$R1" --no-smoke
expect_exit 1 "install of a version not in the store" ctl --json mesa install $V2
check "  says it is not installed, and where to see the versions on offer (no list is cached)" \
	grep -qx "tb323fu-ctl: Mesa $V2 is not installed; did you mean $V1? (\`tb323fu-ctl --store $STORE mesa list --available\` shows the versions on offer and those installed)" "$T/err"
reason_is not-installed
expect_exit 0 "  the next step: download $V2" ctl mesa download $V2
expect_exit 0 "status" ctl mesa status
check "  says $V2 is downloaded, not current yet" grep -qx "Mesa $V2 is downloaded, not current yet; make it current with \`tb323fu-ctl --store $STORE mesa install $V2\`" "$T/out"
check "  its JSON: downloaded and ready are $V2, installed (current) $V1" test "$(st '(d["downloaded"], d["ready"], d["installed"])')" = "('$V2', '$V2', '$V1')"
expect_exit 0 "list" ctl --json mesa list
check "  lists both installed versions" test "$(json_strict "$T/out" 'sorted(v["version"] for v in d["versions"])')" = "['$V1', '$V2']"
expect_exit 0 "install $V2 (it is installed: no download)" ctl mesa install $V2 --no-smoke
check "  current $V2, previous $V1, nothing downloaded any more" test "$(st '(d["installed"], d["previous"], d["downloaded"])')" = "('$V2', '$V1', '')"

# --- the switch's words: status's session and list's USE
check "off: session off" test "$(st 'd["session"]')" = off
expect_exit 0 "on" ctl mesa on
check "on: session trial (on, not yet kept)" test "$(st 'd["session"]')" = trial
run_cmd ctl mesa list
check "list's USE: current, on trial" grep -q "^$V2 *current, on trial " "$T/out"
check "list's USE: previous" grep -q "^$V1 *previous " "$T/out"
expect_exit 0 "keep" ctl mesa keep
check "kept: session on" test "$(st 'd["session"]')" = on
run_cmd ctl mesa list
check "list's USE: current, on" grep -q "^$V2 *current, on " "$T/out"
uses=$(awk 'NR > 1 { sub(/^[^ ]+ +/, ""); print substr($0, 1, 20) }' "$T/out" | sed 's/ *$//' | sort -u | tr '\n' '|')
check "list's USE has the glossary's words only" \
	sh -c "echo '$uses' | tr '|' '\n' | grep -v '^$' | grep -vxE '(current|previous|-)(, on|, on trial)?(, pinned)?' | { ! grep -q .; }"

# --- a store no login reads: on, status and doctor say the one sentence
# (this test's store is never the one the session files name)
sentence() { grep -o "no login reads the store .*reinstalling tb323fu-mesa puts them back for [^)]*)" "$1" | head -n 1; }
expect_exit 0 "off" ctl mesa off
expect_exit 0 "on with a store no login reads" ctl mesa on
sentence "$T/out" >"$T/s.on"
expect_exit 0 "status" ctl mesa status
sentence "$T/out" >"$T/s.status"
run_cmd ctl mesa doctor
sentence "$T/out" >"$T/s.doctor"
check "on says it" test -s "$T/s.on"
check "status says the same sentence" cmp -s "$T/s.on" "$T/s.status"
check "doctor says the same sentence" cmp -s "$T/s.on" "$T/s.doctor"
check "  and the command it names works: tb323fu-mesa --store S run PROGRAM" \
	sh -c "'$MESA' --store '$STORE' run sh -c 'test -n \"\$VK_DRIVER_FILES\"'"
expect_exit 0 "a second on" ctl mesa on
sentence "$T/out" >"$T/s.again"
check "the answer of a second on says it too" cmp -s "$T/s.on" "$T/s.again"
done_testing
