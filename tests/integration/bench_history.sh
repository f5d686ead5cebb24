#!/bin/sh
# Every bench kept (docs/design.md §10), end to end over six stand-in versions whose figure
# drops 30 % from the fourth: each bench run is recorded in the store's bench-history.json
# (written by rename, no temporary left); `bench --history` gives a line a run, newest last,
# a version's alone, one figure's, in words and --json (a history array), and a chart where
# the terminal has room; --plot draws it into an SVG and a PNG with cairo; update says the
# newest installed version benched slower than the one before it (the fourth, against a fake
# GitHub offering it) and refuses nothing; status's last_bench has each version's last run;
# bisect --bench names the fourth the first slower (each step's ratio against the good end,
# interval and verdict; the store as it was), and skips, never guesses, a version whose noise
# stays unclear up to the bound; --tests runs clpeak (a double writing its XML);
# the options go together as the help says; a history that is not JSON reads as none. The bounds (50 runs a version, 500 in all), the reader of the file and the lines'
# choice are tested in-process (tests/unit/test_bench_history.c).
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"

P=2026.09.0
for i in 1 2 3 4 5 6; do
	eval "R$i=\$(standin $P$i)" || { not_ok "stand-in release $P$i"; done_testing; exit 1; }
done
# the fake GitHub offers the fourth: update finds the store up to date with it
WWW="$T/www"
mkdir -p "$WWW" "$T/keys"
printf 'secret-token\n' >"$T/token"
start_httpd "$WWW" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="http://127.0.0.1:$PORT"
echo "mesa-${P}4 - $R4" | python3 "$TB_TOP/tests/doubles/fake-github" "$WWW" "$API"
net_config "keep_versions = 9
smoke = off"
for i in 1 2 3 4; do
	eval "expect_exit 0 \"install-local $P$i\" ctl mesa install-local \"\$R$i\" --no-smoke"
done

# The benchmark double: 200 GB/s on versions 1-3, 140 (30 % less) from the fourth, 100 on the
# distribution's side, the same every round (so each ratio's interval is exact).
cat >"$T/by-version" <<'EOF2'
#!/bin/sh
case ${OCL_ICD_VENDORS:-} in
*/icd/versions/2026.09.0[123]/*) echo "Throughput : 200 GB/s" ;;
*/icd/versions/*) echo "Throughput : 140 GB/s" ;;
*) echo "Throughput : 100 GB/s" ;;
esac
echo "Latency : 5 us"
EOF2
chmod 755 "$T/by-version"

for i in 1 2 3 4; do
	expect_exit 0 "bench $P$i" ctl mesa bench $P$i --rounds 6 --command "$T/by-version"
done
# update: up to date with the fourth, which benched slower than the third; nothing refused
expect_exit 0 "update with the newest installed version benched slower than the one before" ctl mesa update
check "…says so, by how much, and how to look" grep -qx "Mesa ${P}4 benched slower than Mesa ${P}3, the version before it: 1.18x the distribution's Mesa against 1.41x, beyond the 3 % noise floor (\`tb323fu-ctl --store $STORE mesa bench --history\` shows the runs)" "$T/out"
check "…after its own answer" grep -q "^Mesa up to date (${P}4)" "$T/out"
expect_exit 0 "update --json" ctl --json mesa update
check "…benched_slower names both and their ratios" \
	test "$(field '(lambda b: (b["version"], b["before"], round(b["ratio"], 2), round(b["ratio_before"], 2)))(d["benched_slower"])')" = "('${P}4', '${P}3', 1.18, 1.41)"
expect_exit 0 "status --json" ctl --json mesa status
check "…status's last_bench: each version's last run, release order" \
	test "$(field '[(b["version"], b["verdict"], round(b["ratio"], 2)) for b in d["last_bench"]]')" = \
	"[('${P}1', 'faster', 1.41), ('${P}2', 'faster', 1.41), ('${P}3', 'faster', 1.41), ('${P}4', 'faster', 1.18)]"
for i in 5 6; do
	eval "expect_exit 0 \"install-local $P$i\" ctl mesa install-local \"\$R$i\" --no-smoke"
	expect_exit 0 "bench $P$i" ctl mesa bench $P$i --rounds 6 --command "$T/by-version"
done
expect_exit 0 "update once the newest is as fast as the one before" ctl --json mesa update
check "…says nothing of it" test "$(field '"benched_slower" in d')" = False
check "the runs are kept in the store's bench-history.json, no temporary beside it" \
	test "$(find "$STORE" -maxdepth 1 -name '*bench-history*' | wc -l)" = 1
check "…six runs, each with its version, time, ratio, interval, verdict, rounds, sides and figures" \
	test "$(json_strict "$STORE/bench-history.json" '[(r["version"], [round(x, 3) for x in [r["ratio"]] + r["interval"]], r["verdict"], r["rounds"], sorted(r["sides"]), [(f["name"], round(f["ratio"], 3)) for f in r["figures"]], len(r["time"])) for r in d["runs"]][2:4]')" = \
	"[('${P}3', [1.414, 1.414, 1.414], 'faster', 6, ['distribution', 'store'], [('Throughput', 2.0), ('Latency', 1.0)], 20), ('${P}4', [1.183, 1.183, 1.183], 'faster', 6, ['distribution', 'store'], [('Throughput', 1.4), ('Latency', 1.0)], 20)]"

expect_exit 0 "bench --history" env COLUMNS=100 "$CTL" --store "$STORE" mesa bench --history
cp "$T/out" "$T/history.txt"
check "…a line a run, newest last: time, version, verdict with ratio and interval, rounds, command" \
	sh -c "grep -c '^[0-9-]* [0-9:]*  *${P}[1-6]  *faster, [0-9.]*x (95 % interval [0-9.]*x-[0-9.]*x); 6 rounds; $T/by-version\$' '$T/out' | grep -qx 6 &&
	       grep '${P}' '$T/out' | head -n 6 | tail -n 1 | grep -q '${P}6  *faster, 1.18x'"
check "…a chart of each version's last run where the terminal has room" \
	sh -c "grep -q \"^the last run of each version against the distribution's Mesa\" '$T/out' &&
	       grep -c '^${P}[1-6]  .*|.*\*.*  [0-9.]*x\$' '$T/out' | grep -qx 6"
check "…its sentence counts the runs and versions" grep -q "^6 bench runs kept, newest last, over 6 versions$" "$T/out"
expect_exit 0 "bench --history with no terminal" ctl mesa bench --history
check "…no chart without a terminal's room" sh -c "! grep -q 'the last run of each' '$T/out'"

expect_exit 0 "bench --history --json" ctl --json mesa bench --history
cp "$T/out" "$T/history.json"
check "…one object with a history array, newest last" \
	test "$(field '[(l["version"], round(l["ratio"], 3), l["verdict"], l["rounds"], l["figure"]) for l in d["history"]][2:4]')" = \
	"[('${P}3', 1.414, 'faster', 6, None), ('${P}4', 1.183, 'faster', 6, None)]"
expect_exit 0 "bench --history VERSION --figure NAME --json" ctl --json mesa bench --history ${P}4 --figure Throughput
check "…that version's runs, that figure's ratio" \
	test "$(field '[(l["version"], round(l["ratio"], 3), l["figure"]) for l in d["history"]]')" = "[('${P}4', 1.4, 'Throughput')]"
expect_exit 0 "bench --history --figure Latency" ctl --json mesa bench --history --figure Latency
check "…a time figure's ratio: the same on both sides" test "$(field '{round(l["ratio"], 3) for l in d["history"]}')" = "{1.0}"

expect_exit 0 "bench --history --plot FILE.svg" ctl mesa bench --history --plot "$T/chart.svg"
check "…an SVG cairo drew, put in place whole" sh -c "head -c 200 '$T/chart.svg' | grep -q '<svg' && ! ls -A '$T' | grep -q '^\.chart'"
check "…its sentence names the file" grep -q "; the chart is in $T/chart.svg\$" "$T/out"
expect_exit 0 "bench --history --plot FILE.png" ctl mesa bench --history --figure Throughput --plot "$T/chart.png"
check "…a PNG of 800x480" test "$(python3 -c 'import struct,sys; b=open(sys.argv[1],"rb").read(24); print(b[:8]==b"\x89PNG\r\n\x1a\n", struct.unpack(">II", b[16:24]))' "$T/chart.png")" = "True (800, 480)"
expect_exit 2 "--plot of another name is a usage error" ctl mesa bench --history --plot "$T/chart.pdf"
check "…said" grep -q -- "--plot wants a file named .svg or .png" "$T/err"
expect_exit 2 "--figure without --history is a usage error" ctl mesa bench --figure Throughput
expect_exit 2 "--history with --rounds is a usage error" ctl mesa bench --history --rounds 3
expect_exit 0 "bench --history of a version never benched" ctl mesa bench --history 2026.01.01
check "…says none is kept and what measures one" grep -q "^no bench run is kept for 2026.01.01; \`tb323fu-ctl --store $STORE mesa bench 2026.01.01\` measures one$" "$T/out"

# --- bisect --bench over the six: the fourth is the first slower, each step with its ratio
kept_parts() {
	readlink "$STORE/current" && ls -a "$STORE/versions" && sha256sum "$STORE/bench-history.json" &&
		(cd "$STORE" && find cache -type f -print0 | sort -z | xargs -0 -r sha256sum)
}
kept_parts >"$T/before"
expect_exit 0 "bisect --bench --good ${P}1 over the six" ctl mesa bisect --bench --good ${P}1 --rounds 6 --command "$T/by-version"
check "…each step's line: bad or good with bench's verdict, its ratio against the good end, interval, rounds" \
	grep -qx "Mesa ${P}4: bad (slower, 0.84x Mesa ${P}1 (95 % interval 0.84x-0.84x), 6 rounds)" "$T/out"
check "…names the fourth the first slower, the third the last good, and by how much" \
	grep -q "^Mesa ${P}4 is the first slower version, Mesa ${P}3 the last good one: 0.84x Mesa ${P}1 (95 % interval 0.84x-0.84x, beyond the 3 % noise floor) (4 runs over 6 versions" "$T/out"
expect_exit 0 "bisect --bench --json" ctl --json mesa bisect --bench --good ${P}1 --rounds 6 --command "$T/by-version"
check "…first_bad, last_good, slower_percent, and each step's ratio, interval, bench_verdict, rounds" \
	test "$(field '(d["first_bad"], d["last_good"], d["slower_percent"], [(s["version"], s["verdict"], s["bench_verdict"], round(s["ratio"], 2), s["rounds"]) for s in d["steps"]])')" = \
	"('${P}4', '${P}3', 16, [('${P}6', 'bad', 'slower', 0.84, 6), ('${P}1', 'good', 'same', 1.0, 0), ('${P}3', 'good', 'same', 1.0, 6), ('${P}4', 'bad', 'slower', 0.84, 6)])"
kept_parts >"$T/now"
check "…the store as it was (current, versions, the history, the cache)" cmp -s "$T/before" "$T/now"

# the third noisy against the good end (its figure 200 times exp(0.3 N(0,1)), drawn beforehand
# by tests/tools/noisy-figure from a fixed seed): unclear, measured again with more rounds up to
# the bound, then skipped and said; the fourth is named all the same
python3 "$TB_TOP/tests/tools/noisy-figure" 3 200 200 0.3 200 >"$T/third-figures"
cat >"$T/noisy-third" <<EOF2
#!/bin/sh
case \${VK_DRIVER_FILES:-} in
*/${P}3/*) n=\$((\$(cat "$T/count" 2>/dev/null || echo 0) + 1)); echo \$n >"$T/count"
	awk -v n="\$n" 'NR == n { print "Throughput : " \$1 " GB/s"; exit }' "$T/third-figures" ;;
*/${P}[12]/*) echo "Throughput : 200 GB/s" ;;
*) echo "Throughput : 140 GB/s" ;;
esac
EOF2
chmod 755 "$T/noisy-third"
expect_exit 0 "bisect --bench with the third unclear" ctl --json mesa bisect --bench --good ${P}1 --rounds 6 --command "$T/noisy-third"
check "…the third measured again up to 60 rounds, then skipped, never guessed" \
	test "$(field '[(s["verdict"], s["bench_verdict"], s["rounds"], s["why"].endswith("still unclear at 60 rounds, bisect" + chr(39) + "s bound: skipped, not guessed")) for s in d["steps"] if s["version"] == "'${P}3'"]')" = "[('skipped', 'unclear', 60, True)]"
check "…said: the fourth or the skipped third" test "$(field '(d["first_bad"], d["last_good"], d["skipped"], "or one of the skipped before it" in d["message"])')" = "('${P}4', '${P}2', ['${P}3'], True)"
# --tests: clpeak's tests (a double in PATH writing clpeak's XML), its XML read as bench reads it
mkdir "$T/bin"
cat >"$T/bin/clpeak" <<EOF2
#!/bin/sh
echo "\$*" >>"$T/clpeak-args"
while [ \$# -gt 0 ]; do case \$1 in -f) xml=\$2; shift ;; esac; shift; done
case \${VK_DRIVER_FILES:-} in */${P}[123]/*) gf=200 ;; *) gf=140 ;; esac
cat >"\$xml" <<XML
<?xml version="1.0" encoding="utf-8"?>
<clpeak os="Linux x64">
  <platform name="rusticl">
    <device name="llvmpipe" driver_version="1" compute_units="8" clock_frequency="300" clock_frequency_unit="MHz">
      <single_precision_compute unit="gflops">
        <float>\$gf</float>
      </single_precision_compute>
    </device>
  </platform>
</clpeak>
XML
EOF2
chmod 755 "$T/bin/clpeak"
expect_exit 0 "bisect --bench --tests compute-sp (clpeak's XML)" \
	env PATH="$T/bin:$PATH" "$CTL" --store "$STORE" --json mesa bisect --bench --good ${P}1 --rounds 6 --tests compute-sp
check "…the fourth, 0.70x, each step from clpeak's figures" \
	test "$(field '(d["first_bad"], d["last_good"], d["slower_percent"], [(s["version"], s["bench_verdict"]) for s in d["steps"]])')" = \
	"('${P}4', '${P}3', 30, [('${P}6', 'slower'), ('${P}1', 'same'), ('${P}3', 'same'), ('${P}4', 'slower')])"
check "…clpeak ran with its XML dump and the test named" grep -q -- "--enable-xml-dump -f .*/bisect/bench-clpeak.xml --compute-sp$" "$T/clpeak-args"
expect_exit 2 "bisect --bench --tests vk.compute is a usage error" ctl mesa bisect --bench --tests vk.compute
expect_exit 2 "bisect --tests without --bench is a usage error" ctl mesa bisect --tests compute-sp
expect_exit 2 "bisect --bench without --command is a usage error" ctl mesa bisect --bench --case dEQP-VK.api.smoke.triangle
expect_exit 2 "bisect --rounds without --bench is a usage error" ctl mesa bisect --rounds 6 --command true

# A hostile history: not JSON
printf 'not json' >"$STORE/bench-history.json"
expect_exit 0 "a history that is not JSON reads as none" ctl mesa bench --history
check "…said so" grep -q "^no bench run is kept" "$T/out"

# A link planted in its place: not read through, and replaced (not written through) by the next run
rm -f "$STORE/bench-history.json"
printf '{"runs":[{"version":"%s","time":"t","ratio":9}]}\n' "${P}1" >"$T/planted.json"
cp "$T/planted.json" "$T/planted.orig"
ln -s "$T/planted.json" "$STORE/bench-history.json"
expect_exit 0 "a history that is a link reads as none" ctl mesa bench --history
check "…said so" grep -q "^no bench run is kept" "$T/out"
expect_exit 0 "bench with a link in the history's place" ctl mesa bench ${P}6 --rounds 6 --command "$T/by-version"
check "…the link replaced by a file, its target as it was" \
	sh -c "test -f '$STORE/bench-history.json' && ! test -L '$STORE/bench-history.json' && cmp -s '$T/planted.json' '$T/planted.orig'"
check "…holding that one run" test "$(json_strict "$STORE/bench-history.json" 'len(d["runs"])')" = 1

stop_httpd
done_testing
