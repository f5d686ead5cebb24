#!/bin/sh
# Progress the helper can trust (docs/design.md §13): a download from a loopback server that
# sends slowly and then pauses, its --progress json lines and status --json polled meanwhile,
# each with the time it arrived; the checks bound the counts by the elapsed times they measured
# (tests/tools/progress_check.py): at least one line a second while nothing arrives
# (stalled_s), the bytes really received, a percent that never decreases, a failure that keeps
# its percent; a terminal bar that shows the bytes received and the stall; an interrupted
# download that ends interrupted.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"

arch=$(uname -m)
V=2026.10.06
# Vulkan and OpenCL alone: a tarball small enough that the 768 KiB sent before the stall move
# its percent several times (with GL, Debian 13's is 28 MB)
R=$(standin $V --no-gl) || { not_ok "stand-in release"; done_testing; exit 1; }
WWW="$T/www"
mkdir -p "$WWW"
start_httpd "$WWW" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="http://127.0.0.1:$PORT"
echo "mesa-$V - $R" | python3 "$TB_TOP/tests/doubles/fake-github" "$WWW" "$API"
ASSET="/download/mesa-$V/tb323fu-mesa-$V-$arch.tar.gz"
CHECK="$TB_TOP/tests/tools/progress_check.py"
# settings: give up after 5 s without a byte
conf() {
	cat >"$TB323FU_MESA_CONFIG" <<EOF2
source = github:o/r
api_url = $API
connect_timeout = 5
stall_timeout = $1
stall_speed = 1024
EOF2
}
part() { find "$STORE/cache" -name "*-$V-*.part" 2>/dev/null | head -n 1; }
size() { stat -c %s "$1" 2>/dev/null || echo 0; }

conf 5
expect_exit 0 "check finds $V" ctl mesa check
# 256 KiB a second for 3 s, then nothing: the download gives up after 5 s without a byte
fault "$ASSET" slow 262144 3
mkfifo "$T/lines"
python3 "$TB_TOP/tests/tools/timestamp-lines" <"$T/lines" >"$T/events" &
STAMP=$!
"$CTL" --store "$STORE" --progress json mesa download $V 2>"$T/lines" >"$T/out" &
DL=$!
python3 "$CHECK" poll $DL "$T/polls" "$CTL" --store "$STORE" --json mesa status
wait $DL
dl_rc=$?
wait $STAMP
check "the stalled download fails with exit 5" test "$dl_rc" -eq 5
python3 "$CHECK" "$T/events" "$T/polls" "$(size "$(part)")" >"$T/checks"
while IFS= read -r line; do
	case $line in
	"ok - "*) ok "${line#ok - }" ;;
	*) not_ok "${line#not ok - }" ;;
	esac
done <"$T/checks"
check "…the partial file is kept for the next run" test "$(size "$(part)")" -gt 0

# The bar on a terminal's stream: the bytes in the file (a resumed download counts what it
# already had) and, once nothing arrives, for how long.
have=$(size "$(part)")
fault "$ASSET" slow 262144 1
expect_exit 5 "the bar: a resumed download that stalls again" ctl --progress bar mesa download $V
last=$(tr '\r' '\n' <"$T/err" | grep '^download' | tail -n 1)
now=$(size "$(part)")
shown=$(python3 -c '
import sys
b = int(sys.argv[1]); u = ["B", "KiB", "MiB", "GiB"]; i = 0
while b >= 1024 and i < 3:
    b /= 1024; i += 1
print(("%.1f %s" if i else "%.0f %s") % (b, u[i]))' "$now")
check "…its last state shows the bytes really in the file ($shown)" sh -c "printf '%s' '$last' | grep -q '\] $shown / '"
check "…and that nothing arrived for some seconds" sh -c "printf '%s' '$last' | grep -q 'nothing received for [0-9]* s'"
check "…the resumed part grew the file" test "$now" -gt "$have"

# Interrupted during the stall: the finished line says so and keeps the percent.
conf 300
fault "$ASSET" slow 262144 1
"$CTL" --store "$STORE" --progress json mesa download $V 2>"$T/int" >/dev/null &
DL=$!
TB_KILL_ON_EXIT="${TB_KILL_ON_EXIT:-} $DL"
check "a download in a stall (a line with stalled_s 1 or more)" \
	wait_until 60 grep -q '"stalled_s":[1-9]' "$T/int"
kill -INT $DL
wait $DL
check "…interrupted: exit 1" test $? -eq 1
check "…the finished line: ok false, reason interrupted, the last percent kept" python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
f, d = lines[-1], [l for l in lines if l["op"] == "download"][-1]
sys.exit(not (f["op"] == "finished" and f["ok"] is False and f["reason"] == "interrupted" and f["percent"] == d["percent"] < 100))' "$T/int"
no_faults
done_testing
