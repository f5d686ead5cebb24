#!/bin/sh
# A second writer, a killed writer and a full disk: each ends in a sentence and the store as it was.
. "$TB_TOP/tests/lib.sh"

R1=$(standin 2026.10.06)
expect_exit 0 "install-local" ctl mesa install-local "$R1" --no-smoke
cp -r "$STORE" "$T/before"
snapshot() { (cd "$1" && find . -path ./.lock -prune -o -print | sort && cat state env/*.env 2>/dev/null); }

# A second writer while one holds the lock exits 3 at once.
flock "$STORE/.lock" sleep 20 &
holder=$!
TB_KILL_ON_EXIT="$holder"
sleep 0.3
expect_exit 3 "a second writer exits 3" ctl mesa on
check "…saying busy" grep -q "^tb323fu-ctl: busy: " "$T/err"
expect_exit 0 "readers take no lock" ctl mesa status
ctl --wait mesa on >"$T/wait.out" 2>&1 &
waiter=$!
sleep 0.5
check "--wait blocks while the lock is held" kill -0 "$waiter"
kill "$holder" 2>/dev/null
wait "$waiter"
check "--wait goes on when the lock is free" test $? -eq 0
ctl mesa off >/dev/null

# A writer killed in the middle of unpacking leaves the old state; the next writer tidies up.
BIG=$(STANDIN_PAD_MB=150 standin 2026.10.20 --commit big)
before=$(snapshot "$STORE")
"$CTL" --store "$STORE" mesa install-local "$BIG" --no-smoke >/dev/null 2>&1 &
writer=$!
for _ in $(seq 100); do
	[ -n "$(ls -A "$STORE/versions" | grep '^\.')" ] && break
	sleep 0.05
done
kill -9 "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
check "killed while unpacking: status still shows the old version" test "$(ctl mesa status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["installed"])')" = 2026.10.06
check "killed while unpacking: current untouched" test "$(readlink "$STORE/current")" = versions/2026.10.06
expect_exit 0 "the next writer runs" ctl mesa off
check "…and removes the leftovers" test -z "$(ls -A "$STORE/versions" | grep '^\.')"
check "the store is as it was" test "$(snapshot "$STORE")" = "$before"

# A full disk: a small tmpfs as the store.
if mkdir -p "$T/small" && mount -t tmpfs -o size=20m tmpfs "$T/small" 2>/dev/null; then
	small="$T/small/store"
	"$CTL" --store "$small" mesa install-local "$R1" --no-smoke >/dev/null 2>&1
	sb=$(snapshot "$small")
	run_cmd "$CTL" --store "$small" mesa install-local "$BIG" --no-smoke
	check "a full disk exits 1" test "$rc" -eq 1
	check "…saying the disk is full and what to do" grep -q "disk is full.*free some space" "$T/err"
	check "…leaving the store as it was" test "$(snapshot "$small")" = "$sb"
	umount "$T/small"
else
	ok "full disk # SKIP cannot mount a tmpfs here"
fi
done_testing
