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
expect_exit 3 "a second writer exits 3" ctl --json mesa on
reason_is busy
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

# kill -9 at many instants of install-local (unpack, checks, links, env files, state): each
# time the store is whole, old or new, and the next writer tidies up.
R2=$(standin 2026.10.07)
whole() {
	cur=$(readlink "$STORE/current") &&
		case $cur in versions/2026.10.06 | versions/2026.10.07) ;; *) return 1 ;; esac &&
		lib=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ICD"]["library_path"])' "$STORE/icd/turnip.json") &&
		test -f "$lib" && test -s "$STORE/env/current.env" &&
		for v in $(ls "$STORE/versions"); do
			case $v in .*) continue ;; esac
			"$CTL" --store "$STORE" mesa verify "$v" >/dev/null 2>&1 || return 1
		done
}
broken=0
for i in $(seq 16); do
	if [ $((i % 2)) -eq 0 ]; then r=$R1; else r=$R2; fi
	"$CTL" --store "$STORE" mesa install-local "$r" --no-smoke >/dev/null 2>&1 &
	writer=$!
	sleep "0.$(printf %02d $(( (i * 37) % 25 )))"
	kill -9 "$writer" 2>/dev/null
	wait "$writer" 2>/dev/null
	whole || { broken=$((broken + 1)); echo "# not whole after kill $i: $(ls -A "$STORE" "$STORE/versions" | tr '\n' ' ')"; }
	"$CTL" --store "$STORE" mesa status >/dev/null 2>&1 || broken=$((broken + 1))
done
check "16 kills at different instants: the store was whole every time" test "$broken" -eq 0
ctl mesa off >/dev/null
check "…and the next writer left no temporaries" test -z "$(find "$STORE" -name '.*tmp*')"
# a writer killed while writing a version's ICD file or a release's SHA256SUMS leaves its
# temporary one level down; the next writer removes those too
v1=$(ls "$STORE/icd/versions" | head -n 1)
mkdir -p "$STORE/cache/mesa-$v1"
: >"$STORE/icd/versions/$v1/.turnip.json.tmp.4242"
: >"$STORE/cache/mesa-$v1/.SHA256SUMS.tmp.4242"
ctl mesa on >/dev/null
check "temporaries in icd/versions/<v>/ and cache/<tag>/ are removed by the next writer" \
	test -z "$(find "$STORE" -name '.*tmp*')"

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
	skip "a full disk" "cannot mount a tmpfs here"
fi
done_testing
