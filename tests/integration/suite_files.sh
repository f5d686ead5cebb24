#!/bin/sh
# What the suites read and list, as others could leave it (docs/design.md §10): an expected-
# failures file or a case list that is a FIFO is refused at once (never waited on: no writer
# ever opens it), naming it and what to give instead; an OpenCL-CTS binary whose --list names
# its sub-tests and then never ends is stopped at the listing's time bound (here set to 1 s
# through $TB323FU_MESA_SMOKE_TIMEOUT) and refused, saying how many it named and how the bound
# is set. Each refusal leaves the store as it was (its digest). A guard of 120 s around each
# command only turns a hang into a failure of this test; nothing waits for it to pass.
. "$TB_TOP/tests/lib.sh"

V1=2026.06.11
R1=$(standin $V1) || { not_ok "stand-in release"; done_testing; exit 1; }
expect_exit 0 "install-local $V1" ctl mesa install-local "$R1" --sums "$(dirname "$R1")/SHA256SUMS" --no-smoke
FAKE=$TB_TOP/tests/doubles/fake-deqp-vk
export FAKE_DEQP_RECORD="$T/record" FAKE_DEQP_STATE="$T/state" FAKE_CTS_RECORD="$T/record"
mkdir -p "$T/state"
guard() { timeout -k 5 120 "$@"; }
# the store but for last-operation, the sentence of the last command that every command keeps (§9)
digest() { store_digest | grep -v ' ./last-operation$'; }

# --- an expected-failures file that is a FIFO ---
mkdir -p "$T/conf/expected-fails/$V1"
mkfifo "$T/conf/expected-fails/$V1/dEQP-VK.txt"
: >"$T/conf/mesa.conf"
digest >"$T/before"
TB323FU_MESA_CONFIG="$T/conf/mesa.conf" expect_exit 1 "smoke --suite dEQP-VK with the expected failures a FIFO: refused, not waited on" \
	guard "$CTL" --store "$STORE" --json mesa smoke $V1 --suite dEQP-VK --deqp "$FAKE" --groups compute --jobs 1
reason_is config-invalid
check "…naming the file and what to do" \
	test "$(json_strict "$T/out" '"the expected failures '"$T"'/conf/expected-fails/'"$V1"'/dEQP-VK.txt is not a regular file (a FIFO, a device or a folder); replace it with a file of CASE,STATUS lines or remove it" in d["message"]')" = True
digest >"$T/after"
check "…the store is as it was" cmp -s "$T/before" "$T/after"
rm "$T/conf/expected-fails/$V1/dEQP-VK.txt"

# --- a case list that is a FIFO ---
mkfifo "$T/cases.fifo"
expect_exit 2 "smoke --suite dEQP-VK --caselist FIFO: refused, not waited on" \
	guard "$CTL" --store "$STORE" --json mesa smoke $V1 --suite dEQP-VK --deqp "$FAKE" --caselist "$T/cases.fifo" --jobs 1
reason_is usage
check "…naming the file and what to give" \
	test "$(json_strict "$T/out" '"the case list '"$T"'/cases.fifo is not a regular file (a FIFO, a device or a folder); give a file of dEQP-VK case names, one a line" in d["message"]')" = True
digest >"$T/after"
check "…the store is as it was" cmp -s "$T/before" "$T/after"

# --- an OpenCL-CTS binary whose --list never ends ---
mkdir -p "$T/cts"
chmod 0755 "$T/cts"
cat >"$T/cts/test_endless" <<'EOF'
#!/bin/sh
# names two sub-tests and then never ends
if [ "${1:-}" = --list ]; then
	printf '\t%s\n' pass_a pass_b
	exec sleep 86400
fi
exit 1
EOF
chmod 0755 "$T/cts/test_endless"
: >"$T/record"
TB323FU_MESA_SMOKE_TIMEOUT=1 expect_exit 1 "smoke --suite opencl-cts with a binary whose --list never ends: stopped and refused" \
	guard "$CTL" --store "$STORE" --json mesa smoke $V1 --suite opencl-cts --cts "$T/cts" --tests endless
reason_is program-failed
check "…saying the bound, and how it is set" \
	test "$(json_strict "$T/out" '"'"$T"'/cts/test_endless --list did not end within 1 s (named " in d["message"] and "$TB323FU_MESA_SMOKE_TIMEOUT sets the bound" in d["message"]')" = True
check "…no sub-test ran" test ! -s "$T/record"
check "…and the lister is gone" sh -c "! pgrep -f '$T/cts/test_endles[s]' >/dev/null"
digest >"$T/after"
check "…the store is as it was" cmp -s "$T/before" "$T/after"

done_testing
