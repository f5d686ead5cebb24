#!/bin/sh
# Releases from a fake GitHub on 127.0.0.1: channels, the ETag cache, the token, update,
# a resumed download, refusals (exit 4, nothing unpacked; minisign -V agrees) and network
# failures (exit 5 with a sentence). tls.sh runs the transport cases again over https.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"

arch=$(uname -m)
v6=$(standin 2026.10.06) && v7=$(standin 2026.10.07) && v8=$(standin 2026.10.08) || {
	not_ok "stand-in releases"
	done_testing
	exit 1
}

WWW="$T/www"
mkdir -p "$WWW" "$T/keys"
printf 'secret-token\n' >"$T/token"
minisign -G -W -p "$T/keys/release.pub" -s "$T/release.key" >/dev/null </dev/null
minisign -G -W -p "$T/other.pub" -s "$T/other.key" >/dev/null </dev/null
K="$T/release.key"

start_httpd "$WWW" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="http://127.0.0.1:$PORT"
# Assets on another origin than api_url: the token must not go there.
python3 "$TB_TOP/tests/doubles/fake-github" "$WWW" "http://localhost:$PORT" <<EOF
kernel-6.12.1 - $TB_TOP/tests/tools/httpd
mesa-2026.10.11 draft,sign=$K $v8
mesa-2026.10.10 arch=aarch64,sign=$K $v8
mesa-2026.10.08 prerelease,sign=$K,api-url,no-digest $v8
mesa-2026.10.07 sign=$K $v7
mesa-2026.10.06 sign=$K,legacy $v6
mesa-2026.9.1 sign=$K,flip-byte $v6
mesa-2026.9.2 sign=$K,bad-size $v6
mesa-2026.9.3 sign=$K,bad-digest $v6
mesa-2026.9.4 sign=$K,tamper-sums $v6
mesa-2026.9.5 sign=$T/other.key $v6
mesa-2026.9.6 - $v6
mesa-2026.9.7 sign=$K,comment=tag:mesa-2026.10.07 $v6
EOF
net_config
LOG="$WWW/.log"
tarball_path() { echo "/download/mesa-$1/tb323fu-mesa-$1-$arch.tar.gz"; }

# --- channels and the cache
expect_exit 0 "check on stable" ctl --json mesa check
check "stable offers 2026.10.07 (not the pre-release, draft or other arch)" test "$(jget available)" = 2026.10.07
check "check says what is available" has "Mesa 2026.10.07 is available on stable" "$T/out"
check "the first check fetched the list" test "$(jget cached)" = false
expect_exit 0 "a second check" ctl --json mesa check
check "the second check is answered from the cache after a 304" test "$(jget cached)" = true
check "the server answered 304 to the ETag" grep -q "GET /repos/o/r/releases?per_page=100 .* -> 304" "$LOG"
echo '[{"tag_name":' >"$STORE/cache/releases.json"
expect_exit 0 "a check with a damaged cached list" ctl --json mesa check
check "the damaged cache is replaced by the whole list" test "$(jget cached)/$(jget available)" = false/2026.10.07
CHANNEL=testing net_config
expect_exit 0 "check on testing" ctl --json mesa check
check "testing offers the pre-release 2026.10.08" test "$(jget available)" = 2026.10.08
check "the token goes to the API host" grep -q "/repos/o/r/releases.* auth=Bearer_secret-token" "$LOG"
net_config

# --- a dropped connection, then a resumed download
fault "$(tarball_path 2026.10.06)" drop
expect_exit 5 "a connection dropped halfway: exit 5" ctl --json mesa download 2026.10.06
reason_is network
check "it says the connection broke off" has "broke off" "$T/err"
part="$STORE/cache/tb323fu-mesa-2026.10.06-$arch.tar.gz.part"
check "the partial download is kept" test -s "$part"
check "nothing is unpacked" test ! -e "$STORE/versions/2026.10.06"
no_faults
expect_exit 0 "the next download succeeds" ctl --json mesa download 2026.10.06
check "it resumed with Range" grep -q "GET $(tarball_path 2026.10.06) range=bytes=[1-9][0-9]*- .* -> 206" "$LOG"
check "it reports where it resumed" test "$(jget resumed_from)" -gt 0
check "it says what it downloaded" has "Mesa 2026.10.06 downloaded and checked (vulkan, opencl, gl, based on upstream" "$T/out"
check "the version is in the store" test -f "$STORE/versions/2026.10.06/MANIFEST"
check "the partial file is gone" test ! -e "$part"
check "minisign -V agrees: the legacy signature of 2026.10.06 verifies" \
	minisign -Vq -p "$T/keys/release.pub" -m "$WWW/download/mesa-2026.10.06/SHA256SUMS"
check "the token never went to the asset host" sh -c "! grep '/download/.* auth=Bearer' '$LOG'"
expect_exit 0 "status after a download" ctl --json mesa status
check "status: 2026.10.06 is downloaded, waiting for install" test "$(jget downloaded) $(jget state) $(jget installed)" = "2026.10.06 ready "
expect_exit 0 "install makes the downloaded version current" ctl mesa install --no-smoke
check "install: 2026.10.06 is current" test "$(readlink "$STORE/current")" = versions/2026.10.06
expect_exit 1 "install of a version that is not downloaded" ctl --json mesa install 2030.1.1
reason_is not-installed
check "…says where the versions on offer are (the list does not offer it)" has "tb323fu-ctl --store $STORE mesa list --available" "$T/err"

# --- update --dry-run: what it would download and install; no tarball fetched, nothing changed
store_digest >"$T/before"
got_tarball() { grep -c "GET $(tarball_path 2026.10.07) " "$LOG"; }
fetched=$(got_tarball)
expect_exit 0 "update --dry-run" ctl --json mesa update --no-smoke --dry-run
store_digest >"$T/after"
check "  the store is byte-identical (the release list is fetched, not cached)" cmp -s "$T/before" "$T/after"
check "  the tarball was not downloaded" test "$(got_tarball)" = "$fetched"
check "  JSON: the version it would download and make current, 2026.10.06 kept as previous" \
	test "$(json_strict "$T/out" '[d["dry_run"], d["would_download"], d["version"], d["previous"], d["would_remove"], d["size"] > 0]')" = \
	"[True, True, '2026.10.07', '2026.10.06', [], True]"
json_strict "$T/out" 'd["message"]' >"$T/said"
check "  in words: download, then make current, keep previous, nothing changed" \
	grep -q '^dry run: `update` would download Mesa 2026.10.07 ([0-9.]* MiB, then checked and unpacked)' "$T/said"
check "  …and install it" \
	grep -q 'dry run: `update` would make Mesa 2026.10.07 current, keep Mesa 2026.10.06 as previous, and remove no version (keep_versions = 2); nothing was changed' "$T/said"

# --- update
expect_exit 0 "update installs the newest stable" ctl --json mesa update --no-smoke
check "update says what it installed" has "Mesa 2026.10.07 installed" "$T/out"
check "2026.10.07 is current" test "$(readlink "$STORE/current")" = versions/2026.10.07
expect_exit 0 "a second update" ctl mesa update --no-smoke
check "the second update says up to date" has "Mesa up to date (2026.10.07)" "$T/out"

# --- refusals: exit 4, a sentence, nothing unpacked
refused() {
	v=$1 words=$2 what=$3 why=$4
	expect_exit 4 "$what: exit 4" ctl --json mesa download "$v"
	reason_is "$why"
	if has "$words" "$T/err"; then ok "$what: says so"; else not_ok "$what: says so" "stderr: $(cat "$T/err")" "wanted: $words"; fi
	check "$what: nothing unpacked" unpacked_nothing "$v"
}
# minisign_says VERSION yes|no: minisign -V with the trusted key on what the server serves.
minisign_says() {
	d="$WWW/download/mesa-$1"
	if minisign -Vq -p "$T/keys/release.pub" -m "$d/SHA256SUMS" -x "$d/SHA256SUMS.minisig" >/dev/null 2>&1 </dev/null; then
		[ "$2" = yes ]
	else
		[ "$2" = no ]
	fi
}
refused 2026.9.1 "does not match its SHA256SUMS" "a flipped byte" hash-mismatch
refused 2026.9.2 "the release says" "a wrong size" size-mismatch
refused 2026.9.3 "digest" "a digest mismatch" digest-mismatch
refused 2026.9.4 "does not verify" "a signature that does not verify" signature-invalid
check "minisign -V agrees: the changed SHA256SUMS does not verify" minisign_says 2026.9.4 no
refused 2026.9.5 "which is not trusted" "a signature by an untrusted key" signature-untrusted
check "minisign -V agrees: the other key's signature does not verify with ours" minisign_says 2026.9.5 no
net_config "require_signature = true"
refused 2026.9.6 "not signed" "an unsigned release when signatures are required" signature-missing
check "minisign -V agrees: there is no signature" minisign_says 2026.9.6 no
net_config
refused 2026.9.7 "made for another release" "a signature for another tag" tag-mismatch
check "minisign -V agrees: the signature is good but names tag:mesa-2026.10.07" sh -c \
	"minisign -V -p '$T/keys/release.pub' -m '$WWW/download/mesa-2026.9.7/SHA256SUMS' </dev/null | grep -qx 'Trusted comment: tag:mesa-2026.10.07'"
for v in 2026.9.1 2026.9.2 2026.9.3; do
	check "minisign -V agrees: SHA256SUMS of $v verifies (the tarball is what is wrong)" minisign_says $v yes
done

# --- a partial file longer than what the server has: 416, dropped, then the size is refused
tb2="$STORE/cache/tb323fu-mesa-2026.9.2-$arch.tar.gz.part"
cp "$v6" "$tb2"
expect_exit 5 "a partial file the server cannot continue: exit 5" ctl --json mesa download 2026.9.2
reason_is network
check "it says to start over" has "run the command again to start it over" "$T/err"
check "the partial file is dropped" test ! -e "$tb2"
expect_exit 4 "the next attempt downloads it whole and refuses its size" ctl --json mesa download 2026.9.2
reason_is size-mismatch

# --- a stall, then the API url of an asset (no browser_download_url)
CHANNEL=testing net_config
fault "/api-assets/mesa-2026.10.08/tb323fu-mesa-2026.10.08-$arch.tar.gz" stall
expect_exit 5 "a stalled download: exit 5" ctl --json mesa download 2026.10.08
reason_is network
check "it says the download stalled" has "stalled" "$T/err"
no_faults
fault "/api-assets/mesa-2026.10.08/tb323fu-mesa-2026.10.08-$arch.tar.gz" norange
expect_exit 0 "a server that ignores Range: the download starts over and succeeds" ctl mesa download
check "the partial file was asked for with Range and answered whole" \
	grep -q "GET /api-assets/mesa-2026.10.08/.* range=bytes=[1-9][0-9]*- .* -> 200" "$LOG"
no_faults
check "an asset without browser_download_url is fetched from its API url as octet-stream" \
	grep -q "GET /api-assets/mesa-2026.10.08/.* accept=application/octet-stream -> 20[06]" "$LOG"
sed -i 's/^failed=.*/failed=2026.10.08/; s/^failed_reason=.*/failed_reason=vk.compute: wrong values/' "$STORE/state"
expect_exit 0 "update does not retry a version that failed here" ctl mesa update --no-smoke
check "it says so and stays on 2026.10.07" sh -c "grep -q 'Mesa 2026.10.08 failed here before (vk.compute: wrong values); staying on Mesa 2026.10.07' '$T/out' &&
	test \"\$(readlink '$STORE/current')\" = versions/2026.10.07"
sed -i '/^failed/d' "$STORE/state"
expect_exit 0 "update on testing installs the pre-release" ctl mesa update --no-smoke
check "2026.10.08 is current" test "$(readlink "$STORE/current")" = versions/2026.10.08
net_config
expect_exit 0 "update on stable after that" ctl mesa update --no-smoke
check "it never goes back to an older version" has "Mesa up to date (2026.10.08)" "$T/out"
check "2026.10.08 is still current" test "$(readlink "$STORE/current")" = versions/2026.10.08

# --- network failures: exit 5 with a sentence
fault /repos/o/r/releases status 404
expect_exit 5 "404: exit 5" ctl --json mesa check
reason_is not-found
check "404: says Not Found" has "404 Not Found" "$T/err"
no_faults
fault /repos/o/r/releases status 500
expect_exit 5 "500: exit 5" ctl --json mesa check
reason_is network
check "500: says try again later" has "HTTP 500" "$T/err"
no_faults
fault /repos/o/r/releases ratelimit 1900000000
expect_exit 5 "rate limited: exit 5" ctl --json mesa check
reason_is rate-limited
until=$(date -u -d @1900000000 '+%Y-%m-%d %H:%M:%S UTC')
check "rate limited: says until when" has "until $until" "$T/err"
no_faults
fault /repos/o/r/releases redirect http://192.0.2.1/releases
expect_exit 5 "a redirect to plain http elsewhere: exit 5" ctl --json mesa check
reason_is url-refused
check "it is refused before connecting" has "plain http is only allowed to this machine" "$T/err"
no_faults
fault /repos/o/r/releases redirect file:///etc/passwd
expect_exit 5 "a redirect to a local file: exit 5" ctl --json mesa check
reason_is url-refused
check "it is refused" has "may not leave https or lead to local files" "$T/err"
no_faults
net_config
sed -i 's|^api_url = .*|api_url = http://192.0.2.1|' "$TB323FU_MESA_CONFIG"
expect_exit 5 "api_url with plain http to another machine: exit 5" ctl --json mesa check
reason_is url-refused
net_config
stop_httpd
expect_exit 5 "server down: exit 5" ctl --json mesa check
reason_is network
check "server down: says it cannot reach the server" has "cannot reach 127.0.0.1" "$T/err"
check "every error is one line" test "$(wc -l <"$T/err")" -eq 1

# --- an offline mirror (file://): no server at all
MIRROR="$T/mirror"
mkdir -p "$MIRROR"
python3 "$TB_TOP/tests/doubles/fake-github" "$MIRROR" "file://$MIRROR" <<EOF
mesa-2026.10.07 sign=$K $v7
mesa-2026.10.06 sign=$K $v6
EOF
STORE="$T/store-offline"
API="file://$MIRROR"
net_config
expect_exit 0 "check from an offline mirror" ctl --json mesa check
check "the mirror offers 2026.10.07" test "$(jget available)" = 2026.10.07
expect_exit 0 "update from the offline mirror" ctl mesa update --no-smoke
check "2026.10.07 is current in the other store" test "$(readlink "$STORE/current")" = versions/2026.10.07
rm "$MIRROR/download/mesa-2026.10.06/SHA256SUMS"
expect_exit 5 "a file missing from the mirror: exit 5" ctl --json mesa download 2026.10.06
reason_is network
check "it names the missing file" has "cannot read SHA256SUMS of mesa-2026.10.06 from the mirror" "$T/err"

done_testing
