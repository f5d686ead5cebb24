#!/bin/sh
# CTS releases in the store (docs/design.md §13): `mesa cts update|install-local|list|remove`
# take a release of the conformance suites' binaries through the pipeline Mesa's releases go
# through, from a fake GitHub on 127.0.0.1 with signatures required, into cts/; the suites then
# use its binaries without --deqp, --cts, deqp_dir or cts_dir, and dEQP-VK takes its cases
# from the case lists the release ships (the binary is never asked to list them). A damaged,
# unsigned, wrongly signed or foreign-architecture CTS release is refused with the reasons and
# exit codes of a Mesa release, and leaves the store as it was.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"

arch=$(uname -m)
M=2026.11.01
C1=2026.12.01
C2=2026.12.02
LVP=$(standin $M) && CTS1=$(cts_stand_in "$T/c1" $C1) && CTS2=$(cts_stand_in "$T/c2" $C2) &&
	FOREIGN=$(cts_stand_in "$T/cf" 2026.12.09 "$([ "$arch" = aarch64 ] && echo x86_64 || echo aarch64)") || {
	not_ok "a Mesa stand-in and CTS stand-ins"
	done_testing
	exit 1
}

WWW="$T/www"
mkdir -p "$WWW" "$T/keys"
: >"$T/token"
minisign -G -W -p "$T/keys/release.pub" -s "$T/release.key" >/dev/null </dev/null
K="$T/release.key"
start_httpd "$WWW" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="http://127.0.0.1:$PORT"
python3 "$TB_TOP/tests/doubles/fake-github" "$WWW" "$API" <<EOF
cts-2026.11.25 sign=$K,flip-byte $CTS2
cts-2026.11.26 - $CTS2
cts-2026.11.27 sign=$K,comment=tag:mesa-2026.11.27 $CTS2
cts-$C2 prerelease,sign=$K $CTS2
cts-$C1 sign=$K $CTS1
mesa-$M sign=$K $LVP
EOF
net_config "smoke = off"
grep -v "^keys_dir" "$TB323FU_MESA_CONFIG" >"$T/unsigned.conf" # tarballs on disk here come unsigned: no keys
echo "require_signature = true" >>"$TB323FU_MESA_CONFIG"
unsigned() { env TB323FU_MESA_CONFIG="$T/unsigned.conf" "$CTL" --store "$STORE" "$@"; }
cts_said() { json 'd["message"]' <"$T/out"; }

# --- update from the release source ------------------------------------------------------------
expect_exit 0 "cts update installs the channel's newest CTS (stable: $C1, not the pre-release)" ctl --json mesa cts update
check "…its version and contents in the JSON" \
	test "$(json 'd["version"], d["updated"], d["cts"]["deqp_vk"], d["cts"]["opencl_binaries"]' <"$T/out")" = "('$C1', True, True, 2)"
check "…the sentence says it and what the suites do with it" \
	sh -c "grep -q 'CTS $C1 downloaded, checked and installed: dEQP-VK and 2 OpenCL-CTS binaries' '$T/out' &&
		grep -q 'smoke --suite dEQP-VK and opencl-cts use it' '$T/out'"
check "…kept in cts/$C1, cts/current points at it, nothing in versions/" \
	sh -c "test -f '$STORE/cts/$C1/MANIFEST' && test \"\$(readlink '$STORE/cts/current')\" = $C1 &&
		test -z \"\$(ls -A '$STORE/versions')\""
check "…no env or ICD files of its own" sh -c "! ls '$STORE/env' '$STORE/icd/versions' 2>/dev/null | grep -q $C1"
expect_exit 0 "cts update again" ctl --json mesa cts update
check "…is up to date and changes nothing" \
	test "$(json 'd["updated"], d["version"]' <"$T/out")" = "(False, '$C1')"
expect_exit 0 "status --json" ctl --json mesa status
check "…cts names it" test "$(json 'd["cts"]' <"$T/out")" = "$C1"
expect_exit 0 "status for people" ctl mesa status
check "…names it and what it carries" grep -q "CTS $C1: dEQP-VK and 2 OpenCL-CTS binaries" "$T/out"
expect_exit 0 "cts list --json" ctl --json mesa cts list
check "…the installed one, current, and the offered ones from the list fetched" \
	test "$(json '[(i["version"], i["current"]) for i in d["installed"]], d["current"], [a["version"] for a in d["available"]]' <"$T/out")" = \
	"([('$C1', True)], '$C1', ['$C2', '$C1', '2026.11.27', '2026.11.26', '2026.11.25'])"
expect_exit 0 "doctor" ctl --json mesa doctor
check "…names the CTS, no problem" \
	test "$(json 'd["cts"]["version"], d["problems"]' <"$T/out")" = "('$C1', [])"

# --- a dropped connection, then the next update resumes the download --------------------------
ctsball=/download/cts-$C2/tb323fu-cts-$C2-$arch.tar.gz
fault "$ctsball" drop
expect_exit 5 "cts update --to $C2 on a connection dropped halfway: exit 5" ctl --json mesa cts update --to $C2
reason_is network
check "…says it broke off and that the command run again resumes" grep -q "broke off during .*; run the command again, a download resumes where it stopped" "$T/out"
check "…the partial download is kept, $C1 still current" \
	sh -c "test -s '$STORE/cache/tb323fu-cts-$C2-$arch.tar.gz.part' && test \"\$(readlink '$STORE/cts/current')\" = $C1"
no_faults
expect_exit 0 "the same command again" ctl --json mesa cts update --to $C2
check "…resumed where the download broke off" \
	sh -c "test \"\$(python3 -c 'import json,sys; print(json.load(sys.stdin)[\"resumed_from\"])' <'$T/out')\" -gt 0 &&
		grep -q 'GET $ctsball range=bytes=[1-9][0-9]*- .* -> 206' '$WWW/.log'"
expect_exit 0 "cts update --to $C1 puts $C1 back" ctl --json mesa cts update --to $C1

# --- a damaged tree is found, and update puts it right ---------------------------------------
echo changed >>"$STORE/cts/$C1/lib/deqp-vk/caselists/info.txt"
expect_exit 1 "doctor sees the changed file" ctl --json mesa doctor
json '" ".join(d["problems"])' <"$T/out" >"$T/problems"
check "…names it and the command that repairs it" \
	grep -q "CTS $C1 is damaged: lib/deqp-vk/caselists/info.txt (content changed); install it again with .tb323fu-ctl --store $STORE mesa cts update --to $C1." "$T/problems"
expect_exit 0 "cts update --to $C1 repairs it" ctl --json mesa cts update --to $C1
check "…whole again" ctl mesa cts update

# --- the suites use it without being told where -------------------------------------------------
# After an install first: smoke_suite = dEQP-VK with no deqp_dir, as on a tablet that ran
# cts update once.
export FAKE_CTS_RECORD="$T/cts-record" FAKE_DEQP_RECORD="$T/deqp-record"
{ grep -v '^smoke = ' "$T/unsigned.conf" && printf 'smoke = on\nsmoke_suite = dEQP-VK\ndeqp_groups = api.smoke\n'; } >"$T/suite.conf"
expect_exit 0 "install-local the Mesa stand-in with smoke_suite = dEQP-VK and no deqp_dir" \
	env TB323FU_MESA_CONFIG="$T/suite.conf" "$CTL" --store "$STORE" --json mesa install-local "$LVP"
check "…the shipped api.smoke cases ran from the CTS in the store" grep -q "^cwd=$STORE/cts/$C1/lib/deqp-vk " "$T/deqp-record"
check "…and $M is current" test "$(ctl mesa status --json | json 'd["installed"]')" = $M
: >"$T/deqp-record"
expect_exit 0 "smoke --suite opencl-cts with no --cts and no cts_dir" \
	ctl --json mesa smoke $M --suite opencl-cts --tests basic --subtests '^basic/pass_(a|b)$'
check "…ran the CTS's test_basic on both sides" \
	test "$(json '[(t["name"], t["store"], t["distribution"]) for t in d["results"]]' <"$T/out")" = \
	"[('basic/pass_a', 'pass', 'pass'), ('basic/pass_b', 'pass', 'pass')]"
check "…from the store's cts/" grep -q "^store all test_basic -w pass_a pass_b" "$T/cts-record"
expect_exit 0 "smoke --suite dEQP-VK with no --deqp and no deqp_dir" \
	ctl --json mesa smoke $M --suite dEQP-VK --groups api.smoke
check "…the six cases of the shipped api.smoke list on both sides (the binary lists nothing: no case file beside it there)" \
	test "$(json 'd["tests"], d["regressions"]' <"$T/out")" = "(6, [])"
check "…run in the release's folder" grep -q "^cwd=$STORE/cts/$C1/lib/deqp-vk " "$T/deqp-record"
expect_exit 1 "a group the release ships no list of is listed by the binary, which cannot here" \
	ctl --json mesa smoke $M --suite dEQP-VK --groups compute
unset FAKE_CTS_RECORD FAKE_DEQP_RECORD

# --- refusals: the reasons and exit codes of a Mesa release, the store as it was ---------------
before=$(store_digest "$STORE")
expect_exit 4 "a tarball altered on the way" ctl --json mesa cts update --to 2026.11.25
reason_is hash-mismatch
check "…the sentence names the command that fetches it again" grep -q "download it again (tb323fu-ctl --store $STORE mesa cts update --to 2026.11.25)" "$T/out"
expect_exit 4 "an unsigned CTS release where signatures are required" ctl --json mesa cts update --to 2026.11.26
reason_is signature-missing
expect_exit 4 "a signature made for Mesa's release of the same version" ctl --json mesa cts update --to 2026.11.27
reason_is tag-mismatch
expect_exit 4 "a CTS release built for another architecture" unsigned --json mesa cts install-local "$FOREIGN"
reason_is arch-mismatch
expect_exit 4 "a Mesa release given to cts install-local" unsigned --json mesa cts install-local "$LVP" --sums "$(dirname "$LVP")/SHA256SUMS"
reason_is manifest-invalid
check "…says which kind it is and what takes it" grep -q "it is a Mesa release, not a CTS release; nothing was changed: install it with .tb323fu-ctl --store $STORE mesa install-local FILE." "$T/out"
expect_exit 4 "a CTS release given to install-local" unsigned --json mesa install-local "$CTS2" --no-smoke
reason_is manifest-invalid
check "…says so and names cts install-local" grep -q "it is a CTS release, not a Mesa release; nothing was changed: install it with .tb323fu-ctl --store $STORE mesa cts install-local FILE." "$T/out"
check "the refusals left the store as it was (no tree, no staging, current unchanged; last-operation says the refusal)" \
	test "$(store_digest "$STORE" | grep -v ' ./last-operation$')" = "$(echo "$before" | grep -v ' ./last-operation$')"
check "…and nothing of them in cts/" test "$(ls -A "$STORE/cts")" = "$(printf '%s\n' $C1 current)"

# --- a kill at each point leaves one CTS or the other, and the next install finishes ----------
for point in unpacked placed cts-current; do
	if paused $point env TB323FU_MESA_CONFIG="$T/unsigned.conf" "$CTL" --store "$STORE" mesa cts install-local "$CTS2"; then ok "cts install-local of $C2 stopped at $point"; else
		not_ok "cts install-local of $C2 stopped at $point"; fi
	kill_paused
	check "…killed there, the suites still have a whole CTS (current: $(readlink "$STORE/cts/current"))" \
		sh -c "test -f '$STORE/cts/'\$(readlink '$STORE/cts/current')/MANIFEST"
	expect_exit 0 "…cts list reads it" ctl mesa cts list
	expect_exit 0 "…the next cts install-local of $C1 finishes" unsigned --json mesa cts install-local "$CTS1"
	check "…$C1 current, nothing else left in cts/" test "$(ls -A "$STORE/cts" | tr '\n' ' ')" = "$C1 current "
done

# --- install-local of another version replaces it; remove ----------------------------------------
expect_exit 0 "cts install-local of $C2" unsigned --json mesa cts install-local "$CTS2"
check "…is the one the suites use, and $C1 is gone" \
	test "$(json 'd["version"], d["removed"]' <"$T/out") $(readlink "$STORE/cts/current")" = "('$C2', ['$C1']) $C2"
check "…the sentence says $C1 went" grep -q "removed CTS $C1" "$T/out"
expect_exit 1 "cts remove of a version not installed" ctl --json mesa cts remove $C1
reason_is not-installed
expect_exit 0 "cts remove" ctl --json mesa cts remove
check "…the tree and the link are gone" sh -c "test ! -e '$STORE/cts/$C2' && test ! -L '$STORE/cts/current'"
expect_exit 0 "status after it" ctl --json mesa status
check "…cts is empty" test "$(json 'd["cts"]' <"$T/out")" = ""
expect_exit 1 "smoke --suite opencl-cts with no CTS anywhere" \
	env TB_CACHE="$T/no-cache" "$CTL" --store "$STORE" --json mesa smoke $M --suite opencl-cts --tests basic
check "…says where it looked and that cts update installs it" \
	grep -q "no OpenCL-CTS binary test_basic in $T/no-cache/opencl-cts/$arch; install the CTS release (.tb323fu-ctl --store $STORE mesa cts update.)" "$T/out"

stop_httpd
done_testing
