#!/bin/sh
# Every path of the store's layout swept (docs/design.md §3, "Every path, one way"): at each
# path of the design's table, a link to a folder outside the store, a FIFO, a part of the other
# kind (a file where a folder belongs, a folder where a file does) and nothing at all; then each
# command the table below names for that path runs on the store. Nothing is read or written in
# the folder outside (inotify says so: tests/tools/watch_dir.py), nothing hangs (a bound of a
# minute a command: no guess at how long one takes), and each command either does its work or
# refuses in one sentence with a reason id. A path of the design's table that the table below
# does not name fails the sweep. The quick tier runs the first command of each path, the full
# tier (TB_TIER=full) every one; the lines of the sweep's table are printed as comments.
. "$TB_TOP/tests/lib.sh"

# two tiny releases, and a stand-in (real drivers: bench compares it with the distribution's)
V1=2026.1.1
V2=2026.06.01
V3=2026.7.1
R1=$(tiny_release $V1 "$T/r1") && R2=$(standin $V2) && R3=$(tiny_release $V3 "$T/r3") ||
	{ not_ok "the releases"; done_testing; exit 1; }
export TB323FU_BOOT_ID=boot-1
# a quick smoke program: every test it is asked for passes
cat >"$T/smoke" <<'SH'
#!/bin/sh
for t in vk.loader vk.driver vk.compute vk.sync cl.platform cl.kernel gl.draw gl.zink; do
	printf '{"event":"result","name":"%s","status":"pass","ms":1,"detail":"quick stand-in"}\n' "$t"
done
SH
printf '#!/bin/sh\necho "float : 10 GBPS"\n' >"$T/bench-cmd"
mkdir -p "$T/cts"
cp "$TB_TOP/tests/doubles/fake-cts" "$T/cts/test_other"
chmod 755 "$T/smoke" "$T/bench-cmd"
export TB323FU_MESA_SMOKE="$T/smoke"

ctl mesa install-local "$R1" --no-smoke >/dev/null &&
	ctl mesa install-local "$R2" --sums "$(dirname "$R2")/SHA256SUMS" --no-smoke >/dev/null &&
	ctl mesa on >/dev/null && ctl mesa smoke $V2 >/dev/null ||
	{ not_ok "the store to sweep: $V1 and $V2 installed, on"; done_testing; exit 1; }
cp -a "$STORE" "$T/pristine"

# the commands, each on the store as it is planted (in a file: each runs under timeout)
cat >"$T/fns" <<EOF
ctl() { "$CTL" --store "$STORE" "\$@"; }
c_status() { ctl --json mesa status; }
c_list() { ctl --json mesa list; }
c_on() { ctl --json mesa on; }
c_off() { ctl --json mesa off; }
c_rollback() { ctl --json mesa rollback; }
c_install() { ctl --json mesa install-local "$R3" --no-smoke; }
c_remove() { ctl --json mesa remove $V1; }
c_verify() { ctl --json mesa verify $V1; }
c_smoke() { ctl --json mesa smoke $V2; }
c_suite() { ctl --json mesa smoke $V2 --suite opencl-cts --cts "$T/cts" --tests other; }
c_bench() { ctl --json mesa bench $V2 --rounds 1 --command "$T/bench-cmd"; }
c_bisect() { ctl --json mesa bisect --good $V1 --bad $V2 --command true; }
c_cts() { ctl --json mesa cts list; }
c_app() { ctl --json mesa app list; }
c_crashes() { ctl --json mesa crashes; }
c_boottick() { TB323FU_BOOT_ID=boot-2 ctl --json mesa boot-tick; }
EOF
. "$T/fns"

# PATTERN (the design's) | SAMPLE (a path of it in the store above) | COMMANDS | q: in the quick
# tier (its first command), a slice of every kind of part; the full tier runs every row, each
# command
cat >"$T/paths" <<EOF
versions|versions|install status verify|
versions/*|versions/$V1|verify remove status|q
current|current|status on off rollback|q
previous|previous|rollback status|
icd|icd|on off install|
icd/opencl|icd/opencl|on off|
icd/versions|icd/versions|install on|
icd/turnip.json|icd/turnip.json|on off|
icd/egl_vendor.json|icd/egl_vendor.json|on off|
icd/opencl/rusticl.icd|icd/opencl/rusticl.icd|on off|
icd/versions/*|icd/versions/$V2|on install verify|q
icd/versions/*/opencl|icd/versions/$V2/opencl|on install|
icd/versions/*/opencl/*|icd/versions/$V2/opencl/rusticl.icd|on install|
icd/versions/*/*|icd/versions/$V2/turnip.json|on install|
env|env|on off install status|q
env/*|env/$V2.env|on off status|q
env.conf|env.conf|on off status|
flatpak.conf|flatpak.conf|on off|
state|state|status on off|q
smoke|smoke|smoke install status|q
smoke/*|smoke/$V2.json|smoke list status|
cache/suites|cache/suites|suite|q
cache/suites/*|cache/suites/opencl-cts-distribution-0.json|suite|
cache|cache|bench install status|q
cache/*/*|cache/mesa-$V2/SHA256SUMS|status verify|
cache/*|cache/releases.json|status bench|
.lock|.lock|on status|q
.journal|.journal|on status|
.reserve|.reserve|on off|
running|running|on status|
last-operation|last-operation|on status|
.running-reader.*|.running-reader.1|status smoke|
.pins|.pins|smoke verify bench|q
.pins/*|.pins/$V2|smoke verify|
bisect|bisect|bisect|q
bisect.log|bisect.log|bisect|
bench-history.json|bench-history.json|bench status|
cts|cts|cts status|q
cts/current|cts/current|cts status suite|
cts/*|cts/2026.1.1|cts status|
app-rules|app-rules|app status|
marked|marked|rollback list status boottick|q
crash-record|crash-record|crashes status|
EOF

# every path of the design's table is named above
sed -n '/<!-- store layout: begin -->/,/<!-- store layout: end -->/p' "$TB_TOP/docs/design.md" >"$T/layout.md"
sed -n 's/^| `\([^`]*\)` |.*/\1/p' "$T/layout.md" >"$T/layout"
cut -d'|' -f1 "$T/paths" | sort >"$T/covered"
check "the design's table has the store's paths ($(wc -l <"$T/layout"))" test "$(wc -l <"$T/layout")" -gt 30
check "every path of the design's table is swept, and no other" \
	test "$(sort "$T/layout")" = "$(cat "$T/covered")" ||
	printf '#   %s\n' "$(sort "$T/layout" | diff - "$T/covered" | grep '^[<>]' | tr '\n' ' ')"

# the folder outside, with what a command might look for there, watched
OUT="$T/outside"
mkdir -p "$OUT/sub"
for f in releases.json MANIFEST SHA256SUMS 2026.2.1.json state marked; do printf 'bait\n' >"$OUT/$f"; done
python3 "$TB_TOP/tests/tools/watch_dir.py" "$OUT" "$T/events" "$T/watching" &
watcher=$!
TB_KILL_ON_EXIT="${TB_KILL_ON_EXIT:-} $watcher"
wait_until 60 test -s "$T/watching" || { not_ok "the watcher of the folder outside starts"; done_testing; exit 1; }
listing_out() { (cd "$OUT" && find . -print0 | sort -z | xargs -0 sha256sum 2>/dev/null; find . | sort); }
listing_out >"$T/out.before"
sync_n=0
# synced: every event before now is in the log (inotify keeps their order): a file of our own
# made outside, waited for in the log
synced() {
	sync_n=$((sync_n + 1))
	: >"$OUT/sub/.sync-$sync_n"
	wait_until 60 grep -q "/sub/.sync-$sync_n: made" "$T/events"
	rm -f "$OUT/sub/.sync-$sync_n"
}
synced
events_seen=$(wc -l <"$T/events")

# plant KIND SAMPLE: what stands at SAMPLE in the store (KIND of the design's row)
plant() {
	_p="$STORE/$2"
	rm -rf "$_p"
	mkdir -p "$(dirname "$_p")"
	case $3 in
	link) ln -s "$OUT" "$_p" ;;
	fifo) mkfifo "$_p" ;;
	other) case $1 in folder | "file or folder") printf 'planted\n' >"$_p" ;; *) mkdir "$_p" ;; esac ;;
	none) ;;
	esac
}
kind_of() { sed -n "s#^| \`$(printf '%s' "$1" | sed 's/[*.]/\\&/g')\` | \([^|]*\) |.*#\1#p" "$T/layout.md" | head -n 1; }

runs=0
bad=
: >"$T/table"
while IFS='|' read -r pattern sample commands tier; do
	kind=$(kind_of "$pattern")
	if [ "$TB_TIER" != full ]; then
		[ "$tier" = q ] || continue
		commands=${commands%% *}
	fi
	for how in link fifo other none; do
		for cmd in $commands; do
			rm -rf "$STORE"
			cp -a "$T/pristine" "$STORE"
			plant "$kind" "$sample" $how
			timeout -k 5 60 sh -c '. "$1"; shift; "$@"' sh "$T/fns" "c_$cmd" >"$T/cmd.out" 2>"$T/cmd.err" </dev/null
			rc=$?
			runs=$((runs + 1))
			synced
			outside=$(sed -n "$((events_seen + 1)),\$p" "$T/events" | grep -v '/sub/\.sync-\|/sub/: ' | head -n 3)
			events_seen=$(wc -l <"$T/events")
			said=$(python3 -c 'import json,sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    sys.exit(0)
m = str(d.get("message", "")) if isinstance(d, dict) else ""
print((d.get("reason") or "") if isinstance(d, dict) else "", "one" if m and "\n" not in m else "many")' "$T/cmd.out")
			reason=${said% *}
			if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
				result="hung"
			elif [ -n "$outside" ]; then
				result="reached outside: $outside"
			elif [ "$rc" -eq 0 ]; then
				result="done"
			elif [ -n "$reason" ] && [ "${said#* }" = one ]; then
				result="refused: $reason"
			else
				result="exit $rc without one sentence and a reason: $(head -c 200 "$T/cmd.err")"
			fi
			printf '%s\t%s\t%s\t%s\n' "$pattern" "$how" "$cmd" "$result" >>"$T/table"
			case $result in done | refused:*) ;; *) bad="$bad
$pattern ($how) $cmd: $result" ;; esac
		done
	done
done <"$T/paths"
check "$runs runs: each command did its work or refused in one sentence with a reason; none hung" test -z "$bad" ||
	printf '#   %s\n' "$bad"
listing_out >"$T/out.after"
check "…and the folder outside is as it was, every file and its bytes" \
	cmp -s "$T/out.before" "$T/out.after"
printf '# %s\n' "path	plant	command	result"
sed 's/^/# /' "$T/table"

# --- the source: no feature makes a folder by itself --------------------------------------------
# Every folder of the store is made by the layout's helper (ctl/store/layout.c); a call that
# makes a folder anywhere else is one of these, each with why it is no folder of the store's
# table or is made fresh below one the helper reached.
cat >"$T/allowed-mkdir" <<'EOF'
ctl/store/layout.c	the helper itself
ctl/store/store.c	the store's root (--store DIR), before it has a layout
ctl/release/release.c	the staging tree, made fresh (after remove_tree) in versions/ or cts/ reached by the helper
ctl/flatpak/export.c	a Flatpak installation's folders, outside the store
ctl/flatpak/session.c	an installation's overrides/, outside the store
ctl/apprules/rules.c	a user's rule folder (~/.config/tb323fu) or the reached store root
ctl/apprules/override_files.c	the desktop's applications folder, outside the store
ctl/scope/app_scope.c	a rule scope's folder, outside the store
ctl/cmd/pack.c	pack's output folder, outside the store
ctl/gputest/suite_deqp.c	a batch's folder in the run's private temporary folder
ctl/gputest/bench.c	bench's results folder, made fresh (0700) in cache/ reached by the helper
EOF
(cd "$TB_TOP" && grep -rlE '(mkdir_p|mkdir_below|mkdirat|[^_a-z]mkdir)\(' ctl --include='*.c' | grep -v '^ctl/base/fs.c$') >"$T/makers"
_bad=
while read -r f; do grep -q "^$f	" "$T/allowed-mkdir" || _bad="$_bad $f"; done <"$T/makers"
check "every folder is made by the layout's helper or by one of $(wc -l <"$T/allowed-mkdir") named ($(wc -l <"$T/makers") files make folders)" \
	test -z "$_bad" || printf '#   makes a folder by itself:%s\n' "$_bad"

# --- what the sweep found, each fixed ---------------------------------------------------------
# a store whose cache/ was deleted (people clear caches): bench makes it again
rm -rf "$STORE" && cp -a "$T/pristine" "$STORE" && rm -rf "$STORE/cache"
expect_exit 0 "bench on a store whose cache/ was deleted" c_bench
check "…and leaves no temporary in the made cache/" test -z "$(ls -A "$STORE/cache")"
# marked a folder: the rollback goes on (the way out), unmarked, and leaves no temporary
rm -rf "$STORE" && cp -a "$T/pristine" "$STORE" && mkdir "$STORE/marked"
expect_exit 0 "rollback with a folder at marked" c_rollback
check "…leaves no .marked.tmp.* in the store" test -z "$(find "$STORE" -maxdepth 1 -name '.marked.tmp*')"
# bisect/ a link: nothing is written through it
rm -rf "$STORE" && cp -a "$T/pristine" "$STORE" && mkdir "$T/elsewhere" && ln -s "$T/elsewhere" "$STORE/bisect"
expect_exit 1 "bisect with bisect/ a link to a folder outside" c_bisect
check "…refused as damaged, naming bisect and what to do" \
	test "$(json 'd["reason"], "bisect is a symbolic link where a directory belongs; move it out of the store" in d["message"]' <"$T/out")" = "('damaged', True)"
check "…nothing written there (.lock, cache/, env/, icd/)" test -z "$(ls -A "$T/elsewhere")"
# cache/suites a link: the suite's cache is not written through it
rm -rf "$STORE" && cp -a "$T/pristine" "$STORE" && mkdir -p "$STORE/cache" && ln -s "$T/elsewhere" "$STORE/cache/suites"
run_cmd c_suite
check "smoke --suite opencl-cts with cache/suites a link: no opencl-cts-distribution-*.json outside" \
	test -z "$(ls -A "$T/elsewhere")"

kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null
done_testing
