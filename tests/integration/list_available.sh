#!/bin/sh
# `mesa list --available` (docs/design.md §13): every version the channel offers, newest first,
# each with its date, size, Mesa version (when the store has its MANIFEST) and what the store
# knows of it (current, previous, downloaded, marked and why); --all adds the testing channel's;
# --json is one object with an `available` array. It reads the list fresh (nothing written: a
# reader), says so when only the cached one could be had, and fails with its next step when
# there is none. Served by a fake GitHub on 127.0.0.1, tiny releases.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"

V1=2026.10.01
V2=2026.10.02
V3=2026.10.03
V4=2026.10.04
for v in 1 2 3 4; do
	eval "R$v=\$(tiny_release \$V$v \"\$T/r$v\")" || { not_ok "the releases"; done_testing; exit 1; }
done
WWW="$T/www"
mkdir -p "$WWW" "$T/keys"
: >"$T/token"
start_httpd "$WWW" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="http://127.0.0.1:$PORT"
printf 'mesa-%s prerelease %s\nmesa-%s - %s\nmesa-%s - %s\nmesa-%s - %s\n' \
	$V4 "$R4" $V3 "$R3" $V2 "$R2" $V1 "$R1" | python3 "$TB_TOP/tests/doubles/fake-github" "$WWW" "$API"
net_config "smoke = off"
not_cached() { test -z "$(find "$STORE/cache" -name 'releases*' 2>/dev/null)"; }

# --- before anything: no store, no cached list -------------------------------------------------
expect_exit 0 "list --available with nothing installed and no list cached" ctl --json mesa list --available
check "…the stable versions, newest first, fetched" \
	test "$(json '[a["version"] for a in d["available"]], d["release_list"], d["channel"]' <"$T/out")" = "(['$V3', '$V2', '$V1'], 'fetched', 'stable')"
check "…each with its channel, date, size and what the store knows (nothing yet)" \
	test "$(json 'sorted(d["available"][0]), [(a["channel"], a["size"] > 0, len(a["published_at"]) > 0, a["installed"], a["current"], a["marked"]) for a in d["available"]][0]' <"$T/out")" = \
	"(['channel', 'current', 'downloaded', 'installed', 'marked', 'marked_why', 'mesa_version', 'previous', 'published_at', 'size', 'version'], ('stable', True, True, False, False, ''))"
check "…and no list written: a reader" not_cached

# --- the store's knowledge: current, previous, downloaded, marked ------------------------------
expect_exit 0 "download $V1 and install it" sh -c "'$CTL' --store '$STORE' mesa download $V1 >/dev/null && '$CTL' --store '$STORE' mesa install $V1"
expect_exit 0 "update to $V3 ($V1 previous)" ctl mesa update
expect_exit 0 "download $V2" ctl mesa download $V2
expect_exit 0 "rollback from $V3 (marked rolled back)" ctl mesa rollback
expect_exit 0 "list --available" ctl mesa list --available
check "…a table: version, channel, date, size, Mesa version, what the store knows" \
	test "$(sed -n 1p "$T/out" | tr -s ' ')" = "VERSION CHANNEL DATE SIZE MESA STORE"
check "…$V3 previous and marked, $V2 downloaded, $V1 current with its Mesa version" \
	test "$(sed -n '2,4p' "$T/out" | awk '{ $3 = "D"; $4 = "S"; $5 = ""; print }' | tr -s ' ' | tr '\n' '|')" = \
	"$V3 stable D S m$V3 previous, marked rolled-back|$V2 stable D S m$V2 downloaded|$V1 stable D S m$V1 current|"
check "…one more on the testing channel, and how to see it" has "1 more on the testing channel: \`tb323fu-ctl --store $STORE mesa list --available --all\` shows them" "$T/out"
check "…and the commands that take a version" has "\`tb323fu-ctl --store $STORE mesa update --to VERSION\` installs one" "$T/out"
expect_exit 0 "list --available --json" ctl --json mesa list --available
check "…the same in the available array, with the mark's reason and why" \
	test "$(json '[(a["version"], a["current"], a["previous"], a["installed"], a["downloaded"], a["marked"], len(a["marked_why"]) > 0, a["mesa_version"]) for a in d["available"]]' <"$T/out")" = \
	"[('$V3', False, True, True, False, 'rolled-back', True, 'm$V3'), ('$V2', False, False, True, True, '', False, 'm$V2'), ('$V1', True, False, True, False, '', False, 'm$V1')]"
expect_exit 0 "list --available --all" ctl --json mesa list --available --all
check "…adds the testing channel's $V4" \
	test "$(json '[(a["version"], a["channel"]) for a in d["available"]]' <"$T/out")" = "[('$V4', 'testing'), ('$V3', 'stable'), ('$V2', 'stable'), ('$V1', 'stable')]"
run_cmd "$CTL" __complete tb323fu-ctl --store "$STORE" mesa list --a
check "completion offers --available and --all" test "$(sort "$T/out" | tr '\n' ' ')" = "--all --available "
expect_exit 2 "--all without --available" ctl --json mesa list --all
reason_is usage

# --- the server gone: the cached list, said; with none cached, the next step --------------------
stop_httpd
expect_exit 0 "list --available with the server gone" ctl --json mesa list --available
check "…the cached list, said so" \
	test "$(json 'd["release_list"], len(d["available"]), "the release list could not be fetched" in d["message"]' <"$T/out")" = "('cached', 3, True)"
API_WAS=$API
API=http://127.0.0.1:1 net_config "smoke = off"
expect_exit 1 "notes after api_url changed (the list cached from the old address)" ctl --json mesa notes $V1
check "…says the cached list came from another address, not that none was fetched" \
	has "the release list cached here was fetched from another address than http://127.0.0.1:1/repos/o/r/releases" "$T/out"
API=$API_WAS net_config "smoke = off"
rm -rf "$STORE/cache"
expect_exit 5 "list --available with no list cached and the server gone" ctl --json mesa list --available
reason_is network
done_testing
