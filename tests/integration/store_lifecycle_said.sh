#!/bin/sh
# Nothing happens without a word: what the pruning after an install removes and why, a
# repair from a tarball (verify --repair --from) that does not switch, a rollback that refuses
# damaged files (and doctor, which looks at previous too), `on` on a store no login reads, and
# the commands the state already answers (already off, already on, already current, no store
# there), which make no store and change nothing; install-local's sentences about what it was
# given; one vocabulary in status's first line and list's columns; remove of current without a
# repair hint.
. "$TB_TOP/tests/lib.sh"

V1=2026.10.06
V2=2026.10.07
V3=2026.10.08
V4=2026.10.09
R1=$(standin $V1) && R2=$(standin $V2) && R3=$(standin $V3) && R4=$(standin $V4) ||
	{ not_ok "stand-in releases"; done_testing; exit 1; }
# said PATTERN: the JSON message in $T/out matches the grep pattern.
said() { json_strict "$T/out" 'd["message"]' | grep -q -- "$1"; }
quiet() { "$@" >/dev/null 2>&1; }
st() { ctl mesa status --json | json_strict - "$1"; }
# damage VERSION: one byte more in one of its libraries.
damage() {
	_f=$(cd "$STORE/versions/$1" && find lib -type f | head -n 1)
	chmod u+w "$STORE/versions/$1/$(dirname "$_f")" "$STORE/versions/$1/$_f"
	printf 'x' >>"$STORE/versions/$1/$_f"
	echo "$_f"
}
# snapshot: every path of the store with its type, mode, size, link target and content.
snapshot() {
	(cd "$STORE" && find . -path ./running -prune -o -path ./last-operation -prune -o \
		-printf '%p %y %m %s %l\n' | sort && find . -type f ! -name running ! -name last-operation \
		-exec sha256sum {} + | sort)
}

# --- a store that is not there: nothing is made ---
for c in "off:nothing to switch off" "keep:nothing to keep" "boot-tick:no Mesa version is on trial"; do
	expect_exit 0 "${c%%:*} on a store that is not there" ctl mesa "${c%%:*}"
	check "  says ${c#*:}, that there is no store there and nothing was made" \
		grep -qx "${c#*:}: there is no store at $STORE (nothing was made there; is --store right?)" "$T/out"
	check "  and made none" test ! -e "$STORE"
done
for c in on rollback "remove $V1" "install $V1" "smoke $V1"; do
	# shellcheck disable=SC2086
	expect_exit 1 "$c on a store that is not there" ctl --json mesa $c
	reason_is not-installed
	check "  the sentence names the path and that nothing was made" \
		said "there is no store at $STORE (nothing was made there): no Mesa version installed for .tb323fu-ctl --store $STORE mesa ${c%% *}."
	check "  and made none" test ! -e "$STORE"
done

# --- the pruning says what it removed and why ---
printf 'keep_versions = 3\n' >"$TB323FU_MESA_CONFIG"
for r in "$R1" "$R2" "$R3"; do ctl mesa install-local "$r" --no-smoke >/dev/null || not_ok "install-local $r"; done
printf 'keep_versions = 2\n' >"$TB323FU_MESA_CONFIG"
expect_exit 0 "a fourth install with keep_versions = 2" ctl --json mesa install-local "$R4" --no-smoke
check "  --json: removed lists the two versions pruned, oldest first" test "$(json 'd["removed"]' <"$T/out")" = "['$V1', '$V2']"
check "  they are gone" sh -c "test ! -e '$STORE/versions/$V1' && test ! -e '$STORE/versions/$V2'"
check "  the sentence names them, the setting and why" \
	said "^Mesa $V1, $V2 were removed to keep 2 versions (keep_versions in mesa.conf): they were neither current nor previous$"
expect_exit 0 "an install that prunes nothing" ctl --json mesa install $V3 --no-smoke
check "  removed is empty and no sentence says removed" \
	test "$(json 'd["removed"], "removed to keep" in d["message"]' <"$T/out")" = "([], False)"

# --- a damaged older version is repaired from its tarball without switching ---
printf 'keep_versions = 3\n' >"$TB323FU_MESA_CONFIG"
rm -rf "$STORE"
for r in "$R1" "$R2" "$R3"; do ctl mesa install-local "$r" --no-smoke >/dev/null || not_ok "install-local $r"; done
# V3 current, V2 previous, V1 older
F=$(damage $V1)
expect_exit 4 "verify of the damaged older version" ctl mesa verify $V1
check "  its hint: verify --repair from its tarball (the release list does not offer it)" grep -qF "repair it from its tarball with \`tb323fu-ctl --store $STORE mesa verify --repair $V1 --from FILE\`" "$T/err"
expect_exit 0 "verify --repair from the damaged older version's tarball" ctl --json mesa verify $V1 --repair --from "$R1"
check "  it is whole again" quiet ctl mesa verify $V1
check "  current and previous stay as they were" test "$(st 'd["installed"], d["previous"]')" = "('$V3', '$V2')"
check "  --json: repaired, not switched" test "$(json 'd["repaired"], d["switched"], d["version"]' <"$T/out")" = "(True, False, '$V1')"
check "  the sentence says it was repaired and is not current" \
	said "^Mesa $V1 was damaged and is whole again (checked against $R1); it stays installed, not current (Mesa $V3 is current)$"

# --- rollback checks previous first; doctor looks at previous too ---
F=$(damage $V2)
BEFORE=$(snapshot)
expect_exit 4 "rollback onto a damaged previous is refused" ctl --json mesa rollback
reason_is damaged
check "  the sentence: nothing was changed, previous is damaged, the file, the repair" \
	said "^rollback did not switch to the previous version, nothing was changed: Mesa $V2 is damaged: $F (content changed); repair it with .tb323fu-ctl --store $STORE mesa verify --repair $V2."
check "  current is still $V3" test "$(st 'd["installed"], d["previous"]')" = "('$V3', '$V2')"
check "  the store is as it was" test "$(snapshot)" = "$BEFORE"
expect_exit 1 "doctor finds the damaged previous" ctl mesa doctor
check "  it names previous and what rollback does about it" \
	grep -q "problem: Mesa $V2 is damaged: $F (content changed); .* (the previous version); \`tb323fu-ctl --store $STORE mesa rollback\` refuses to go back to it until then" "$T/out"
check "  current is still checked" grep -q "Mesa $V3 is intact (the current version)" "$T/out"
ctl mesa verify $V2 --repair --from "$R2" >/dev/null
expect_exit 0 "once repaired, rollback goes back" ctl mesa rollback
check "  to $V2" test "$(st 'd["installed"]')" = "$V2"

# --- on, off: the state answers, and a store no login reads is said at once ---
expect_exit 0 "on with a private store" ctl --json mesa on
check "  --json: logins_read_store is false" test "$(json 'd["logins_read_store"]' <"$T/out")" = "False"
check "  the sentence says no login reads the store and how to use it" \
	said "^Mesa $V2 is switched on, but no login reads the store .* (/etc/environment.d/60-tb323fu-mesa.conf is missing), so programs keep the distribution.s Mesa; start one with .tb323fu-mesa --store .* run PROGRAM."
check "  and does not claim every program from the next login" sh -c "! grep -q 'for every program from the next login' '$T/out'"
BEFORE=$(snapshot)
expect_exit 0 "a second on" ctl mesa on
check "  says it is already on and nothing was changed" grep -q "^Mesa $V2 is already on; nothing was changed" "$T/out"
check "  the store is as it was" test "$(snapshot)" = "$BEFORE"
expect_exit 0 "install of the current version" ctl --json mesa install $V2
check "  says it is already current, nothing was changed" \
	said "^Mesa $V2 is already the current version; nothing was changed"
check "  the store is as it was (no new trial)" test "$(snapshot)" = "$BEFORE"
expect_exit 0 "off" ctl mesa off
BEFORE=$(snapshot)
expect_exit 0 "a second off" ctl mesa off
check "  says it is already off and nothing was changed" \
	grep -qx "Mesa is already off: programs use the distribution's Mesa; nothing was changed" "$T/out"
check "  the store is as it was" test "$(snapshot)" = "$BEFORE"

# --- install-local says what is wrong with what it was given ---
expect_exit 1 "install-local of a file that does not exist" ctl mesa install-local "$T/nonexistent.tar.gz"
check "  says the file does not exist, not that SHA256SUMS is missing" sh -c "
	grep -q '^tb323fu-ctl: $T/nonexistent.tar.gz does not exist; pass the release tarball' '$T/err' && ! grep -q SHA256SUMS.*--sums '$T/err'"
expect_exit 4 "install-local with a --sums that does not exist" ctl mesa install-local "$R1" --sums "$T/no-sums"
check "  names the --sums given" grep -q "^tb323fu-ctl: $T/no-sums, the SHA256SUMS given with --sums, does not exist" "$T/err"
rm -rf "$STORE"
expect_exit 0 "install-local of a release's directory" ctl mesa install-local "$(dirname "$R1")" --no-smoke
check "  installs the tarball in it" test "$(st 'd["installed"]')" = "$V1"
head -c 200000 "$R2" >"$T/cut.tar.gz"
sed "s|$(basename "$R2")|cut.tar.gz|" "$(dirname "$R2")/SHA256SUMS" >"$T/SHA256SUMS"
expect_exit 4 "install-local of a tarball cut short" ctl mesa install-local "$T/cut.tar.gz" --no-smoke
check "  says it is damaged or cut short, and to download it again" \
	grep -q "cut.tar.gz is damaged or cut short (.*); download it again" "$T/err"

# --- one vocabulary: status's first line, list's columns and markers ---
ctl mesa install-local "$R2" --no-smoke >/dev/null
ctl mesa on >/dev/null
expect_exit 0 "status" ctl mesa status
check "  its first line says current and on trial" test "$(head -n 1 "$T/out")" = "Mesa $V2: on, on trial (0 of 2 starts)"
check "  current is called current, not installed" grep -q "^Mesa $V2 is current (vulkan, opencl" "$T/out"
check "  --json: session trial, ready empty" test "$(st 'd["session"], d["ready"]')" = "('trial', '')"
expect_exit 0 "list" ctl mesa list
check "  a header names the columns" test "$(head -n 1 "$T/out" | tr -s ' ')" = "VERSION USE DRIVERS MESA SIZE SMOKE SUITE"
check "  current is marked on trial, previous as previous" sh -c "
	grep -q '^$V2  *current, on trial  *vulkan, opencl, gl  ' '$T/out' && grep -q '^$V1  *previous  *vulkan, opencl, gl  ' '$T/out'"
check "  the drivers and Mesa's version do not run together" sh -c "! grep -q 'opencl [0-9]\\|gl [0-9]' '$T/out'"
ctl mesa keep >/dev/null
check "  kept: current, on" sh -c "\"$CTL\" --store '$STORE' mesa list | grep -q '^$V2  *current, on  '"
ctl mesa off >/dev/null
check "status while off: the first line says off" test "$(ctl mesa status | head -n 1)" = "Mesa $V2: off (programs use the distribution's Mesa)"
expect_exit 1 "remove of the current version" ctl mesa remove $V2
check "  says how to make another current, no repair hint" sh -c "
	grep -q 'Mesa $V2 is current, so it stays; make another version current first (.tb323fu-ctl --store $STORE mesa rollback. goes back to $V1' '$T/err' && ! grep -q repair '$T/err'"

# --- rollback with the session off does not say that new programs use it --------------------
rm -rf "$STORE"
for r in "$R1" "$R2"; do ctl mesa install-local "$r" --no-smoke >/dev/null || not_ok "install-local $r"; done
expect_exit 0 "rollback while the session is off" ctl mesa rollback
check "  says it is for run, and that the session stays on the distribution's Mesa" \
	grep -qF "Mesa $V1 is current again (for \`tb323fu-mesa run\`; the session stays on the distribution's Mesa until \`tb323fu-ctl --store $STORE mesa on\`)" "$T/out"
done_testing
