#!/bin/sh
# bench's verdict is what the statistics allow (docs/design.md §10), end to end through the real
# command over a figure whose noise comes from a seeded source (tests/tools/noisy-figure,
# lognormal, drawn before the runs, so no outcome depends on this machine's speed): identical
# figures are "same"; the same distribution with sigma 0.1 on both sides is "unclear", naming
# the rounds it would need; 2x apart "faster", 0.5x "slower"; 3 rounds "unclear" with no
# interval, in the text and the JSON; --command's figures stand alone; status and list give the
# verdict with its interval. The statistics themselves (the rule, 20 seeded benches of each
# kind, the rounds an unclear one names) are tested in-process by tests/unit/test_bench_stats.c;
# the full tier (TB_TIER=full) also runs 20 seeded benches of each kind through the command.
. "$TB_TOP/tests/lib.sh"

V=2026.08.02
R=$(standin $V) || { not_ok "stand-in release"; done_testing; exit 1; }
expect_exit 0 "install-local $V" ctl mesa install-local "$R" --sums "$(dirname "$R")/SHA256SUMS" --no-smoke
# The benchmark double: its Nth run prints line N of a file of figures drawn beforehand
# (tests/tools/noisy-figure), the column of the side it runs on (bench gives the store's side
# the store's OpenCL vendor file).
cat >"$T/next-figure" <<'EOF2'
#!/bin/sh
n=$(($(cat "$1" 2>/dev/null || echo 0) + 1))
echo "$n" >"$1"
case ${OCL_ICD_VENDORS:-} in */icd/versions/*) col=1 ;; *) col=2 ;; esac
awk -v n="$n" -v c="$col" 'NR == n { print "Throughput : " $c " GB/s"; exit }' "$2"
EOF2
chmod 755 "$T/next-figure"
# figures SEED STORE_MEDIAN DISTRIBUTION_MEDIAN [SIGMA]: the bench command over freshly drawn
# figures (sigma 0.1 unless given)
figures() {
	rm -f "$T/state"
	python3 "$TB_TOP/tests/tools/noisy-figure" "$1" "$2" "$3" "${4:-0.1}" 2000 >"$T/figures.$1"
	echo "$T/next-figure $T/state $T/figures.$1"
}
# bench_json FILE SEED STORE DISTRIBUTION [SIGMA]: bench --json of default rounds into FILE
bench_json() {
	_f=$1
	shift
	"$CTL" --store "$STORE" --json mesa bench --command "$(figures "$@")" >"$_f" 2>"$_f.err"
}
# the whole and each figure: an interval [low, high] around its ratio, a verdict of four
interval_holds() {
	json_strict "$1" '
all(len(o["interval"]) == 2 and o["interval"][0] <= o["ratio"] <= o["interval"][1] and o["verdict"] in ("same", "faster", "slower", "unclear")
    for o in [d] + d["figures"])'
}

# --- identical figures: same --------------------------------------------------------------
bench_json "$T/same.json" 1 100 100 0
check "identical figures on both sides: same, nothing more needed" \
	test "$(json_strict "$T/same.json" 'd["ok"], d["verdict"], d["interval"], d["rounds_needed"]')" = "(True, 'same', [1.0, 1.0], None)"
check "…with an interval [low, high] around its ratio, and the figure's the same" test "$(interval_holds "$T/same.json")" = True
check "…--command's figure stands alone: no smoke figure beside it" \
	test "$(json_strict "$T/same.json" '[f["name"] for f in d["figures"]], d["figures_in_whole"]')" = "(['Throughput'], 1)"
ROUNDS=$(json_strict "$T/same.json" 'd["rounds"]')
check "…the rounds are the default the help names ($ROUNDS)" sh -c \
	"'$CTL' mesa help bench | grep -q -- '--rounds N .*(default $ROUNDS;'"
check "…and the help states the rule, not a measurement" sh -c \
	"'$CTL' mesa help bench | tr -s ' \n' ' ' | grep -q 'faster or slower when the whole 95 % interval of the ratio lies beyond the 3 % noise floor, same when it lies within it, otherwise unclear, with the rounds the spread seen would need' && ! '$CTL' mesa help bench | grep -q 'measured'"

# --- the same distribution, wide noise: unclear, with the rounds it would need ----------------
bench_json "$T/wide.json" 1 100 100
check "the same distribution with sigma 0.1: unclear (its interval reaches across the floor)" \
	test "$(json_strict "$T/wide.json" 'd["verdict"], d["interval"][0] < 1.03 < d["interval"][1] or d["interval"][0] < 1 / 1.03 < d["interval"][1]')" = "('unclear', True)"
NEED=$(json_strict "$T/wide.json" 'd["rounds_needed"]')
check "…naming the rounds the spread would need ($NEED, more than the $ROUNDS run)" test "$NEED" -gt "$ROUNDS"
check "…its sentence says unclear, the interval across the floor, and the rounds to run" \
	test "$(json_strict "$T/wide.json" 'd["message"].startswith("Mesa '$V' against the distribution" + chr(39) + "s Mesa: unclear, %.2fx (95 %% interval %.2fx-%.2fx reaches across the noise floor 3 %%); " % (d["ratio"], d["interval"][0], d["interval"][1])), ("run it again with --rounds %d (" % d["rounds_needed"]) in d["message"] or "lies at the noise floor" in d["message"]')" = "(True, True)"
check "…with an interval around its ratio" test "$(interval_holds "$T/wide.json")" = True

# --- 2x apart: faster, as text -----------------------------------------------------------------
CMD=$(figures 7 200 100)
expect_exit 0 "bench --command 2x apart, as text" ctl mesa bench --command "$CMD"
check "…the table: medians with their range, the ratio with its interval and the verdict" \
	grep -q '^Throughput \[GB/s\]  *[0-9.]* ([0-9.]*-[0-9.]*)  *[0-9.]* ([0-9.]*-[0-9.]*)  *[0-9.]*x \[[0-9.]*-[0-9.]*\] faster$' "$T/out"
check "…the sentence: verdict, ratio, interval and noise floor" \
	grep -q "^Mesa $V against the distribution's Mesa: faster, [0-9.]*x (95 % interval [0-9.]*x-[0-9.]*x, noise floor 3 %; $CMD, [0-9]* rounds, geometric mean of 1 figure)$" "$T/out"
run_cmd ctl mesa status
check "status gives the last verdict with its interval" \
	grep -q "^its last benchmark: faster, [0-9.]*x the distribution's Mesa (95 % interval [0-9.]*x-[0-9.]*x; $CMD, [0-9]* rounds; \`tb323fu-ctl --store $STORE mesa bench\` measures again)$" "$T/out"
check "…never a bare ratio" sh -c "! grep -q 'its last benchmark: [0-9]' '$T/out'"
run_cmd ctl mesa list --json
check "list --json: the version's bench with its verdict and interval" \
	test "$(json_strict "$T/out" '[(v["bench"]["verdict"], len(v["bench"]["interval"]), v["bench"]["rounds_needed"]) for v in d["versions"]]')" = "[('faster', 2, None)]"

# --- 0.5x: slower, as JSON ---------------------------------------------------------------------
bench_json "$T/slow.json" 7 100 200
check "0.5x: slower, its whole interval below 1/1.03" \
	test "$(json_strict "$T/slow.json" 'd["verdict"], d["interval"][1] < 1 / 1.03, d["rounds_needed"]')" = "('slower', True, None)"

# --- too few rounds for an interval: unclear, in the text and the JSON -------------------------
CMD=$(figures 7 200 100)
expect_exit 0 "bench --rounds 3" ctl --json mesa bench --rounds 3 --command "$CMD"
check "…no interval, and the verdict is unclear, naming the rounds it would need" \
	test "$(json_strict "$T/out" 'd["interval"], d["verdict"], d["figures"][0]["interval"], d["figures"][0]["verdict"], d["rounds_needed"] >= 6')" = "(None, 'unclear', None, 'unclear', True)"
check "…the sentence says unclear, that it cannot tell and what to do" \
	test "$(json_strict "$T/out" 'd["message"]')" = "Mesa $V against the distribution's Mesa: unclear, $(json_strict "$T/out" '"%.2f" % d["ratio"]')x, but 3 rounds give no 95 % interval; the spread seen would need about $(json_strict "$T/out" 'd["rounds_needed"]') rounds to tell: run it again with --rounds $(json_strict "$T/out" 'd["rounds_needed"]') ($CMD, 3 rounds, geometric mean of 1 figure)"
expect_exit 0 "…and as text" ctl mesa bench --rounds 3 --command "$(figures 7 200 100)"
check "…the table says unclear too" grep -q '^Throughput \[GB/s\] .* [0-9.]*x unclear (too few rounds)$' "$T/out"
run_cmd ctl mesa status
check "…and status says unclear, without an interval" \
	grep -q "^its last benchmark: unclear, [0-9.]*x the distribution's Mesa from 3 rounds, too few for a 95 % interval (" "$T/out"

# --- the full tier: 20 seeded benches of each kind through the command ---------------------------
if [ "$TB_TIER" = full ]; then
	# verdicts STORE_MEDIAN DISTRIBUTION_MEDIAN: the whole's verdict of 20 bench runs (default
	# rounds), seeds 1 to 20, one a line, in $T/verdicts; the JSON of each in $T/bench.<seed>.
	verdicts() {
		: >"$T/verdicts"
		for seed in $(seq 1 20); do
			bench_json "$T/bench.$seed" "$seed" "$1" "$2"
			json_strict "$T/bench.$seed" 'd["verdict"]' >>"$T/verdicts" 2>&1 || echo "no answer" >>"$T/verdicts"
		done
	}
	count() { grep -cx "$1" "$T/verdicts"; }
	verdicts 100 100
	check "full: the same distribution: unclear in at least 19 of 20 runs, never same ($(sort "$T/verdicts" | uniq -c | tr -s ' \n' ' '))" \
		test "$(count unclear)" -ge 19 -a "$(count same)" -eq 0
	check "full: …each with an interval [low, high] around its ratio, and the figure's the same" \
		test "$(for s in $(seq 1 20); do interval_holds "$T/bench.$s"; done | sort -u)" = True
	verdicts 200 100
	check "full: 2x apart: faster in 20 of 20 runs ($(count faster) faster)" test "$(count faster)" -eq 20
	verdicts 100 200
	check "full: 0.5x: slower in 20 of 20 runs ($(count slower) slower)" test "$(count slower)" -eq 20
fi
done_testing
