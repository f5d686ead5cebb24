#!/bin/sh
# Links planted in the store and trees taken away behind the tools' back, each met as a user
# would: a link at a writer's temporary, at a file every writer rewrites or at a version's own
# env and ICD files (nothing is written through it, the writers go on, off included, and say
# so), a current version whose tree was deleted (the ways out
# still work and every program says what is missing), a current link pointing outside
# versions/ (said, never silently switched off).
. "$TB_TOP/tests/lib.sh"

R1=$(tiny_release 2026.1.1 "$T/r1") && R2=$(tiny_release 2026.2.1 "$T/r2") ||
	{ not_ok "tiny releases"; done_testing; exit 1; }
printf 'keep_versions = 3\n' >"$TB323FU_MESA_CONFIG"
export TB323FU_BOOT_ID=boot-1
st() { ctl --json mesa status | json "$1"; }
# victim NAME: a file outside the store with known content, and its copy to compare with.
victim() {
	printf 'precious %s\n' "$1" >"$T/$1"
	cp "$T/$1" "$T/$1.orig"
}
untouched() { cmp -s "$T/$1" "$T/$1.orig"; }
# fresh_store NAME VERSION…: each part starts from a store of its own with these installed.
fresh_store() {
	STORE="$T/$1"
	shift
	for r in "$@"; do ctl mesa install-local "$r" --no-smoke >/dev/null || not_ok "install $r in $STORE"; done
}

expect_exit 0 "a first version installs" ctl mesa install-local "$R1" --no-smoke

# ---- links at the running record's temporaries and at the records themselves ----
victim run-victim
victim last-victim
ln -s "$T/run-victim" "$STORE/running.tmp"
ln -s "$T/last-victim" "$STORE/last-operation.tmp"
expect_exit 0 "a writer with links planted at running.tmp and last-operation.tmp" ctl mesa install-local "$R2" --no-smoke
check "…the target of running.tmp is byte for byte as it was" untouched run-victim
check "…the target of last-operation.tmp too" untouched last-victim
check "…the planted temporaries are gone" sh -c "test ! -L '$STORE/running.tmp' && test ! -L '$STORE/last-operation.tmp'"
check "…no temporary is left in the store" test -z "$(find "$STORE" -mindepth 1 -maxdepth 1 -name '*tmp*')"

printf '{"operation":"install","ok":true,"code":0,"reason":"","message":"planted sentence"}\n' >"$T/fake-last"
cp "$T/fake-last" "$T/fake-last.orig"
rm -f "$STORE/last-operation"
ln -s "$T/fake-last" "$STORE/last-operation"
check "status does not read last-operation through a planted link" \
	sh -c "! \"$CTL\" --store '$STORE' --json mesa status | grep -q 'planted sentence'"
expect_exit 0 "the next writer" ctl mesa on # keep, with nothing on trial, would be answered without the lock
check "…replaces the link, leaving its target alone" sh -c "test -f '$STORE/last-operation' && test ! -L '$STORE/last-operation' && cmp -s '$T/fake-last' '$T/fake-last.orig'"

# ---- links at the files every writer rewrites ----
fresh_store rewritten "$R1" "$R2"
expect_exit 0 "on" ctl mesa on
for f in env.conf state icd/turnip.json icd/opencl/rusticl.icd env/current.env; do
	vn=$(echo "$f" | tr / -)
	victim "$vn"
	rm -f "$STORE/$f"
	ln -s "$T/$vn" "$STORE/$f"
	expect_exit 0 "off with $f a link outside the store" ctl mesa off
	check "…the link's target is byte for byte as it was" untouched "$vn"
	check "…$f is a file of the store again" sh -c "test -f '$STORE/$f' && test ! -L '$STORE/$f'"
	check "…and off says so" grep -q "warning: $f (a link to $T/$vn) stood where the store keeps its own file" "$T/out"
	check "…the session is off" test "$(st 'd["enabled"]')" = False
	rm -f "$STORE/$f"
	ln -s "$T/$vn" "$STORE/$f"
	expect_exit 0 "on with $f a link outside the store" ctl mesa on
	check "…the link's target is untouched" untouched "$vn"
	check "…$f is replaced" sh -c "test -f '$STORE/$f' && test ! -L '$STORE/$f'"
	check "…the session is on" test "$(st 'd["enabled"]')" = True
done
check "env.conf selects current again" cmp -s "$STORE/env.conf" "$STORE/env/current.env"
# a version's own files: written anew by the writer's takeover, the links' targets untouched
for f in env/2026.2.1.env icd/versions/2026.2.1/turnip.json icd/versions/2026.2.1/opencl/rusticl.icd \
	env/2026.1.1.env icd/versions/2026.1.1/turnip.json; do
	vn=$(echo "$f" | tr / -)
	victim "$vn"
	cp "$STORE/$f" "$T/$vn.ours"
	for cmd in off on; do
		rm -f "$STORE/$f"
		ln -s "$T/$vn" "$STORE/$f"
		expect_exit 0 "$cmd with $f a link outside the store" ctl mesa $cmd
		check "…the link's target is byte for byte as it was" untouched "$vn"
		check "…$f is the store's own file again" sh -c "test -f '$STORE/$f' && test ! -L '$STORE/$f' && cmp -s '$STORE/$f' '$T/$vn.ours'"
		check "…and $cmd says so" grep -q "warning: $f (a link to $T/$vn) stood where the store keeps its own file" "$T/out"
	done
done
mkdir -p "$T/elsewhere-opencl"
mv "$STORE/icd/versions/2026.2.1/opencl" "$T/opencl-saved"
ln -s "$T/elsewhere-opencl" "$STORE/icd/versions/2026.2.1/opencl"
expect_exit 1 "a link at a version's OpenCL folder (written into) is refused" ctl mesa off
check "…naming it" grep -q "icd/versions/2026.2.1/opencl is a symbolic link where a directory belongs" "$T/err"
check "…nothing written where it points" test -z "$(ls -A "$T/elsewhere-opencl")"
rm "$STORE/icd/versions/2026.2.1/opencl"
mv "$T/opencl-saved" "$STORE/icd/versions/2026.2.1/opencl"

# ---- a current version whose tree is gone ----
fresh_store gone "$R1" "$R2"
ctl mesa on >/dev/null
export TB323FU_BOOT_ID=boot-2
rm -rf "$STORE/versions/2026.2.1"
expect_exit 0 "status with the current tree gone" ctl mesa status
check "…says it is gone and what to do" grep -q "Mesa 2026.2.1, the current version, is gone from $STORE/versions.*rollback" "$T/out"
expect_exit 1 "doctor" ctl mesa doctor
check "…names the gone version and the way back" grep -q "problem: Mesa 2026.2.1, the current version, is gone.*rollback" "$T/out"
expect_exit 1 "tb323fu-mesa run refuses it" mesa run true
check "…saying the current version is gone" grep -q "current Mesa version 2026.2.1 is gone from" "$T/err"
expect_exit 1 "tb323fu-mesa which refuses it" mesa which
expect_exit 1 "tb323fu-mesa env --version refuses it" mesa env --version 2026.2.1
check "…saying its files are gone" grep -q "Mesa 2026.2.1 is not installed: its files are gone" "$T/err"
expect_exit 1 "on refuses it" ctl mesa on
check "…saying why and that nothing changed" grep -q "on cannot go on: Mesa 2026.2.1, the current version, is gone.*nothing was changed" "$T/err"
rm "$STORE/env/2026.1.1.env" # as in a store the helper made: the writer's takeover runs
expect_exit 0 "takeover works" ctl mesa takeover
check "…and completes the other version" test -s "$STORE/env/2026.1.1.env"
check "…and the leftover env file of the gone version is removed" test ! -e "$STORE/env/2026.2.1.env"
check "…with its ICD files" test ! -e "$STORE/icd/versions/2026.2.1"
check "the session is still on (nothing switched it off silently)" test "$(st 'd["enabled"]')" = True
expect_exit 0 "boot-tick switches the session off" ctl mesa boot-tick
check "…saying why" grep -q "Mesa 2026.2.1, the current version, is gone.*switched to the distribution's Mesa" "$T/out"
check "…it is off and env.conf is empty" sh -c "test \"\$(\"$CTL\" --store '$STORE' --json mesa status | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"enabled\"])')\" = False && test ! -s '$STORE/env.conf'"
expect_exit 0 "off works" ctl mesa off
expect_exit 0 "rollback goes back to the previous version" ctl mesa rollback
check "…which is current, with no previous" test "$(st 'd["installed"], d["previous"]')" = "('2026.1.1', '')"
expect_exit 0 "tb323fu-mesa run works again" mesa run true

# the same with the session on and a trial running: boot-tick ends it
expect_exit 0 "a second version again" ctl mesa install-local "$R2" --no-smoke
expect_exit 0 "on" ctl mesa on
rm -rf "$STORE/versions/2026.2.1"
export TB323FU_BOOT_ID=boot-3
expect_exit 0 "boot-tick with the trial's tree gone" ctl mesa boot-tick
check "…switches off" test "$(st 'd["enabled"], d["trial"]')" = "(False, '')"
expect_exit 0 "rollback" ctl mesa rollback

# ---- current linked outside versions/ ----
fresh_store foreign "$R1"
expect_exit 0 "on" ctl mesa on
cp "$STORE/env.conf" "$T/env.conf.before"
mkdir -p "$T/elsewhere"
rm "$STORE/current"
ln -s "$T/elsewhere" "$STORE/current"
rm "$STORE/env/2026.1.1.env" # what a helper's store lacks: the next writer's takeover runs
expect_exit 1 "takeover with current outside versions/ refuses the store" ctl --json mesa takeover
reason_is damaged
check "…saying where current points, the repair, and that nothing was changed" \
	test "$(json_strict "$T/out" '"current points at '"$T"'/elsewhere, outside versions/" in d["message"] and "ln -sfn versions/VERSION" in d["message"] and d["message"].endswith("nothing was changed")')" = True
check "…leaves env.conf as it was (no silent switch-off)" cmp -s "$STORE/env.conf" "$T/env.conf.before"
check "…and writes nothing" test ! -e "$STORE/env/2026.1.1.env"
# a whole tree outside the store, reached by an absolute link or through versions/../..: the
# helper's ICD files would load its libraries
cp -a "$STORE/versions/2026.1.1" "$T/elsewhere/tree"
for target in "$T/elsewhere/tree" "versions/../../elsewhere/tree" "versions/2026.1.1/../../../elsewhere/tree"; do
	ln -sfn "$target" "$STORE/current"
	rm -f "$STORE/icd/turnip.json" "$STORE/icd/opencl/rusticl.icd"
	expect_exit 1 "takeover with current -> $target refuses the store" ctl --json mesa takeover
	reason_is damaged
	check "…no ICD file of current written" test ! -e "$STORE/icd/turnip.json" -a ! -e "$STORE/icd/opencl/rusticl.icd"
done
ln -sfn "$T/elsewhere" "$STORE/current"
expect_exit 0 "status" ctl mesa status
check "…says where current points and what to do" grep -q "current points at $T/elsewhere, outside versions/.*ln -sfn versions/VERSION" "$T/out"
expect_exit 1 "on refuses it" ctl --json mesa on
reason_is damaged
expect_exit 0 "off works" ctl mesa off
check "…env.conf is empty" test ! -s "$STORE/env.conf"
check "…the link is left as the user made it" test "$(readlink "$STORE/current")" = "$T/elsewhere"

# ---- a suite of 200,000 tests: the summary in smoke/<v>.json stays readable ----
fresh_store big "$R1"
cat >"$T/good-smoke" <<'SH'
#!/bin/sh
for t in vk.loader vk.driver vk.compute vk.sync cl.platform cl.kernel gl.draw gl.zink; do
	printf '{"event":"result","name":"%s","status":"pass","ms":1,"detail":"fine"}\n' "$t"
done
SH
cat >"$T/big-piglit" <<'SH'
#!/bin/sh
# piglit run PROFILE … DIR: results.json with 200,000 passing tests (the last argument is DIR)
for dir; do :; done
mkdir -p "$dir" && exec python3 -c '
import json, sys
tests = {"cl@program@execute@builtin@builtin-float-%06d-1.0.generated" % i: {"result": "pass"} for i in range(200000)}
json.dump({"tests": tests}, open(sys.argv[1] + "/results.json", "w"))' "$dir"
SH
chmod 755 "$T/good-smoke" "$T/big-piglit"
export TB323FU_MESA_SMOKE="$T/good-smoke" TB323FU_MESA_PIGLIT="$T/big-piglit"
expect_exit 0 "the smoke tests pass" ctl mesa smoke 2026.1.1
expect_exit 0 "a suite of 200,000 tests runs" ctl mesa smoke 2026.1.1 --suite piglit-cl
check "…smoke/<v>.json stays within what readers take" test "$(stat -c %s "$STORE/smoke/2026.1.1.json")" -lt 16777216
check "…list still shows the smoke result and the suite" \
	test "$(ctl --json mesa list | json '[(v["smoke"], v["suite"]) for v in d["versions"]]')" = "[('pass', 'pass')]"
check "…the suite's counts are kept" test "$(json 'd["suites"]["piglit-cl"]["tests"]' <"$STORE/smoke/2026.1.1.json")" = 200000
done_testing
