#!/bin/sh
# mesa bisect over eight stand-in versions served by a fake GitHub on 127.0.0.1, two installed
# and six offered, with no release list cached: bisect fetches the list (saying so, the cache
# left as it was), and a command that fails from the fifth version on is named in five runs
# (the two ends checked too); the versions not installed are fetched and smoke-tested into the
# bisect work folder, kept with --keep for the next bisect, gone without; current, versions/
# and the cache stay as they were; each step runs with TB323FU_MESA_VERSION=V and `which`
# inside it names V; its last lines are shown under its line, in the JSON (output) and all of
# it in the log the answer names; a bad end that passes, a good end that fails (said "taken as
# good (default)" when it was not named) are said at once; an exit code git's rule does not
# know stops it, counting the run; with no list to be had it says the answer is among the
# installed versions only; Ctrl-C (at the bisect-step test point) lets the running step end
# and names the command that goes on. The planner's halving and skips are tested in-process
# (tests/unit/test_bisect_plan.c); the full tier (TB_TIER=full) adds exit 125's skip through the
# command, a step over its time limit, writers going on while bisect reads, --case on the fake
# dEQP-VK and OpenCL-CTS, a pinned version and a killed bisect's folder, and, without --keep,
# a failing end and an interrupted bisect leaving no work folder.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"

P=2026.10.0
for i in 1 2 3 4 5 6 7 8; do
	eval "R$i=\$(standin $P$i)" || { not_ok "stand-in releases"; done_testing; exit 1; }
done
WWW="$T/www"
mkdir -p "$WWW" "$T/keys"
printf 'secret-token\n' >"$T/token"
start_httpd "$WWW" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="http://127.0.0.1:$PORT"
for i in 8 7 6 5 4 3 2 1; do
	eval "echo \"mesa-$P$i - \$R$i\""
done | python3 "$TB_TOP/tests/doubles/fake-github" "$WWW" "$API"
net_config
LOG="$WWW/.log"

expect_exit 0 "install-local ${P}1" ctl mesa install-local "$R1" --no-smoke
expect_exit 0 "install-local ${P}8 (current; ${P}1 previous)" ctl mesa install-local "$R8" --no-smoke
check "no release list is cached (installs from files)" test -z "$(find "$STORE/cache" -name 'releases*' 2>/dev/null)"

# The test: the version comes from the Vulkan driver file run --version selects; it says what
# it runs on (TB323FU_MESA_VERSION, and `which`), and a bad version says so on stderr.
cat >"$T/probe" <<EOF2
v=\${VK_DRIVER_FILES%/*}
v=\${v##*/}
echo "\$v" >>"\$1"
echo "testing \$v, TB323FU_MESA_VERSION=\${TB323FU_MESA_VERSION:-}"
"$TB_BIN/tb323fu-mesa" which | head -n 1
[ "\$v" = "\${2:-}" ] && exit 125
case \$v in 2026.10.0[5-8]) echo "broken on \$v" >&2; exit 1 ;; esac
exit 0
EOF2
probe() { printf "sh '%s' '%s' %s" "$T/probe" "$T/runs" "${1:-}"; }
kept_parts() {
	readlink "$STORE/current" && readlink "$STORE/previous" && ls -a "$STORE/versions" &&
		(cd "$STORE" && find cache -type f -print0 | sort -z | xargs -0 -r sha256sum)
}
kept_parts >"$T/before"
same_parts() { kept_parts >"$T/now" && cmp -s "$T/before" "$T/now"; }
downloads() { grep -c "GET /download/.*\.tar\.gz .*-> 200" "$LOG"; }

# --- no list cached: fetched, and the first bad version in five runs -------------------------
: >"$T/runs"
expect_exit 0 "bisect with no release list cached names the first bad version" ctl --json mesa bisect --command "$(probe)" --keep
check "…${P}5 is the first bad, ${P}4 the last good" test "$(json 'd["first_bad"], d["last_good"], d["skipped"]' <"$T/out")" = "('${P}5', '${P}4', [])"
check "…it fetched the release list and says so" \
	test "$(json 'd["release_list"], "no release list was cached, so bisect fetched it" in d["message"]' <"$T/out")" = "('fetched', True)"
check "…in five runs: the bad end, the good end (current, and the newest installed before it), then halving" \
	test "$(tr '\n' ' ' <"$T/runs")" = "${P}8 ${P}1 ${P}4 ${P}6 ${P}5 "
check "…each step with its version, exit code and seconds; the three not installed were fetched" \
	test "$(json '[(s["version"], s["code"], s["verdict"], s["fetched"], s["seconds"] >= 0) for s in d["steps"]]' <"$T/out")" = \
	"[('${P}8', 1, 'bad', False, True), ('${P}1', 0, 'good', False, True), ('${P}4', 0, 'good', True, True), ('${P}6', 1, 'bad', True, True), ('${P}5', 1, 'bad', True, True)]"
check "…each step ran with TB323FU_MESA_VERSION=V, and which inside it named V" \
	test "$(json 'all(s["output"].splitlines()[0] == "testing %s, TB323FU_MESA_VERSION=%s" % (s["version"], s["version"]) and s["output"].splitlines()[1].startswith("Mesa %s, the version this program was started on, from the store " % s["version"]) for s in d["steps"])' <"$T/out")" = True
check "…a bad step's output ends with what it said on stderr" \
	test "$(json 'd["steps"][4]["output"].splitlines()[-1]' <"$T/out")" = "broken on ${P}5"
check "…all of it in the log the answer names" \
	test "$(json 'd["log"], ("every step" + chr(39) + "s output is in " + d["log"]) in d["message"]' <"$T/out")" = "('$STORE/bisect.log', True)"
check "…five steps in the log, with their exit codes" \
	test "$(grep -c '^---- Mesa 2026.10.0[0-9]: exit [01]$' "$STORE/bisect.log") $(grep -c "^broken on" "$STORE/bisect.log")" = "5 3"
check "…what changed: both builds' Mesa versions and upstream commits, the notes in between" \
	test "$(json 'd["changes"]["last_good"]["commit"], d["changes"]["first_bad"]["commit"], [n["version"] for n in d["changes"]["notes"]]' <"$T/out")" = \
	"('standin-${P}4', 'standin-${P}5', ['${P}5'])"
check "…current, previous, versions/ and the cache are as they were (the list fetched was not cached)" same_parts
check "…each fetched version was downloaded once, and kept" test "$(downloads) $(ls "$STORE/bisect/versions" | tr '\n' ' ')" = "3 ${P}4 ${P}5 ${P}6 "

expect_exit 0 "bisect for people, taking the kept versions" ctl mesa bisect --command "$(probe)" --keep
check "…a line a step, then the answer with both builds" test "$(grep -c '^Mesa 2026.10.0[0-9]: \(good\|bad\)' "$T/out") $(grep -c "is the first bad version" "$T/out") $(grep -c "^first bad: ${P}5, built from Mesa .*, upstream commit standin-${P}5" "$T/out")" = "5 1 1"
check "…a bad step's last lines shown under its line" \
	sh -c "grep -A3 '^Mesa ${P}5: bad' '$T/out' | grep -qx '    | broken on ${P}5'"
check "…and the log named" grep -qx "every step's output is in $STORE/bisect.log" "$T/out"
check "…nothing downloaded again" test "$(downloads)" = 3

run_cmd "$CTL" __complete tb323fu-ctl --store "$STORE" mesa bisect --good ""
check "--good <tab> offers the installed versions" test "$(sort "$T/out" | tr '\n' ' ')" = "${P}1 ${P}8 "
expect_exit 0 "--progress json: an event a step" ctl --progress json mesa bisect --command "$(probe)" --keep
check "…bisect:VERSION, run and then its verdict" \
	test "$(grep -o '"test":"bisect:[^"]*","status":"[a-z]*"' "$T/err" | tr '\n' ' ')" = \
	"\"test\":\"bisect:${P}8\",\"status\":\"run\" \"test\":\"bisect:${P}8\",\"status\":\"fail\" \"test\":\"bisect:${P}1\",\"status\":\"run\" \"test\":\"bisect:${P}1\",\"status\":\"pass\" \"test\":\"bisect:${P}4\",\"status\":\"run\" \"test\":\"bisect:${P}4\",\"status\":\"pass\" \"test\":\"bisect:${P}6\",\"status\":\"run\" \"test\":\"bisect:${P}6\",\"status\":\"fail\" \"test\":\"bisect:${P}5\",\"status\":\"run\" \"test\":\"bisect:${P}5\",\"status\":\"fail\" "
expect_exit 0 "list shows the two installed versions only" ctl --json mesa list
check "…never counted with the kept ones" test "$(json '[v["version"] for v in d["versions"]]' <"$T/out")" = "['${P}8', '${P}1']"

# --- ends that do not test as named ---------------------------------------------------------
: >"$T/runs"
expect_exit 1 "a bad end that passes is said at once" ctl --json mesa bisect --good ${P}1 --bad ${P}3 --command "$(probe)"
reason_is bisect-ends
check "…after one run, naming --bad" test "$(wc -l <"$T/runs") $(json '"named bad" in d["message"], "--bad VERSION" in d["message"]' <"$T/out")" = "1 (True, True)"
: >"$T/runs"
expect_exit 1 "a good end that fails is said at once" ctl --json mesa bisect --good ${P}5 --command "$(probe)" --keep
reason_is bisect-ends
check "…after the two ends, naming --good" \
	test "$(wc -l <"$T/runs") $(json '"named good" in d["message"], "--good VERSION" in d["message"]' <"$T/out")" = "2 (True, True)"
expect_exit 1 "a default good end that fails" ctl --json mesa bisect --command 'exit 1'
check "…is said as taken as good (default), not named" \
	has "Mesa ${P}1, taken as good (default: the newest installed version older than the bad one), fails the command already" "$T/out"
expect_exit 1 "a default bad end that passes" ctl --json mesa bisect --good ${P}1 --command true
check "…is said as taken as bad (default: current)" has "Mesa ${P}8, taken as bad (default: current), passes the command" "$T/out"
expect_exit 2 "--good newer than --bad is a usage error" ctl --json mesa bisect --good ${P}8 --bad ${P}2 --command true
reason_is usage
expect_exit 1 "a version neither installed nor offered" ctl --json mesa bisect --good 2026.1.1 --command true
reason_is unknown-version
check "…points to the versions on offer" has "\`tb323fu-ctl --store $STORE mesa list --available\` shows the versions on offer" "$T/out"
expect_exit 2 "--case and --command together" ctl --json mesa bisect --case dEQP-GLES3.functional.a --command true
reason_is usage
expect_exit 2 "a case of no dEQP module the suites run" ctl --json mesa bisect --case dEQP-GLES31.functional.a
check "…said so, naming the modules" has "--case wants a dEQP case (dEQP-VK.api.smoke.triangle, dEQP-GLES2.info.renderer; dEQP-GLES3 and dEQP-EGL too)" "$T/out"
expect_exit 2 "--case with a slash too many is a usage error" ctl --json mesa bisect --case a/b/c
reason_is usage
expect_exit 1 "an exit code git's rule does not know stops the bisect" ctl --json mesa bisect --command 'echo about to stop; exit 200'
check "…saying how to count it bad and where the range stands" test "$(json '"|| exit 1" in d["message"], d["resume"].startswith("tb323fu-ctl")' <"$T/out")" = "(True, True)"
check "…the run that stopped it counted, its output kept" \
	test "$(json 'd["runs"], "(1 run so far" in d["message"], [(s["version"], s["code"], s["verdict"], s["output"]) for s in d["steps"]], d["skipped"]' <"$T/out")" = \
	"(1, True, [('${P}8', 200, 'stopped', 'about to stop')], [])"

# --- Ctrl-C: the running step ends, the range and the command that goes on are said --------
: >"$T/runs"
if paused bisect-step "$CTL" --store "$STORE" --json mesa bisect --command "$(probe)" --keep; then
	ok "bisect stops at its first step"
	kill -INT "$paused_pid"
	resume
	wait "$paused_job"
	rc=$?
	cp "$T/paused.out" "$T/out"
	check "…exits 1, interrupted" test "$rc $(json 'd["reason"]' <"$T/out")" = "1 interrupted"
	check "…after the step that was running" test "$(tr '\n' ' ' <"$T/runs")" = "${P}8 "
	check "…saying where the range stands and the command that goes on" \
		test "$(json '"the range stands at good '${P}1', bad '${P}8'" in d["message"], d["resume"] in d["message"], "(1 run so far" in d["message"]' <"$T/out")" = "(True, True, True)"
	check "…no staging left in the work folder it keeps (--keep)" test -z "$(find "$STORE/bisect/versions" -maxdepth 1 -name '.*')"
	check "…keeping the --store given" test "$(json 'd["resume"].startswith("tb323fu-ctl --store '"$STORE"' mesa bisect --good '${P}1' --bad '${P}8' --command ")' <"$T/out")" = True
	eval "set -- $(json 'd["resume"]' <"$T/out")"
	shift
	expect_exit 0 "the command said goes on" "$CTL" --json "$@"
	check "…to the same answer" test "$(json 'd["first_bad"]' <"$T/out")" = "${P}5"
else
	not_ok "bisect stops at its first step" "$(cat "$T/paused.err")"
fi

# --- without --keep the work folder goes -----------------------------------------------------
n=$(downloads)
expect_exit 0 "a bisect without --keep" ctl --json mesa bisect --good ${P}4 --command "$(probe)"
check "…takes the kept versions, downloads none" test "$(json 'd["first_bad"]' <"$T/out") $(downloads)" = "${P}5 $n"
check "…and the work folder is gone" test ! -e "$STORE/bisect"
check "…current, previous, versions/ and the cache as they were" same_parts

# --- no list to be had: among the installed versions only, said ------------------------------
API=http://127.0.0.1:1 net_config
expect_exit 0 "with no list cached and none to fetch" ctl --json mesa bisect --command "$(probe)"
check "…it answers among the installed versions only, and says so" \
	test "$(json 'd["release_list"], d["first_bad"], d["runs"], "among the installed versions only" in d["message"], "mesa list --available" in d["message"]' <"$T/out")" = "('none', '${P}8', 2, True, True)"
net_config

# --- the full tier: the rest through the command ------------------------------------------------
if [ "$TB_TIER" != full ]; then
	done_testing
	exit 0
fi
# --- 125 skips a version; --keep keeps what was fetched --------------------------------------
: >"$T/runs"
n=$(downloads)
expect_exit 0 "exit 125 on ${P}6 skips it (--keep)" ctl --json mesa bisect --good ${P}1 --bad ${P}8 --command "$(probe ${P}6)" --keep
check "…still ${P}5, with ${P}6 skipped" test "$(json 'd["first_bad"], d["last_good"], d["skipped"]' <"$T/out")" = "('${P}5', '${P}4', ['${P}6'])"
check "…the skip was a run of its own" test "$(tr '\n' ' ' <"$T/runs")" = "${P}8 ${P}1 ${P}4 ${P}6 ${P}5 "
check "…--keep keeps the fetched versions in the work folder" test "$(ls "$STORE/bisect/versions" | tr '\n' ' ')" = "${P}4 ${P}5 ${P}6 "
check "…outside versions/: current, previous, versions/ and the cache as they were" same_parts
expect_exit 0 "list shows the two installed versions only" ctl --json mesa list
check "…never counted with the installed ones" test "$(json '[v["version"] for v in d["versions"]]' <"$T/out")" = "['${P}8', '${P}1']"
expect_exit 0 "the next bisect takes the kept versions without fetching them" ctl --json mesa bisect --command "$(probe)"
check "…nothing downloaded again" test "$(downloads)" = $((n + 3))
check "…and without --keep the work folder goes" test ! -e "$STORE/bisect"

# --- a step over its time limit is stopped and counts bad ------------------------------------------
cat >"$T/hang-on-8" <<'EOF'
v=${VK_DRIVER_FILES%/*}
case ${v##*/} in 2026.10.08) exec sleep 86400 ;; esac
exit 0
EOF
TB323FU_MESA_BISECT_TIMEOUT=3 expect_exit 0 "a command that hangs on ${P}8" ctl --json mesa bisect --good ${P}6 --command "sh '$T/hang-on-8'"
check "…is stopped at TB323FU_MESA_BISECT_TIMEOUT, counted bad as 124" \
	test "$(json 'd["steps"][0]["code"], d["steps"][0]["verdict"], "TB323FU_MESA_BISECT_TIMEOUT" in d["steps"][0]["why"], d["first_bad"]' <"$T/out")" = "(124, 'bad', True, '${P}8')"

# --- a reader: rollback, on and off go on while bisect runs -----------------------------------
: >"$T/runs"
if paused bisect-step "$CTL" --store "$STORE" --json mesa bisect --command "$(probe)"; then
	ok "bisect waits at its first step"
	expect_exit 0 "rollback while bisect runs" ctl --json mesa rollback
	check "…current is ${P}1 now" test "$(readlink "$STORE/current")" = "versions/${P}1"
	expect_exit 0 "…and rollback again" ctl --json mesa rollback
	expect_exit 1 "…which leaves ${P}1 marked, so it is no default good" ctl --json mesa bisect --command true
	check "…said so" has "not marked" "$T/out"
	for v in ${P}1 ${P}8; do ctl mesa forget $v >/dev/null 2>&1; done
	expect_exit 0 "on while bisect runs" ctl --json mesa on
	expect_exit 0 "off while bisect runs" ctl --json mesa off
	expect_exit 3 "a second bisect is busy" ctl --json mesa bisect --command true
	reason_is busy
	check "…saying another bisect runs" has "another bisect is running" "$T/out"
	expect_exit 0 "status while bisect runs" ctl --json mesa status
	check "…no operation runs as far as writers go" test "$(json 'd["op"]' <"$T/out")" = ""
	check "…the installed versions of its range are pinned by it" \
		test "$(find "$STORE/.pins" -name "*@$paused_pid" | sort | sed 's|.*/||' | tr '\n' ' ')" = "${P}1@$paused_pid ${P}8@$paused_pid "
	resume
	wait "$paused_job"
	rc=$?
	cp "$T/paused.out" "$T/out"
	check "…the bisect went on to its answer" test "$rc $(json 'd["first_bad"], d["last_good"]' <"$T/out")" = "0 ('${P}5', '${P}4')"
	check "…its pins gone with it" test -z "$(find "$STORE/.pins" -name "*@$paused_pid")"
else
	not_ok "bisect waits at its first step" "$(cat "$T/paused.err")"
fi

# --- one dEQP-VK case, run by the suite's own runner on the fake dEQP-VK ----------------------
net_config "deqp_dir = $TB_TOP/tests/doubles/fake-deqp-vk"
export FAKE_DEQP_BROKEN_FROM=${P}7
expect_exit 0 "--case on one dEQP-VK case" ctl --json mesa bisect --case dEQP-VK.compute.fake.breaksfrom_1
check "…names ${P}7" test "$(json 'd["first_bad"], d["last_good"], len(d["steps"])' <"$T/out")" = "('${P}7', '${P}6', 5)"
check "…a failing case is bad, a passing one good" test "$(json '[s["verdict"] + ":" + s["why"] for s in d["steps"]][:2]' <"$T/out")" = "['bad:fail', 'good:pass']"
check "…current and versions/ as they were, no work folder left" \
	test "$(readlink "$STORE/current") $(ls "$STORE/versions" | tr '\n' ' ')$(test -e "$STORE/bisect" && echo left)" = "versions/${P}8 ${P}1 ${P}8 "

# --- one OpenCL-CTS sub-test, by its suite's runner on the fake harness ---------------------------
mkdir -p "$T/cts" && cp "$TB_TOP/tests/doubles/fake-cts" "$T/cts/test_bisect"
net_config "cts_dir = $T/cts"
export FAKE_CTS_BROKEN_FROM=${P}3 FAKE_CTS_RECORD="$T/cts-record"
expect_exit 0 "--case on one OpenCL-CTS sub-test" ctl --json mesa bisect --case bisect/breaksfrom
check "…names $FAKE_CTS_BROKEN_FROM" test "$(json 'd["first_bad"], d["last_good"]' <"$T/out")" = "('${P}3', '${P}2')"
check "…running that sub-test alone, on both sides (a failure twice, as the suite confirms a regression)" \
	test "$(grep -vc ' test_bisect -w breaksfrom$' "$T/cts-record") $(grep -c '^store ' "$T/cts-record")" = "0 8"

# --- a pinned version is not removed; a killed bisect's folder goes with the next one ---------------
net_config
expect_exit 0 "download ${P}3 (installed, not current)" ctl mesa download ${P}3
if paused bisect-step "$CTL" --store "$STORE" --json mesa bisect --command "$(probe)"; then
	expect_exit 3 "remove of a version bisect pins is busy" ctl --json mesa remove ${P}3
	check "…naming the bisect that reads it" has "mesa bisect)" "$T/out"
	kill_paused
	check "a bisect killed leaves its work folder" test -d "$STORE/bisect"
	expect_exit 0 "the next bisect takes it over" ctl --json mesa bisect --good ${P}1 --command "$(probe)"
	check "…and it is gone after" test "$(json 'd["first_bad"]' <"$T/out")$(test -e "$STORE/bisect" && echo ' left')" = "${P}5"
	expect_exit 0 "remove goes through once no bisect reads it" ctl --json mesa remove ${P}3
else
	not_ok "bisect waits at its first step" "$(cat "$T/paused.err")"
fi
# --- without --keep, an end that fails and an interrupted bisect leave no work folder ----------
net_config
: >"$T/runs"
expect_exit 1 "a good end that fails, without --keep" ctl --json mesa bisect --good ${P}5 --command "$(probe)"
reason_is bisect-ends
check "…the fetched end is gone with the work folder" test ! -e "$STORE/bisect"
if paused bisect-step "$CTL" --store "$STORE" --json mesa bisect --good ${P}1 --command "$(probe)"; then
	kill -INT "$paused_pid"
	resume
	wait "$paused_job"
	check "Ctrl-C without --keep: interrupted" test "$(json 'd["reason"]' <"$T/paused.out")" = interrupted
	check "…nothing left of the work folder" test ! -e "$STORE/bisect"
else
	not_ok "bisect stops at its first step" "$(cat "$T/paused.err")"
fi
done_testing
