#!/bin/sh
# The life cycle against its model (docs/design.md §12): random histories of installs,
# downloads with faults, switches, trials, rollbacks, removals, damage and repairs, some cut
# short by kill -9, each step compared with the model (tests/tools/lifecycle_model.py).
# A kill lands at a named point of the writer's work (TB323FU_TEST_PAUSE, docs/design.md §14):
# the model picks one of the points the command passes, the writer stops there and says so
# through a FIFO, and only then is it killed; so every kill lands, on any machine, and the
# store must then be exactly what the commit rule says for that point.
# LIFECYCLE_SEED, LIFECYCLE_RUNS, LIFECYCLE_KILLS, LIFECYCLE_JOBS, LIFECYCLE_REPLAY: see there.
# tests/run: slow
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"

W="$T/model"
mkdir -p "$W/rel" "$W/hostile/flipped" "$W/hostile/renamed" "$W/hostile/nosums"

# Stand-in versions small enough to install thousands of times (tiny_release in tests/lib.sh).
for v in 2026.1.1 2026.2.1 2026.3.1 2026.4.1; do
	tiny_release "$v" "$W/rel/$v" >/dev/null || { not_ok "tiny release $v"; done_testing; exit 1; }
done
good() { ls "$W/rel/$1"/tb323fu-mesa-*.tar.*; }
A=$(good 2026.1.1)
# hostile: one byte changed; a tarball renamed to another version; no SHA256SUMS
cp "$A" "$W/rel/2026.1.1/SHA256SUMS" "$W/hostile/flipped/"
F="$W/hostile/flipped/$(basename "$A")"
size=$(stat -c %s "$F")
printf 'X' | dd of="$F" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
R="$W/hostile/renamed/$(basename "$A" | sed 's/2026\.1\.1/2026.2.1/')"
cp "$A" "$R"
(cd "$W/hostile/renamed" && sha256sum "$(basename "$R")" >SHA256SUMS)
cp "$A" "$W/hostile/nosums/"

# A quick smoke program: the six results, failing while the history says so, and failing
# unless the launcher gave it the version's own ICD file.
cat >"$W/fake-smoke" <<'SH'
#!/bin/sh
st=pass
[ -e "$FAKE_SMOKE_FAIL" ] && st=fail
case $VK_DRIVER_FILES in */icd/versions/*/turnip.json) ;; *) st=fail ;; esac
for t in vk.loader vk.driver vk.compute vk.sync cl.platform cl.kernel gl.draw gl.zink; do
	printf '{"event":"result","name":"%s","status":"%s","ms":1,"detail":"quick stand-in"}\n' "$t" "$st"
done
SH
chmod 755 "$W/fake-smoke"

python3 - "$W" "$A" "$F" "$R" "$W/hostile/nosums/$(basename "$A")" <<'PY'
import json, os, sys
w, a, f, r, n = sys.argv[1:]
good = {}
for v in os.listdir(os.path.join(w, "rel")):
    d = os.path.join(w, "rel", v)
    good[v] = os.path.join(d, [x for x in os.listdir(d) if ".tar." in x][0])
json.dump({"good": good, "hostile": {"flipped": f, "renamed": r, "nosums": n},
           "fake_smoke": os.path.join(w, "fake-smoke")}, open(os.path.join(w, "releases.json"), "w"))
PY

# One loopback server for each history running at a time (faults are per server).
jobs=${LIFECYCLE_JOBS:-2}
servers=
# the full run takes longer than a server's usual lifetime
HTTPD_LIFETIME=7200
for j in $(seq "$jobs"); do
	www="$W/www$j"
	mkdir -p "$www"
	start_httpd "$www" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
	for v in 2026.1.1 2026.2.1 2026.3.1 2026.4.1; do echo "mesa-$v - $(good $v)"; done |
		python3 "$TB_TOP/tests/doubles/fake-github" "$www" "http://127.0.0.1:$PORT"
	servers="$servers${servers:+,}{\"www\":\"$www\",\"api\":\"http://127.0.0.1:$PORT\"}"
done
echo "[$servers]" >"$W/server.json"

# The full tier (TB_TIER=full, CI) runs the full model: 300 histories, 120 of them with a kill
# (each one lands), from a fresh seed each run; about a quarter of an hour on two cores. The
# quick tier (make check) runs a fixed set: 24 histories of seed 20260101, 12 with a
# kill, the same every run. Under the sanitizers every command is several times slower, so
# that build runs a share in both. LIFECYCLE_SEED / LIFECYCLE_RUNS / LIFECYCLE_KILLS choose
# another set.
case ${TB_TIER:-quick} in
full) seed='' runs=300 kills=120 ;;
*) seed=20260101 runs=24 kills=12 ;;
esac
case $TB_BUILD in *-san*) runs=8 kills=4 ;; esac
LIFECYCLE_SEED=${LIFECYCLE_SEED:-$seed} LIFECYCLE_RUNS=${LIFECYCLE_RUNS:-$runs} LIFECYCLE_KILLS=${LIFECYCLE_KILLS:-$kills} \
	python3 "$TB_TOP/tests/tools/lifecycle_model.py" "$W"
