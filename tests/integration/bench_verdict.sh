#!/bin/sh
# bench's verdict is what the statistics allow (docs/design.md §10): a figure whose noise comes
# from a seeded source (tests/tools/noisy-figure, lognormal with sigma 0.1, drawn before the
# runs, so no outcome depends on this machine's speed) with the same distribution on both sides is "same" in at
# least 19 of 20 runs; 2x apart it is "faster" in 20 of 20, and 0.5x "slower"; the interval
# holds the ratio; fewer rounds than a 95 % interval needs say so; --command's figures stand
# alone (no smoke figure beside them); status gives the verdict with its interval.
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
# figures SEED STORE_MEDIAN DISTRIBUTION_MEDIAN: the bench command over freshly drawn figures
figures() {
	rm -f "$T/state"
	python3 "$TB_TOP/tests/tools/noisy-figure" "$1" "$2" "$3" 0.1 2000 >"$T/figures.$1"
	echo "$T/next-figure $T/state $T/figures.$1"
}

# verdicts STORE_MEDIAN DISTRIBUTION_MEDIAN: the whole's verdict of 20 bench runs (default
# rounds), seeds 1 to 20, one a line, in $T/verdicts; the JSON of each in $T/bench.<seed>.
verdicts() {
	: >"$T/verdicts"
	for seed in $(seq 1 20); do
		"$CTL" --store "$STORE" --json mesa bench --command "$(figures "$seed" "$1" "$2")" \
			>"$T/bench.$seed" 2>"$T/err.$seed"
		json_strict "$T/bench.$seed" 'd["verdict"]' >>"$T/verdicts" 2>&1 || echo "no answer" >>"$T/verdicts"
	done
}
count() { grep -cx "$1" "$T/verdicts"; }

verdicts 100 100
check "the same distribution on both sides: same in at least 19 of 20 runs ($(count same) same: $(sort "$T/verdicts" | uniq -c | tr -s ' \n' ' '))" \
	test "$(count same)" -ge 19
check "…each with an interval [low, high] around its ratio, and the figure's the same" \
	test "$(for s in $(seq 1 20); do json_strict "$T/bench.$s" '
all(len(o["interval"]) == 2 and o["interval"][0] <= o["ratio"] <= o["interval"][1] and o["verdict"] in ("same", "faster", "slower")
    for o in [d] + d["figures"])'; done | sort -u)" = True
check "…--command's figure stands alone: no smoke figure beside it" \
	test "$(json_strict "$T/bench.1" '[f["name"] for f in d["figures"]], d["figures_in_whole"]')" = "(['Throughput'], 1)"
ROUNDS=$(json_strict "$T/bench.1" 'd["rounds"]')
check "…the rounds are the default the help names ($ROUNDS)" sh -c \
	"'$CTL' mesa help bench | grep -q -- '--rounds N .*(default $ROUNDS:'"

verdicts 200 100
check "2x apart: faster in 20 of 20 runs ($(count faster) faster)" test "$(count faster)" -eq 20
verdicts 100 200
check "0.5x: slower in 20 of 20 runs ($(count slower) slower)" test "$(count slower)" -eq 20

# the text: median, spread, ratio with its interval and the verdict
CMD=$(figures 7 200 100)
expect_exit 0 "bench --command, as text" ctl mesa bench --command "$CMD"
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
	test "$(json_strict "$T/out" '[(v["bench"]["verdict"], len(v["bench"]["interval"])) for v in d["versions"]]')" = "[('faster', 2)]"

# fewer rounds than a 95 % interval needs: no interval, and the sentence says why
CMD=$(figures 7 200 100)
expect_exit 0 "bench --rounds 5" ctl --json mesa bench --rounds 5 --command "$CMD"
check "…no interval, and the verdict is same (nothing shown)" \
	test "$(json_strict "$T/out" 'd["interval"], d["verdict"], d["figures"][0]["interval"]')" = "(None, 'same', None)"
check "…the sentence says it cannot tell and what to do" \
	test "$(json_strict "$T/out" 'd["message"]')" = "Mesa $V against the distribution's Mesa: $(json_strict "$T/out" '"%.2f" % d["ratio"]')x, but 5 rounds cannot tell faster from slower; run it again with --rounds 6 or more for a 95 % interval ($CMD, 5 rounds, geometric mean of 1 figure)"
run_cmd ctl mesa status
check "…and status says so, without a verdict" \
	grep -q "^its last benchmark: [0-9.]*x the distribution's Mesa from 5 rounds, too few to tell faster from slower (" "$T/out"
done_testing
