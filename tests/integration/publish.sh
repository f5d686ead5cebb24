#!/bin/sh
# build-recipes/publish against the fake GitHub on 127.0.0.1: it signs SHA256SUMS (trusted
# comment tag:mesa-V), creates the release as a draft, uploads the assets, publishes it, and
# `tb323fu-ctl mesa update` with require_signature = true installs what it published. The
# token reaches the server but never a command line, a file or the output; a refused token, a
# SHA256SUMS that does not match and a non-loopback http:// API (also one that only looks
# like loopback) stop it before anything is published; what the server says is shown, never
# obeyed; a second run completes an existing release instead of failing.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"

V=2026.11.01
arch=$(uname -m)
R=$(standin $V) || { not_ok "stand-in release"; done_testing; exit 1; }
PUBLISH="$TB_TOP/build-recipes/publish"
WWW="$T/www"
mkdir -p "$WWW" "$T/keys" "$T/rel" "$T/bin"
# publish writes SHA256SUMS.minisig beside the release: work on a copy of the shared one.
cp "$R" "$(dirname "$R")/SHA256SUMS" "$T/rel/"
TOKEN=ghp_publishTest0123456789
printf '%s\n' "$TOKEN" >"$WWW/.token"
printf '%s\n' "$TOKEN" >"$T/token"
printf 'ghp_wrongToken\n' >"$T/wrong-token"
minisign -G -W -p "$T/keys/release.pub" -s "$T/release.key" >/dev/null </dev/null
# curl as publish calls it, with its command line recorded.
# While it runs, nothing under publish's TMPDIR may hold the token: a SIGKILL would leave it.
mkdir -p "$T/ptmp"
cat >"$T/bin/curl" <<EOS
#!/bin/sh
printf '%s\n' "\$*" >>"$T/curl-argv"
grep -rl '$TOKEN' "$T/ptmp" >>"$T/token-files" 2>/dev/null
exec $(command -v curl) "\$@"
EOS
chmod +x "$T/bin/curl"

start_httpd "$WWW" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="http://127.0.0.1:$PORT"
LOG="$WWW/.log"
pub() { TMPDIR="$T/ptmp" PATH="$T/bin:$PATH" "$PUBLISH" --repo o/r --key "$T/release.key" --api "$API" --uploads "$API/uploads" "$@"; }
requests() { wc -l <"$LOG" 2>/dev/null || echo 0; }

# --- refusals before anything is published
expect_exit 1 "a token the server refuses stops publish" pub --token-file "$T/wrong-token" "$T/rel"
check "…saying the token was refused" grep -q "refused the token" "$T/err"
check "…and no release exists" test ! -s "$WWW/repos/o/r/releases" -o "$(cat "$WWW/repos/o/r/releases" 2>/dev/null)" = "[]"
n=$(requests)
cp -r "$T/rel" "$T/bad"
printf 'x' >>"$T/bad/$(basename "$R")"
expect_exit 1 "a SHA256SUMS that does not match the tarball stops publish" pub --token-file "$T/token" "$T/bad"
check "…before any request" test "$(requests)" = "$n"
expect_exit 1 "an http:// API that is not this machine is refused" \
	"$PUBLISH" --repo o/r --key "$T/release.key" --token-file "$T/token" --api http://example.invalid "$T/rel"
check "…saying why" grep -q "must be https://" "$T/err"
n=$(requests)
expect_exit 1 "an http:// API that names localhost only as its user part (http://localhost:1@127.0.0.2/) is refused" \
	"$PUBLISH" --repo o/r --key "$T/release.key" --token-file "$T/token" --api "http://localhost:$PORT@127.0.0.2:$PORT/" "$T/rel"
check "…saying why" grep -q "must be https://" "$T/err"
expect_exit 1 "…and so is such an upload address" \
	pub --token-file "$T/token" --uploads "http://127.0.0.1:$PORT@127.0.0.2:$PORT" "$T/rel"
check "…saying why, before any request" sh -c "grep -q 'must be https://' '$T/err' && test \"\$(wc -l <'$LOG' 2>/dev/null || echo 0)\" = '$n'"

# --- what the server says is shown, never obeyed: a curl that answers 401 with escapes
mkdir -p "$T/hostile-bin"
cat >"$T/hostile-bin/curl" <<'EOS'
#!/bin/sh
while [ $# -gt 0 ]; do
	[ "$1" = -o ] && printf '{"message":"\\u001b]52;c;aGk=\\u0007\\u001b[2J\\u009b31m \\r gone"}' >"$2"
	shift
done
printf 401
EOS
chmod +x "$T/hostile-bin/curl"
expect_exit 1 "a server's message with escapes stops publish" \
	env PATH="$T/hostile-bin:$PATH" "$PUBLISH" --repo o/r --key "$T/release.key" --token-file "$T/token" --api "$API" "$T/rel"
check "…which shows them as \\xNN and prints no control byte" \
	sh -c "grep -qF 'HTTP 401: \\x1b]52;c;aGk=\\x07\\x1b[2J\\x9b31m \\x0d gone' '$T/err' && ! LC_ALL=C grep -q '[[:cntrl:]]' '$T/err' && ! grep -q \"\$(printf '\\302\\233')\" '$T/err'"

# --- publish
expect_exit 0 "publish signs, creates, uploads and publishes mesa-$V" pub --token-file "$T/token" "$T/rel"
check "…saying what it did" sh -c "grep -q 'release mesa-$V created' '$T/out' && grep -q 'release mesa-$V published' '$T/out'"
check "the token is in no output" sh -c "! grep -q '$TOKEN' '$T/out' '$T/err'"
check "the token was on no command line" sh -c "test -s '$T/curl-argv' && ! grep -q '$TOKEN' '$T/curl-argv'"
check "the token was in no file under TMPDIR while curl ran" sh -c "test ! -s '$T/token-files'"
check "every request that changed something carried the token" \
	test "$(grep -E '^(POST|PATCH) .* -> 20[01]$' "$LOG" | grep -c "auth=Bearer_$TOKEN")" = 5
check "created as a draft, three uploads, then published" \
	test "$(sed -n 's/^\([A-Z]*\) \([^ ?]*\).* -> \([0-9]*\)$/\1 \3/p' "$LOG" | tail -n 5 | tr '\n' ' ')" = \
	"POST 201 POST 201 POST 201 POST 201 PATCH 200 "
rel() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$WWW/repos/o/r/releases" "$1"; }
check "the release is mesa-$V, not a draft, with the tarball, SHA256SUMS and its signature" \
	test "$(rel '[(r["tag_name"], r["draft"], r["prerelease"], sorted(a["name"] for a in r["assets"])) for r in d]')" = \
	"[('mesa-$V', False, False, ['SHA256SUMS', 'SHA256SUMS.minisig', 'tb323fu-mesa-$V-$arch.tar.gz'])]"
check "the uploaded tarball is the release's" cmp -s "$R" "$WWW/download/mesa-$V/tb323fu-mesa-$V-$arch.tar.gz"
check "minisign -V: the signature verifies and names tag:mesa-$V" sh -c \
	"minisign -V -p '$T/keys/release.pub' -m '$WWW/download/mesa-$V/SHA256SUMS' </dev/null | grep -qx 'Trusted comment: tag:mesa-$V'"

# --- a tablet follows it, signature required
net_config "require_signature = true"
expect_exit 0 "update installs mesa-$V with the signature required" ctl mesa update
check "…$V is current" test "$(readlink "$STORE/current")" = "versions/$V"
check "…its signature was fetched" grep -q "GET /download/mesa-$V/SHA256SUMS.minisig .* -> 200" "$LOG"
# a version the release list offers: verify names verify --repair, which works
lib=$(ls "$STORE/versions/$V/lib/"* | head -n 1)
chmod u+w "$lib" && printf 'x' >>"$lib"
expect_exit 4 "a damaged $V: verify finds it" ctl mesa verify $V
check "…and names verify --repair, as the release list offers $V" grep -q "repair it with .tb323fu-ctl --store $STORE mesa verify --repair $V." "$T/err"
expect_exit 0 "…which repairs it" ctl mesa verify --repair $V

# --- a second run completes instead of failing
expect_exit 0 "publishing mesa-$V again completes the existing release" pub --token-file "$T/token" "$T/rel"
check "…every asset is there already" test "$(grep -c 'is there already' "$T/out")" = 3
check "…still one release with three assets" test "$(rel '[len(r["assets"]) for r in d]')" = "[3]"

# --- killed with SIGKILL (no trap runs): its work files stay where the next run removes them
# curl, at publish's first request, kills publish's whole process group (its own session)
mkdir -p "$T/bin-kill"
cat >"$T/bin-kill/curl" <<'EOS'
#!/bin/sh
env kill -9 -- "-$(ps -o pgid= -p $$ | tr -d ' ')"
EOS
chmod +x "$T/bin-kill/curl"
rm -rf "$T/ptmp"/*
TMPDIR="$T/ptmp" PATH="$T/bin-kill:$PATH" expect_exit 137 "publish killed with SIGKILL at its first request" \
	setsid -w "$PUBLISH" --repo o/r --key "$T/release.key" --api "$API" --uploads "$API/uploads" --token-file "$T/token" "$T/rel"
left=$(ls -d "$T/ptmp"/tb323fu-publish.* 2>/dev/null)
check "…leaves its work files in TMPDIR under a name of ours with its pid" test -n "$left"
expect_exit 0 "the next publish" pub --token-file "$T/token" "$T/rel"
check "…removes them" test ! -e "$left"
check "…and leaves nothing of its own" test -z "$(ls -A "$T/ptmp")"

done_testing
