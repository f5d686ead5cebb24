#!/bin/sh
# The Open Device Helper's backend, played with only the documented calls and JSON
# (docs/helper-backend.md) through tb323fu-ctl-mesa: progress lines read as they come, and
# status polled from a second process while the download waits at the test server's gate.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"

V6=2026.10.06
V7=2026.10.07
r6=$(standin $V6) && r7=$(standin $V7) || { not_ok "stand-in releases"; done_testing; exit 1; }
WWW="$T/www"
mkdir -p "$WWW"
start_httpd "$WWW" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="http://127.0.0.1:$PORT"
python3 "$TB_TOP/tests/doubles/fake-github" "$WWW" "$API" <<EOF
mesa-$V7 - $r7
mesa-$V6 - $r6
EOF
# The gate holds the transfer as long as the test looks: no stall in between.
: >"$T/token"
net_config "stall_timeout = 900"
fault "/download/mesa-$V7/tb323fu-mesa-$V7-$(uname -m).tar.gz" gate

ln -s "$CTL" "$T/tb323fu-ctl-mesa"
expect_exit 0 "the older version is installed first" ctl mesa install-local "$r6" --no-smoke
python3 "$TB_TOP/tests/tools/backend_play.py" "$T/tb323fu-ctl-mesa" "$STORE" "$WWW/.gate" $V7 $V6 >"$T/play" 2>"$T/play.err"
check "the backend's play ran to its end" test -s "$T/play"
while IFS= read -r line; do
	case $line in
	"ok "*) ok "${line#ok }" ;;
	"not ok "*) not_ok "${line#not ok }" ;;
	esac
done <"$T/play"
[ -s "$T/play.err" ] && not_ok "the play printed no errors" "$(head -c 800 "$T/play.err")"
done_testing
