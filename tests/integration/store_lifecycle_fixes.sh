#!/bin/sh
# The life cycle's rough edges, each as a user met it: a newer previous offered as waiting
# after a rollback, a kept version reinstalled "on trial" with no trial, status and install
# disagreeing about when programs see a version, a damaged current with no way out, doctor
# calling a failed install "switched off", a damaged state file read as "off".
. "$TB_TOP/tests/lib.sh"

R1=$(tiny_release 2026.1.1 "$T/r1") && R2=$(tiny_release 2026.2.1 "$T/r2") ||
	{ not_ok "tiny releases"; done_testing; exit 1; }
printf 'keep_versions = 3\n' >"$TB323FU_MESA_CONFIG"
export TB323FU_BOOT_ID=boot-1
st() { ctl --json mesa status | json "$1"; }

ctl mesa install-local "$R1" --no-smoke >/dev/null && ctl mesa install-local "$R2" --no-smoke >/dev/null
expect_exit 0 "rollback" ctl mesa rollback
check "after a rollback the newer previous is not offered as downloaded" \
	test "$(st 'd["previous"], d["downloaded"], d["state"]')" = "('2026.2.1', '', 'idle')"
check "…and status does not tell to install it" sh -c "! \"$CTL\" --store '$STORE' mesa status | grep -q 'make it current'"

expect_exit 0 "on" ctl mesa on
expect_exit 0 "keep" ctl mesa keep
# the kept version's tarball again changes nothing: it is there, whole and current
expect_exit 0 "install-local of the kept version again" ctl mesa install-local "$R1" --no-smoke
check "…says it is already the current version and nothing was changed" \
	grep -q "Mesa 2026.1.1 is already the current version; nothing was changed" "$T/out"
check "…and starts no trial" test "$(st 'd["state"], d["trial"], d["tries"]')" = "('idle', '', 0)"
# another version installed while on goes on trial, and the sentence says so
expect_exit 0 "install of another version while on" ctl mesa install 2026.2.1 --no-smoke
check "…says it is on trial" grep -q "on trial" "$T/out"
check "…and it is" test "$(st 'd["state"], d["trial"], d["tries"]')" = "('trial', '2026.2.1', 0)"
TB323FU_BOOT_ID=boot-1 ctl mesa boot-tick >/dev/null
check "the boot it was installed in is not counted as one of its starts" test "$(st 'd["tries"]')" = 0
# (no login reads this test's store: both say so, in the one sentence of on, status and doctor)
check "install and status say the same about when programs use it" sh -c "
	said=\$(grep -o 'it is switched on, but no login reads the store [^;]*; start one with [^;]*' '$T/out') &&
	test -n \"\$said\" && \"$CTL\" --store '$STORE' mesa status | grep -qF \"\$said\""
ctl mesa rollback >/dev/null || not_ok "rollback to 2026.1.1"

# a damaged current version
lib="$STORE/versions/2026.1.1/lib/libvk.so"
printf 'x' >>"$lib"
expect_exit 4 "verify finds the damage" ctl mesa verify
check "…and names the command that repairs it: installed from a tarball on disk, no release list offers it" \
	grep -q "the release list does not offer it (installed from a tarball on disk?), so repair it from its tarball with .tb323fu-ctl --store $STORE mesa verify --repair 2026.1.1 --from FILE." "$T/err"
check "…with reason damaged" sh -c "\"$CTL\" --store '$STORE' --json mesa verify 2>/dev/null | grep -q '\"reason\":\"damaged\"'"
expect_exit 1 "remove refuses the current version" ctl mesa remove 2026.1.1
check "…says it stays and how to make another current, with no repair hint (remove repairs nothing)" sh -c "
	grep -q 'Mesa 2026.1.1 is current, so it stays; make another version current first (.tb323fu-ctl --store $STORE mesa rollback. goes back to 2026.2.1, or .tb323fu-ctl --store $STORE mesa install VERSION.), then remove it' '$T/err' &&
	! grep -q 'verify --repair' '$T/err'"
# installed from a tarball on disk, and the release source out of reach (nothing listens on
# port 9 here): verify --repair says which command repairs it offline
printf 'api_url = http://127.0.0.1:9\nconnect_timeout = 5\n' >"$T/offline.conf"
expect_exit 5 "verify --repair with the source out of reach" \
	"$CTL" --store "$STORE" --config "$T/offline.conf" mesa verify --repair 2026.1.1
check "…names the command that repairs it offline" grep -q "repaired offline with .tb323fu-ctl --store $STORE --config $T/offline.conf mesa verify --repair VERSION --from FILE." "$T/err"
exec 3<"$lib"
expect_exit 0 "install-local of the same good tarball repairs it" ctl mesa install-local "$R1" --no-smoke
expect_exit 0 "…verify is clean again" ctl mesa verify 2026.1.1
check "…a program that had the damaged file open still reads it" sh -c 'test "$(tail -c 1 <&3)" = x' 3<&3
exec 3<&-
check "…it is still current" test "$(st 'd["installed"]')" = 2026.1.1

# a smoke failure switches nothing; doctor does not call it "switched off"
cat >"$T/bad-smoke" <<'SH'
#!/bin/sh
for t in vk.loader vk.driver vk.compute vk.sync cl.platform cl.kernel gl.draw gl.zink; do
	printf '{"event":"result","name":"%s","status":"fail","ms":1,"detail":"broken on purpose"}\n' "$t"
done
SH
chmod 755 "$T/bad-smoke"
TB323FU_MESA_SMOKE="$T/bad-smoke" expect_exit 6 "a version that fails its smoke tests" ctl mesa install 2026.2.1
check "…nothing was switched" test "$(st 'd["installed"], d["failed"], d["enabled"]')" = "('2026.1.1', '2026.2.1', True)"
run_cmd ctl mesa doctor
check "doctor does not call it switched off" sh -c "! grep -q -e 'session: switched off' -e 'was switched off' '$T/out' '$T/err'"
check "…it says the version is not in use" grep -q "2026.2.1 failed.*not in use" "$T/out"

# a damaged state file: said, the session kept, rebuilt by the next writer
cp "$STORE/env.conf" "$T/env.conf.before"
for bad in garbage "enabled=1
tries=99999999999" "enabled=1
trial=../../etc"; do
	printf '%s\n' "$bad" >"$STORE/state"
	check "a damaged state ($(echo "$bad" | tr '\n' ' ')): status says so" sh -c "\"$CTL\" --store '$STORE' mesa status | grep -q 'state file is damaged'"
	check "…and keeps the session on" test "$(st 'd["enabled"]')" = True
done
head -c 70000 /dev/urandom >"$STORE/state"
check "a binary state over 64 KiB: the session stays on" test "$(st 'd["enabled"]')" = True
expect_exit 0 "the next writer" ctl mesa keep
check "…says it rebuilt the state" grep -q "state file was damaged; it was rebuilt" "$T/out"
check "…env.conf is as it was" cmp -s "$STORE/env.conf" "$T/env.conf.before"
check "…the state is whole again" sh -c "! \"$CTL\" --store '$STORE' mesa status | grep -q damaged"

# a version that vanishes, or is damaged, while its own smoke test runs never becomes current:
# the writer is held at the point where its smoke result is written, the tree changed, and
# then it goes on to its commit
cat >"$T/good-smoke" <<'SH'
#!/bin/sh
for t in vk.loader vk.driver vk.compute vk.sync cl.platform cl.kernel gl.draw gl.zink; do
	printf '{"event":"result","name":"%s","status":"pass","ms":1,"detail":"fine"}\n' "$t"
done
SH
chmod 755 "$T/good-smoke"
R3=$(tiny_release 2026.3.1 "$T/r3")
expect_exit 0 "2026.3.1 downloaded" ctl mesa install-local "$R3" --no-smoke
expect_exit 0 "…and 2026.1.1 current again" ctl mesa install 2026.1.1 --no-smoke
export TB323FU_MESA_SMOKE="$T/good-smoke"
check "install 2026.3.1 held after its smoke test" paused smoke-tested "$CTL" --store "$STORE" --json mesa install 2026.3.1
rm -rf "$STORE/versions/2026.3.1"
resume
wait "$paused_job"
rc=$?
check "…its tree deleted meanwhile: the install fails" test "$rc" -eq 1
check "…saying the tree is gone, that nothing was switched, and what to do" \
	test "$(json_strict "$T/paused.out" 'd["reason"], "gone from" in d["message"] and "so it was not made current (Mesa 2026.1.1 stays current; nothing was switched); download or install-local it again" in d["message"]')" = "('not-installed', True)"
check "…2026.1.1 stays current" test "$(readlink "$STORE/current")" = versions/2026.1.1
check "…status agrees" test "$(st 'd["installed"], d["enabled"]')" = "('2026.1.1', True)"
expect_exit 0 "2026.3.1 downloaded again" ctl mesa install-local "$R3" --no-smoke
expect_exit 0 "…and 2026.1.1 current again" ctl mesa install 2026.1.1 --no-smoke
check "install 2026.3.1 held after its smoke test again" paused smoke-tested "$CTL" --store "$STORE" --json mesa install 2026.3.1
rm "$STORE/versions/2026.3.1/lib/libcl.so.1"
resume
wait "$paused_job"
rc=$?
check "…a library deleted meanwhile: the install is refused (exit 4)" test "$rc" -eq 4
check "…naming the file, reason damaged" \
	test "$(json_strict "$T/paused.out" 'd["reason"], "lib/libcl.so.1 (missing)" in d["message"] and "not made current" in d["message"]')" = "('damaged', True)"
check "…2026.1.1 stays current" test "$(readlink "$STORE/current")" = versions/2026.1.1
unset TB323FU_MESA_SMOKE
done_testing
