#!/bin/sh
# `bench` on a stand-in release with doubles of the benchmark, for what the real clpeak
# (bench_clpeak.sh) cannot show: a command run through `run` and `distro` alternately, round
# after round, its "label : number unit" lines compared figure by figure (medians, spread,
# ratio with its interval and verdict), the smoke program's Vulkan throughput beside clpeak
# only; each side sees one OpenCL vendor and one Vulkan ICD; a clpeak that writes its XML and
# then fails; the last result shows in list and status. bench_verdict.sh checks the verdicts
# over seeded noise.
. "$TB_TOP/tests/lib.sh"

V=2026.08.01
R=$(standin $V) || { not_ok "stand-in release"; done_testing; exit 1; }
expect_exit 0 "install-local $V" ctl mesa install-local "$R" --sums "$(dirname "$R")/SHA256SUMS" --no-smoke

# A cheap benchmark in clpeak's format: twice the bandwidth and half the latency under the
# store's OpenCL; each run appends its side to a record.
cat >"$T/fake-bench" <<EOF2
#!/bin/sh
case \${OCL_ICD_VENDORS:-} in */icd/versions/*) side=store bw=20 lat=4 ;; *) side=distro bw=10 lat=8 ;; esac
echo "\$side RUSTICL_ENABLE=\${RUSTICL_ENABLE:-}" >>"$T/record"
echo "\$side OCL_ICD_VENDORS=\${OCL_ICD_VENDORS:-} VK_DRIVER_FILES=\${VK_DRIVER_FILES:-}" >>"$T/drivers"
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
	sh -c "head -n 1 '$T/out' | grep -q '^figure  *store median (range)  *distribution  *ratio \[95 % interval\] verdict$'"
check "bandwidth: medians with their spread, and the ratio" \
	grep -q '^Global memory bandwidth / float \[GBPS\]  *20.00 (20.00-20.00)  *10.00 (10.00-10.00)  *2.00x' "$T/out"
check "a latency halved is a ratio of 2 too" grep -q '^Kernel launch latency \[us\]  *4.00 .* 8.00 .* 2.00x' "$T/out"
check "--command's figures stand alone: no line of the smoke program" sh -c "! grep -q 'smoke vk.compute' '$T/out'"
check "the driver's version is not a figure" sh -c "! grep -q 'Driver version' '$T/out'"
check "three rounds give no interval: the sentence says unclear and what to do" grep -q "^Mesa $V against the distribution's Mesa: unclear, 1.98x, but 3 rounds give no 95 % interval; the spread seen would need about 6 rounds to tell: run it again with --rounds 6 ($T/fake-bench, 3 rounds, geometric mean of 3 figures)$" "$T/out"
VENDOR=$(grep -l 'libRusticlOpenCL' /etc/OpenCL/vendors/*.icd | head -n 1)
# the system's lavapipe ICD: named for this machine on Debian 12 (lvp_icd.x86_64.json), one
# file for all on Debian 13 (lvp_icd.json); bench prefers the first
LVP_ICD=$(ls /usr/share/vulkan/icd.d/lvp_icd.*"$(uname -m)"*.json 2>/dev/null || ls /usr/share/vulkan/icd.d/lvp_icd.json)
check "each side saw one OpenCL vendor and one Vulkan ICD: the store's, and the system's of the same drivers" \
	test "$(sort -u "$T/drivers" | tr '\n' ' ')" = \
	"distro OCL_ICD_VENDORS=$VENDOR VK_DRIVER_FILES=$LVP_ICD store OCL_ICD_VENDORS=$STORE/icd/versions/$V/opencl/rusticl.icd VK_DRIVER_FILES=$STORE/icd/versions/$V/turnip.json "
check "the table names them" grep -qx "distribution: OpenCL $VENDOR, Vulkan $LVP_ICD" "$T/out"
check "three rounds, the sides alternating, the distribution's with the release's RUSTICL_ENABLE" \
	test "$(tr '\n' ' ' <"$T/record")" = \
	"store RUSTICL_ENABLE=llvmpipe distro RUSTICL_ENABLE=llvmpipe distro RUSTICL_ENABLE=llvmpipe store RUSTICL_ENABLE=llvmpipe store RUSTICL_ENABLE=llvmpipe distro RUSTICL_ENABLE=llvmpipe "

expect_exit 0 "bench --json" ctl mesa bench --rounds 6 --command "$T/fake-bench" --json
check "--json: figures with both sides, the medians, the rounds' values, the ratio with its interval and verdict" \
	test "$(json '[(f["name"], f["store"]["median"], f["distribution"]["values"], round(f["ratio"], 6), [round(x, 6) for x in f["interval"]], f["verdict"], f["rounds_compared"]) for f in d["figures"][:2]]' <"$T/out")" = \
	"[('Global memory bandwidth / float', 20.0, [10.0, 10.0, 10.0, 10.0, 10.0, 10.0], 2.0, [2.0, 2.0], 'faster', 6), ('Global memory bandwidth / float2', 20.5, [10.5, 10.5, 10.5, 10.5, 10.5, 10.5], 1.952381, [1.952381, 1.952381], 'faster', 6)]"
check "--json: command, rounds, the whole's ratio, interval and verdict" \
	test "$(json 'd["ok"], d["version"], d["rounds"], d["command"] == "'"$T/fake-bench"'", round(d["ratio"], 2), d["verdict"], d["figures_in_whole"]' <"$T/out")" = "(True, '$V', 6, True, 1.98, 'faster', 3)"
check "list shows the last bench of the version" \
	test "$(ctl mesa list --json | json '[(v["bench"]["command"] == "'"$T/fake-bench"'", v["bench"]["rounds"], round(v["bench"]["ratio"], 2), v["bench"]["verdict"]) for v in d["versions"]]')" = "[(True, 6, 1.98, 'faster')]"
check "status says it with its interval" sh -c "'$CTL' --store '$STORE' mesa status | grep -q \"its last benchmark: faster, 1.98x the distribution's Mesa (95 % interval 1.98x-1.98x; $T/fake-bench, 6 rounds;\""
check "smoke/$V.json keeps it beside the smoke result" test "$(json 'sorted(d)' <"$STORE/smoke/$V.json")" = "['bench', 'version']"
expect_exit 0 "the smoke tests keep the bench result" ctl mesa smoke $V
check "…in smoke/$V.json" test "$(json '"bench" in d, d["passed"]' <"$STORE/smoke/$V.json")" = "(True, 8)"

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
case \${OCL_ICD_VENDORS:-} in */icd/versions/*) bw=0 lat=0 ;; *) bw=0 lat=8 ;; esac
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
# one figure with a ratio (store 0 where the distribution's is 0 or 8 is none; a third is 1:2)
cat >"$T/half-bench" <<EOF2
#!/bin/sh
case \${OCL_ICD_VENDORS:-} in */icd/versions/*) bw=0 lat=0 gf=5 ;; *) bw=0 lat=8 gf=10 ;; esac
echo "    Bandwidth (GBPS)"
echo "      float   : \$bw"
echo "    Kernel launch latency : \$lat us"
echo "    Single-precision compute (GFLOPS)"
echo "      float   : \$gf"
EOF2
chmod 755 "$T/half-bench"
run_cmd "$CTL" --store "$STORE" mesa bench --rounds 6 --command "$T/half-bench"
check "the sentence counts only the figures with a ratio (GFLOPS), naming those without, and says slower" \
	grep -q "^Mesa $V against the distribution's Mesa: slower, 0.50x (95 % interval 0.50x-0.50x, noise floor 3 %; $T/half-bench, 6 rounds, geometric mean of 1 figure; 2 without a ratio)$" "$T/out"
check "…the figures without a ratio show none" grep -q '^Kernel launch latency \[us\]  *0.00 (0.00-0.00)  *8.00 (8.00-8.00)  *-$' "$T/out"
expect_exit 2 "--tests with a name clpeak does not have" ctl mesa bench --tests compute-sp,warp-speed
check "…names it" grep -q 'not "warp-speed"' "$T/err"
expect_exit 2 "--tests with --command" ctl mesa bench --tests compute-sp --command true

# --tests vk.compute: the smoke program's real Vulkan figure alone, through both sides; no
# clpeak is started (one in PATH records it), and the result has that one figure, with its
# interval and verdict (what they say is this machine's: not asserted).
mkdir -p "$T/clpeak-bin"
printf '#!/bin/sh\necho ran >>"%s"\n' "$T/clpeak-ran" >"$T/clpeak-bin/clpeak"
chmod 755 "$T/clpeak-bin/clpeak"
run_cmd env PATH="$T/clpeak-bin:$PATH" "$CTL" --store "$STORE" --json mesa bench $V --tests vk.compute --rounds 6
check "bench --tests vk.compute: exit 0, and no clpeak started" sh -c "test $rc = 0 && test ! -e '$T/clpeak-ran'"
check "…one figure, the smoke program's, with an interval and a verdict of 6 rounds on each side" json_strict "$T/out" \
	'[f["name"] for f in d["figures"]] == ["Vulkan compute (smoke vk.compute)"] and len(d["interval"]) == 2 and d["verdict"] in ("faster", "slower", "same", "unclear") and len(d["figures"][0]["store"]["values"]) == 6 and len(d["figures"][0]["distribution"]["values"]) == 6 or exit(1)'
check "…the command named as what ran" json_strict "$T/out" 'd["command"] == "the smoke program'"'"'s vk.compute" or exit(1)'

mkdir "$T/no-vendors"
expect_exit 1 "a distribution without the release's OpenCL driver" \
	env OPENCL_VENDOR_PATH="$T/no-vendors" "$CTL" --store "$STORE" mesa bench --rounds 1 --command "$T/fake-bench"
check "…says what is missing and what to install" \
	grep -q "no OpenCL vendor file in $T/no-vendors names libRusticlOpenCL.so.1.*install mesa-opencl-icd" "$T/err"

# A clpeak double (clpeak's own options, its XML file): on the distribution's side it writes
# its figures and then fails, as clpeak 1.1.2 does on a platform without a device.
mkdir "$T/bin"
cat >"$T/bin/clpeak" <<EOF2
#!/bin/sh
while [ \$# -gt 0 ]; do case \$1 in -f) xml=\$2; shift ;; esac; shift; done
case \${OCL_ICD_VENDORS:-} in */icd/versions/*) gf=300 st=0 ;; *) gf=100 st=255 ;; esac
cat >"\$xml" <<XML
<?xml version="1.0" encoding="utf-8"?>
<clpeak os="Linux x64">
  <platform name="rusticl">
    <device name="llvmpipe" driver_version="1" compute_units="8" clock_frequency="300" clock_frequency_unit="MHz">
      <single_precision_compute unit="gflops">
        <float>\$gf</float>
        <float2>\$gf</float2>
      </single_precision_compute>
      <kernel_launch_latency unit="us">
XML
echo "Platform: Clover" >&2
exit \$st
EOF2
chmod 755 "$T/bin/clpeak"
expect_exit 1 "clpeak's XML: figures, then a failure on the distribution's side" \
	env PATH="$T/bin:$PATH" "$CTL" --store "$STORE" mesa bench --rounds 1
check "…the figures are kept and shown, the unit named once" \
	grep -q '^Single-precision compute / float \[GFLOPS\]  *300.00 (300.00-300.00)  *100.00 (100.00-100.00)  *3.00x unclear (too few rounds)$' "$T/out"
check "…beside clpeak, the Vulkan line comes from the smoke program" \
	grep -q '^Vulkan compute (smoke vk.compute) \[GB/s\]  *[0-9.]* ([0-9.-]*)  *[0-9.]* ([0-9.-]*)  *\([0-9.]*x unclear (too few rounds)\|-\)$' "$T/out"
check "…the status and the side are said" \
	grep -q "clpeak exited with exit status 255 on the distribution's side in round 1 (Platform: Clover), after printing figures (they are kept and shown)" "$T/err"
expect_exit 1 "…and in --json" env PATH="$T/bin:$PATH" "$CTL" --store "$STORE" --json mesa bench --rounds 1
check "…the failure, the figures and the reason" \
	test "$(json 'd["ok"], d["reason"], d["failures"], len(d["figures"]) >= 2' <"$T/out")" = \
	"(False, 'program-failed', [{'side': 'distribution', 'round': 1, 'status': 'exit status 255', 'last_line': 'Platform: Clover'}], True)"
done_testing
