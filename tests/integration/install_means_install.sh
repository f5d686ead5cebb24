#!/bin/sh
# Install means install (docs/design.md §12): install-local FILE and install V make V current
# after its smoke tests whatever the store holds of it (new, only downloaded, previous, an
# older kept version, damaged); going back to an older version is said; V already current is
# a no-op that says so; repairing without switching is `verify --repair V --from FILE`, which
# is what verify advises. A version that failed its smoke tests leaves versions/. An install
# interrupted at any point (kill -9 at each named point, SIGINT while its smoke tests run,
# SIGTERM while it unpacks, a disk that fills after the tree was placed) says what it left,
# and the same command run again finishes it.
. "$TB_TOP/tests/lib.sh"

V1=2026.1.1
V2=2026.2.1
V3=2026.3.1
V4=2026.4.1
if ! { R1=$(tiny_release $V1 "$T/r1") && R2=$(tiny_release $V2 "$T/r2") &&
	R3=$(tiny_release $V3 "$T/r3") && R4=$(tiny_release $V4 "$T/r4"); }; then
	not_ok "tiny releases"
	done_testing
	exit 1
fi
printf 'keep_versions = 3\n' >"$TB323FU_MESA_CONFIG"
export TB323FU_BOOT_ID=boot-1
# A quick smoke program (the eight results): failing while $T/smoke-fails exists.
cat >"$T/smoke" <<'SH'
#!/bin/sh
st=pass
[ -e "$FAKE_SMOKE_FAIL" ] && st=fail
for t in vk.loader vk.driver vk.compute vk.sync cl.platform cl.kernel gl.draw gl.zink; do
	printf '{"event":"result","name":"%s","status":"%s","ms":1,"detail":"quick stand-in"}\n' "$t" "$st"
done
SH
chmod 755 "$T/smoke"
export TB323FU_MESA_SMOKE="$T/smoke" FAKE_SMOKE_FAIL="$T/smoke-fails"
quiet() { "$@" >/dev/null 2>&1; }
said() { json_strict "$T/out" 'd["message"]' | grep -q -- "$1"; }
st() { ctl --json mesa status | json_strict - "$1"; }
# the store but what every command writes (the running record, the last operation's sentence)
digest() { store_digest | grep -v -e ' \./running$' -e ' \./last-operation$'; }
versions() { find "$STORE/versions" -mindepth 1 -maxdepth 1 ! -name '.*' -printf '%f\n' | sort | tr '\n' ' '; }
damage() {
	chmod u+w "$STORE/versions/$1/lib" "$STORE/versions/$1/lib/libvk.so"
	printf 'x' >>"$STORE/versions/$1/lib/libvk.so"
}

for r in "$R1" "$R2" "$R3"; do ctl mesa install-local "$r" --no-smoke >/dev/null || not_ok "install-local $r"; done
# V3 current, V2 previous, V1 an older kept version

# --- install-local of a version the store holds installs it ---
expect_exit 0 "install-local of an older kept version's tarball" ctl --json mesa install-local "$R1"
check "  makes it current, the old current previous" test "$(st 'd["installed"], d["previous"]')" = "('$V1', '$V3')"
check "  after its smoke tests" test "$(json 'd["smoke"], d["smoke_passed"]' <"$T/out")" = "(True, 8)"
check "  --json: downgrade true, repaired false" test "$(json 'd["downgrade"], d["repaired"]' <"$T/out")" = "(True, False)"
check "  the sentence says it is back to an older version" \
	said "^back to an older version: Mesa $V1 replaces Mesa $V3, which stays as previous$"
expect_exit 0 "install-local of the previous version's tarball" ctl --json mesa install-local "$R3"
check "  makes it current again" test "$(st 'd["installed"], d["previous"]')" = "('$V3', '$V1')"
check "  --json: no downgrade, and the sentence says none" test "$(json 'd["downgrade"], "older version" in d["message"]' <"$T/out")" = "(False, False)"
BEFORE=$(digest)
expect_exit 0 "install-local of the current version's tarball" ctl --json mesa install-local "$R3"
check "  says it is already current and nothing was changed" said "^Mesa $V3 is already the current version; nothing was changed"
check "  and changes nothing" test "$(digest)" = "$BEFORE"
expect_exit 0 "install of an older kept version (only downloaded, never current)" ctl --json mesa install $V2
check "  makes it current" test "$(st 'd["installed"], d["previous"]')" = "('$V2', '$V3')"
check "  --json: downgrade" test "$(json 'd["downgrade"]' <"$T/out")" = True
expect_exit 0 "install --dry-run of an older version says it" ctl --json mesa install $V1 --dry-run
check "  --json: downgrade, and the sentence says it" \
	test "$(json 'd["downgrade"], ", back to an older version" in d["message"]' <"$T/out")" = "(True, True)"

# --- repair without switching: verify --repair V --from FILE ---
# V2 current, V3 previous, V1 older
damage $V1
expect_exit 4 "verify of a damaged version that is not current" ctl mesa verify $V1
check "  advises verify --repair --from its tarball (the release list does not offer it)" \
	grep -qF "repair it from its tarball with \`tb323fu-ctl --store $STORE mesa verify --repair $V1 --from FILE\`" "$T/err"
check "  and not install-local, which would switch to it" sh -c "! grep -q install-local '$T/err'"
BEFORE=$(digest)
expect_exit 4 "verify --repair --from another version's tarball" ctl --json mesa verify $V1 --repair --from "$R2"
reason_is tag-mismatch
check "  says which version the tarball is" said "is the tarball of Mesa $V2, not of Mesa $V1; give Mesa $V1's own tarball; nothing was changed"
check "  and changes nothing" test "$(digest)" = "$BEFORE"
expect_exit 2 "--from without --repair is a usage error" ctl mesa verify $V1 --from "$R1"
expect_exit 0 "verify --repair --from its own tarball" ctl --json mesa verify $V1 --repair --from "$R1"
check "  it is whole again" quiet ctl mesa verify $V1
check "  current and previous stay as they were" test "$(st 'd["installed"], d["previous"]')" = "('$V2', '$V3')"
check "  --json: repaired, not switched" test "$(json 'd["repaired"], d["switched"]' <"$T/out")" = "(True, False)"
check "  the sentence says so" said "^Mesa $V1 was damaged and is whole again (checked against $R1); it stays installed, not current (Mesa $V2 is current)$"

# --- install-local of a damaged version: repaired, then installed ---
damage $V1
expect_exit 0 "install-local of a damaged older version's tarball" ctl --json mesa install-local "$R1"
check "  repairs it and makes it current" test "$(st 'd["installed"], d["previous"]')" = "('$V1', '$V2')"
check "  it is whole" quiet ctl mesa verify $V1
check "  --json: repaired and downgrade" test "$(json 'd["repaired"], d["downgrade"]' <"$T/out")" = "(True, True)"
check "  the sentence says the repair first" said "^Mesa $V1 was damaged and is whole again (checked against the tarball)$"
damage $V1
expect_exit 0 "install-local of the damaged current version's tarball" ctl --json mesa install-local "$R1"
check "  repairs it, and it stays current" test "$(st 'd["installed"], d["previous"]')" = "('$V1', '$V2')"
check "  it is whole" quiet ctl mesa verify $V1
check "  the sentence says so" said "^Mesa $V1 was damaged and is whole again (checked against the tarball); it is the current version$"

# --- a version that failed its smoke tests leaves versions/ ---
: >"$FAKE_SMOKE_FAIL"
expect_exit 6 "install-local of a version that fails its smoke tests" ctl --json mesa install-local "$R4"
reason_is smoke-failed
check "  its tree is gone from versions/" test ! -e "$STORE/versions/$V4"
check "  nothing was switched; status keeps the failure and does not offer it" \
	test "$(st 'd["installed"], d["failed"], d["ready"]')" = "('$V1', '$V4', '$V3')"
"$CTL" --store "$STORE" --json mesa list >"$T/list.json" 2>/dev/null
check "  list does not show it as installed, only as the store's mark of a failed version" \
	json_strict "$T/list.json" '"'$V4'" not in [v["version"] for v in d["versions"]] and [(m["version"], m["reason"]) for m in d["marked"]] == [("'$V4'", "smoke-failed")] or exit(1)' 
check "  status does not recommend installing it" sh -c "! \"$CTL\" --store '$STORE' mesa status | grep -q 'install $V4'"
check "  the sentence says it was removed" \
	said "^Mesa $V4 failed its smoke test (.*) and was removed from the store; nothing was switched, Mesa $V1 stays current"
expect_exit 6 "install of a kept version that fails its smoke tests" ctl --json mesa install $V3
check "  its tree is gone too" test ! -e "$STORE/versions/$V3"
check "  current and previous stay" test "$(st 'd["installed"], d["previous"], d["failed"]')" = "('$V1', '$V2', '$V3')"
rm -f "$FAKE_SMOKE_FAIL"
expect_exit 0 "the same install-local once the smoke tests pass" ctl mesa install-local "$R4"
check "  installs it" test "$(st 'd["installed"], d["failed"]')" = "('$V4', '')"

# --- an interrupted install-local is finished by the same command ---
# the store each case starts from: V3 current, V2 previous, V1 older (keep_versions = 3)
rm -rf "$STORE"
for r in "$R1" "$R2" "$R3"; do ctl mesa install-local "$r" --no-smoke >/dev/null || not_ok "install-local $r"; done
cp -a "$STORE" "$T/base"
reset_store() { rm -rf "$STORE" && cp -a "$T/base" "$STORE"; }
finished() {
	check "  $1: the same command again exits 0" quiet ctl mesa install-local "$R4"
	check "  $1: Mesa $V4 is current, $V3 previous, $V1 pruned" \
		test "$(st 'd["installed"], d["previous"], d["failed"]')|$(versions)" = "('$V4', '$V3', '')|$V2 $V3 $V4 "
	check "  $1: it is whole" quiet ctl mesa verify $V4
}
for point in locked unpacking unpacked version-files placed smoke-tested journal renaming renamed committed; do
	reset_store
	if paused "$point" "$CTL" --store "$STORE" mesa install-local "$R4"; then
		kill_paused
		ok "install-local killed (SIGKILL) at $point"
		finished "after a kill at $point"
	else
		not_ok "install-local stops at $point" "$(cat "$T/paused.err")"
	fi
done

reset_store
if paused placed "$CTL" --store "$STORE" mesa install-local "$R4"; then
	kill -INT "$paused_pid"
	wait "$paused_job"
	rc=$?
	resume
	check "Ctrl-C while its smoke tests run: exit 1" test "$rc" = 1
	check "  says what it left and what the same command does" grep -qx \
		"tb323fu-ctl: interrupted by SIGINT (Ctrl-C) while the smoke tests of Mesa $V4 ran: it stays in $STORE/versions, not current, and nothing else was changed; the same command run again smoke-tests it and makes it current" \
		"$T/paused.err"
	check "  which is so" test "$(st 'd["installed"]')|$(versions)" = "$V3|$V1 $V2 $V3 $V4 "
	finished "after Ctrl-C"
else
	not_ok "install-local stops at placed" "$(cat "$T/paused.err")"
fi

# A double Ctrl-C (as an impatient user, or `timeout -s INT` to the process group, sends it):
# both signals land at the test point, and the second in a row is not a new event: one
# sentence saying what state it left, never a silent exit 130, no staging left behind.
n_said=0
for point in locked unpacking unpacked version-files placed journal; do
	reset_store
	if paused "$point" "$CTL" --store "$STORE" mesa install-local "$R4"; then
		kill -INT "$paused_pid"
		kill -INT "$paused_pid"
		wait "$paused_job"
		rc=$?
		resume
		check "double Ctrl-C at $point: exit 0 or 1, not killed ($rc)" test "$rc" = 0 -o "$rc" = 1
		check "  one sentence on stderr, saying what it left" \
			test "$(grep -c '^tb323fu-ctl: ' "$T/paused.err") $(grep -vc '^tb323fu-ctl: ' "$T/paused.err")" = "$([ "$rc" = 0 ] && echo "0 0" || echo "1 0")"
		[ "$rc" = 1 ] && grep -q "^tb323fu-ctl: interrupted by SIGINT (Ctrl-C) while " "$T/paused.err" && n_said=$((n_said + 1))
		[ "$rc" = 0 ] && grep -q "^Mesa $V4 installed" "$T/paused.out" && n_said=$((n_said + 1))
		check "  no staging left in versions/" test -z "$(find "$STORE/versions" -maxdepth 1 -name '.*')"
		finished "after a double Ctrl-C at $point"
	else
		not_ok "install-local stops at $point" "$(cat "$T/paused.err")"
	fi
done
check "six double Ctrl-C's, six sentences: interrupted, or installed when the commit was past" test "$n_said" = 6

# the current version, failed (a trial that expired), installed again and interrupted
reset_store
ctl mesa on >/dev/null && for b in 2 3 4; do TB323FU_BOOT_ID=boot-$b ctl mesa boot-tick >/dev/null; done
check "a current version whose trial expired is marked failed" test "$(st 'd["installed"], d["failed"]')" = "('$V3', '$V3')"
if paused locked "$CTL" --store "$STORE" mesa install $V3; then
	kill -INT "$paused_pid"
	wait "$paused_job"
	rc=$?
	resume
	check "  its install again, Ctrl-C while its smoke tests run: exit 1" test "$rc" = 1
	check "  says it stays current as it was, and what the same command does" grep -qx \
		"tb323fu-ctl: interrupted by SIGINT (Ctrl-C) while the smoke tests of Mesa $V3 ran: Mesa $V3 stays current as it was, and nothing else was changed; the same command run again smoke-tests it and makes it current" \
		"$T/paused.err"
	check "  the same command again" quiet ctl mesa install $V3
	check "  which clears the failure" test "$(st 'd["installed"], d["failed"]')" = "('$V3', '')"
else
	not_ok "install stops at locked" "$(cat "$T/paused.err")"
fi

reset_store
if paused unpacking "$CTL" --store "$STORE" mesa install-local "$R4"; then
	kill -TERM "$paused_pid"
	wait "$paused_job"
	rc=$?
	resume
	check "SIGTERM while it unpacks: exit 1" test "$rc" = 1
	check "  says nothing was changed and to run it again" \
		grep -q "^tb323fu-ctl: interrupted by SIGTERM while .*; nothing was changed, run the command again to finish it" "$T/paused.err"
	check "  which is so" test "$(st 'd["installed"]')|$(versions)" = "$V3|$V1 $V2 $V3 "
	finished "after SIGTERM"
else
	not_ok "install-local stops at unpacking" "$(cat "$T/paused.err")"
fi

# a disk that fills after the tree was placed
if mkdir -p "$T/small" && mount -t tmpfs -o size=2m tmpfs "$T/small" 2>/dev/null; then
	_tb_umount() { umount "$T/small" 2>/dev/null; _tb_cleanup; }
	trap _tb_umount EXIT
	STORE="$T/small/store"
	cp -a "$T/base" "$STORE"
	if paused placed "$CTL" --store "$STORE" mesa install-local "$R4" --no-smoke; then
		dd if=/dev/zero of="$T/small/fill" bs=4k >/dev/null 2>&1
		resume
		wait "$paused_job"
		rc=$?
		check "a full disk after the tree was placed: exit 1" test "$rc" = 1
		check "  says it stays, not current, what to delete, and that the same command makes it current" grep -q \
			"^tb323fu-ctl: Mesa $V4 was not made current: .*; it stays in $STORE/versions, not current, and nothing else was changed; the disk holding $STORE is full: delete partial downloads ($STORE/cache/\*.part) or versions not in use (\`tb323fu-ctl --store $STORE mesa remove VERSION\`: $V1); once there is room, the same command run again makes it current$" \
			"$T/paused.err"
		check "  which is so" test "$(st 'd["installed"]')|$(versions)" = "$V3|$V1 $V2 $V3 $V4 "
		rm -f "$T/small/fill"
		check "  once there is room, the same command again exits 0" quiet ctl mesa install-local "$R4" --no-smoke
		check "  Mesa $V4 is current" test "$(st 'd["installed"], d["previous"]')|$(versions)" = "('$V4', '$V3')|$V2 $V3 $V4 "
	else
		not_ok "install-local stops at placed" "$(cat "$T/paused.err")"
	fi
else
	skip "a full disk after the tree was placed" "cannot mount a tmpfs here"
fi

done_testing
