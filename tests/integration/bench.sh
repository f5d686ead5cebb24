#!/bin/sh
# `bench` on a stand-in release: a command run through `run` and `distro` alternately, round after
# round, its "label : number unit" lines compared figure by figure (medians, spread, ratio),
# plus the smoke program's Vulkan throughput; the last result shows in list and status.
. "$TB_TOP/tests/lib.sh"

V=2026.08.01
R=$(standin $V) || { not_ok "stand-in release"; done_testing; exit 1; }
json() { json_strict - "$1"; }
expect_exit 0 "install-local $V" ctl mesa install-local "$R" --sums "$(dirname "$R")/SHA256SUMS" --no-smoke

# A cheap benchmark in clpeak's format: twice the bandwidth and half the latency under the
# store's OpenCL; each run appends its side to a record.
cat >"$T/fake-bench" <<EOF2
#!/bin/sh
if [ -n "\${OCL_ICD_VENDORS:-}" ]; then side=store bw=20 lat=4; else side=distro bw=10 lat=8; fi
echo "\$side RUSTICL_ENABLE=\${RUSTICL_ENABLE:-}" >>"$T/record"
echo "Platform: rusticl"
echo "  Device: llvmpipe"
echo "    Driver version  : 1.2.3 (Linux x64)"
echo "    Compute units   : 8"
echo "    Clock frequency : 1000 MHz"
echo ""
echo "    Global memory bandwidth (GBPS)"
echo "      float   : \$bw"
echo "      float2  : \$bw.5"
echo ""
echo "    Kernel launch latency : \$lat us"
EOF2
chmod 755 "$T/fake-bench"

expect_exit 0 "bench --rounds 3 exits 0" ctl mesa bench $V --rounds 3 --command "$T/fake-bench"
check "a table with both columns" \
	sh -c "head -n 1 '$T/out' | grep -q '^figure  *store  *distribution  *ratio'"
check "bandwidth: medians with their spread, and the ratio" \
	grep -q '^Global memory bandwidth (GBPS) / float \[GBPS\]  *20.00 (20.00-20.00)  *10.00 (10.00-10.00)  *2.00x' "$T/out"
check "a latency halved is a ratio of 2 too" grep -q '^Kernel launch latency \[us\]  *4.00 .* 8.00 .* 2.00x' "$T/out"
check "the Vulkan line comes from the smoke program" \
	grep -q '^Vulkan compute (smoke vk.compute) \[GB/s\]  *[0-9.]* ([0-9.-]*)  *[0-9.]* ([0-9.-]*)  *\([0-9.]*x\|-\)$' "$T/out"
check "the driver's version is not a figure" sh -c "! grep -q 'Driver version' '$T/out'"
check "the sentence gives the overall ratio" grep -q "^Mesa $V against the distribution's Mesa: [0-9.]*x ($T/fake-bench, the median of 3 rounds, geometric mean of 4 figures)" "$T/out"
check "three rounds, the sides alternating, the distribution's with RUSTICL_ENABLE" \
	test "$(tr '\n' ' ' <"$T/record")" = \
	"store RUSTICL_ENABLE=llvmpipe distro RUSTICL_ENABLE=llvmpipe distro RUSTICL_ENABLE=llvmpipe store RUSTICL_ENABLE=llvmpipe store RUSTICL_ENABLE=llvmpipe distro RUSTICL_ENABLE=llvmpipe "

expect_exit 0 "bench --json" ctl mesa bench --rounds 2 --command "$T/fake-bench" --json
check "--json: figures with both sides, the medians and the rounds' values" \
	test "$(json '[(f["name"], f["store"]["median"], f["distribution"]["values"], f["ratio"]) for f in d["figures"][:2]]' <"$T/out")" = \
	"[('Global memory bandwidth (GBPS) / float', 20.0, [10.0, 10.0], 2.0), ('Global memory bandwidth (GBPS) / float2', 20.5, [10.5, 10.5], 1.9523809523809523)]"
check "--json: command, rounds, overall ratio" \
	test "$(json 'd["ok"], d["version"], d["rounds"], d["command"] == "'"$T/fake-bench"'", d["ratio"] > 1' <"$T/out")" = "(True, '$V', 2, True, True)"
check "list shows the last bench of the version" \
	test "$(ctl mesa list --json | json '[(v["bench"]["command"] == "'"$T/fake-bench"'", v["bench"]["rounds"], round(v["bench"]["ratio"], 2) > 1) for v in d["versions"]]')" = "[(True, 2, True)]"
check "status says it" sh -c "'$CTL' --store '$STORE' mesa status | grep -q \"its last benchmark: [0-9.]*x the distribution's Mesa\""
check "smoke/$V.json keeps it beside the smoke result" test "$(json 'sorted(d)' <"$STORE/smoke/$V.json")" = "['bench', 'version']"
expect_exit 0 "the smoke tests keep the bench result" ctl mesa smoke $V
check "…in smoke/$V.json" test "$(json '"bench" in d, d["passed"]' <"$STORE/smoke/$V.json")" = "(True, 6)"

printf '#!/bin/sh\necho "no figures here"\n' >"$T/silent"
chmod 755 "$T/silent"
expect_exit 1 "a command without figures" ctl mesa bench --rounds 1 --command "$T/silent"
check "…says what it looks for" grep -q 'printed no figure both sides share' "$T/err"
expect_exit 1 "a command that fails" ctl mesa bench --rounds 1 --command "exit 3"
check "…names the side and the status" grep -q "exit 3 failed on the .* side (exit status 3)" "$T/err"
expect_exit 2 "--rounds 0" ctl mesa bench --rounds 0

# A benchmark whose figures are 0 on one side (ratios of 0/0 and x/0) and whose names are not
# UTF-8 and carry an 8-bit CSI: the JSON stays strict, and so does the table.
cat >"$T/zero-bench" <<EOF2
#!/bin/sh
if [ -n "\${OCL_ICD_VENDORS:-}" ]; then bw=0 lat=0; else bw=0 lat=8; fi
printf '    Band\\377width (GBPS)\\n      float\\23331m   : %s\\n' "\$bw"
echo "    Kernel launch latency : \$lat us"
EOF2
chmod 755 "$T/zero-bench"
run_cmd "$CTL" --store "$STORE" mesa bench --rounds 1 --command "$T/zero-bench" --json
check "ratios of 0/0 and 8/0: bench --json is strict JSON" json_strict "$T/out"
check "…with null for those ratios" test "$(json_strict "$T/out" '[f["ratio"] for f in d["figures"][:2]]')" = "[None, None]"
run_cmd "$CTL" --store "$STORE" mesa list --json
check "…list --json too" json_strict "$T/out"
run_cmd "$CTL" --store "$STORE" mesa status --json
check "…status --json too" json_strict "$T/out"
run_cmd "$CTL" --store "$STORE" mesa bench --rounds 1 --command "$T/zero-bench"
check "…the table holds no control byte and no byte that is not UTF-8" python3 -c '
import sys
t = open(sys.argv[1], "rb").read().decode("utf-8")
sys.exit(any(0x80 <= ord(c) <= 0x9f or (ord(c) < 0x20 and c != "\n") for c in t))' "$T/out"
check "…and no ratio of inf or nan" sh -c "! grep -qi 'infx\|nanx' '$T/out'"
done_testing
