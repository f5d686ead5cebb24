#!/bin/sh
# The network path over https with a test CA made by openssl (ca_file): trust, the ETag cache,
# a resumed download, refusals, failures, and an update with the smoke tests.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"

arch=$(uname -m)
v6=$(standin 2026.10.06) && v7=$(standin 2026.10.07) || {
	not_ok "stand-in releases"
	done_testing
	exit 1
}

# A CA and a server certificate for 127.0.0.1 and localhost, valid for two days.
pki="$T/pki"
mkdir -p "$pki"
(
	cd "$pki" || exit 1
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
		-subj "/CN=tb323fu test CA" -keyout ca.key -out ca.pem &&
		openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
			-subj "/CN=127.0.0.1" -keyout server.key -out server.csr &&
		printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n' >ext.cnf &&
		openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
			-extfile ext.cnf -out server.pem
) >/dev/null 2>"$T/openssl.err" || { not_ok "a test CA" "$(cat "$T/openssl.err")"; done_testing; exit 1; }

WWW="$T/www"
mkdir -p "$WWW" "$T/keys"
printf 'secret-token\n' >"$T/token"
minisign -G -W -p "$T/keys/release.pub" -s "$T/release.key" >/dev/null </dev/null
K="$T/release.key"
start_httpd "$WWW" --tls "$pki/server.pem" "$pki/server.key" ||
	{ not_ok "the TLS test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="https://127.0.0.1:$PORT"
python3 "$TB_TOP/tests/doubles/fake-github" "$WWW" "https://localhost:$PORT" <<EOF
mesa-2026.10.07 sign=$K $v7
mesa-2026.10.06 sign=$K $v6
mesa-2026.9.1 sign=$K,flip-byte $v6
mesa-2026.9.4 sign=$K,tamper-sums $v6
EOF
LOG="$WWW/.log"

net_config
expect_exit 5 "a server whose CA is not trusted: exit 5" ctl --json mesa check
reason_is network
check "it says the TLS connection cannot be trusted and how to add a CA" has "cannot be trusted" "$T/err"
net_config "ca_file = $pki/ca.pem"
expect_exit 0 "check over https with ca_file" ctl --json mesa check
check "it offers 2026.10.07" test "$(jget available)" = 2026.10.07
expect_exit 0 "a second check over https" ctl --json mesa check
check "answered from the cache after a 304" test "$(jget cached)" = true

tb="/download/mesa-2026.10.07/tb323fu-mesa-2026.10.07-$arch.tar.gz"
fault "$tb" drop
expect_exit 5 "a TLS connection dropped halfway: exit 5" ctl --json mesa download 2026.10.07
reason_is network
check "it says the connection broke off" has "broke off" "$T/err"
no_faults
expect_exit 0 "the next download over https succeeds" ctl mesa download 2026.10.07
check "it resumed with Range" grep -q "GET $tb range=bytes=[1-9][0-9]*- .* -> 206" "$LOG"

expect_exit 4 "a flipped byte over https: exit 4" ctl --json mesa download 2026.9.1
reason_is hash-mismatch
check "a flipped byte: nothing unpacked" unpacked_nothing 2026.9.1
expect_exit 4 "a bad signature over https: exit 4" ctl --json mesa download 2026.9.4
reason_is signature-invalid
check "a bad signature: nothing unpacked" unpacked_nothing 2026.9.4

expect_exit 0 "update over https, with the smoke tests" ctl mesa update
check "update installed 2026.10.07" has "Mesa 2026.10.07 installed" "$T/out"
check "the smoke tests passed" test -f "$STORE/smoke/2026.10.07.json"
expect_exit 0 "a second update" ctl mesa update
check "says up to date" has "Mesa up to date (2026.10.07)" "$T/out"

fault /repos/o/r/releases redirect "http://127.0.0.1:$PORT/repos/o/r/releases"
expect_exit 5 "a redirect from https to plain http: exit 5" ctl --json mesa check
reason_is url-refused
check "it is refused" has "may not leave https" "$T/err"
no_faults
fault /repos/o/r/releases status 404
expect_exit 5 "404 over https: exit 5" ctl --json mesa check
reason_is not-found
no_faults
fault /repos/o/r/releases status 500
expect_exit 5 "500 over https: exit 5" ctl --json mesa check
reason_is network
no_faults
fault /repos/o/r/releases ratelimit 1900000000
expect_exit 5 "rate limited over https: exit 5" ctl --json mesa check
reason_is rate-limited
check "rate limited: says until when" has "until $(date -u -d @1900000000 '+%Y-%m-%d %H:%M:%S UTC')" "$T/err"
no_faults
fault "/download/mesa-2026.10.06/tb323fu-mesa-2026.10.06-$arch.tar.gz" stall
expect_exit 5 "a stall over https: exit 5" ctl --json mesa download 2026.10.06
reason_is network
check "it says the download stalled" has "stalled" "$T/err"
no_faults
stop_httpd
expect_exit 5 "server down: exit 5" ctl --json mesa check
reason_is network
check "says it cannot reach the server" has "cannot reach" "$T/err"

done_testing
