#!/bin/sh
# --dry-run says what install, rollback, remove and app set would do and changes nothing:
# which version becomes current and which stays previous, which versions the pruning to keep
# keep_versions would remove (the same as the real command then removes), which version goes,
# which desktop entry app set would write. The store's files and links are byte-identical
# before and after each dry run, and JSON carries the plan.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/app-lib.sh"

printf 'smoke = off\nkeep_versions = 9\n' >"$TB323FU_MESA_CONFIG"
# current 2026.10.03, previous 2026.10.02; 2026.10.01 and the newer 2026.10.04 installed too
for v in 2026.10.01 2026.10.04 2026.10.02 2026.10.03; do
	tar=$(tiny_release $v "$T/rel-$v") && ctl mesa install-local "$tar" >/dev/null 2>&1 ||
		{ not_ok "install-local of a tiny $v"; done_testing; exit 1; }
done
printf 'smoke = off\nkeep_versions = 2\n' >"$TB323FU_MESA_CONFIG"
# unchanged CODE CMD…: CMD exits CODE and the store is byte-identical afterwards.
unchanged() {
	want=$1
	shift
	store_digest >"$T/before"
	run_cmd "$@"
	store_digest >"$T/after"
	_cmd=$*
	if [ "$rc" -eq "$want" ] && cmp -s "$T/before" "$T/after"; then ok "${_cmd#"$CTL"}: exit $want, the store unchanged"
	else not_ok "$*: exit $want, the store unchanged" "exit $rc" "$(head -c 400 "$T/out" "$T/err")" \
		"$(diff "$T/before" "$T/after" | head -5)"; fi
}
check "the store: 2026.10.03 current, 2026.10.02 previous" \
	test "$(ctl mesa status --json | json_strict - 'd["installed"]+" "+d["previous"]')" = "2026.10.03 2026.10.02"

# --- install ---
unchanged 0 ctl mesa install 2026.10.04 --dry-run
check "  says which becomes current, which stays previous, which pruning removes, that nothing changed" \
	grep -qx 'dry run: `install` would make Mesa 2026.10.04 current, keep Mesa 2026.10.03 as previous, and remove Mesa 2026.10.01, 2026.10.02 to keep 2 versions (keep_versions in mesa.conf); nothing was changed' "$T/out"
unchanged 0 ctl --json mesa install --dry-run 2026.10.04
check "  JSON: dry_run, version, previous, would_remove oldest first, smoke" \
	test "$(json '[d["ok"], d["dry_run"], d["version"], d["previous"], d["would_remove"], d["smoke"]]' <"$T/out")" = \
	"[True, True, '2026.10.04', '2026.10.03', ['2026.10.01', '2026.10.02'], False]"
unchanged 0 ctl mesa install 2026.10.03 --dry-run
check "  of current: says install would only prune what is beyond keep_versions" \
	grep -qx 'dry run: Mesa 2026.10.03 is already current, so `install` would only remove Mesa 2026.10.01 to keep 2 versions (keep_versions in mesa.conf); nothing was changed' "$T/out"
unchanged 1 ctl --json mesa install 2026.09.01 --dry-run
check "  of a version not there: refused as install refuses it (not-installed)" \
	test "$(json 'd["reason"]' <"$T/out")" = not-installed

# --- rollback ---
unchanged 0 ctl mesa rollback --dry-run
check "  says 2026.10.02 would become current again and 2026.10.03 previous" \
	grep -qx 'dry run: `rollback` would make Mesa 2026.10.02 current again and keep Mesa 2026.10.03 as previous; nothing was changed' "$T/out"

# --- remove ---
unchanged 0 ctl --json mesa remove 2026.10.01 --dry-run
check "  says which version would go" \
	test "$(json '[d["dry_run"], d["would_remove"], d["message"]]' <"$T/out")" = \
	"[True, ['2026.10.01'], 'dry run: \`remove\` would remove Mesa 2026.10.01 (its files, ICD and env files); nothing was changed']"
unchanged 1 ctl --json mesa remove 2026.10.03 --dry-run
check "  of current: refused as remove refuses it (in-use)" test "$(json 'd["reason"]' <"$T/out")" = in-use

# --- the plan is what the command then does ---
run_cmd ctl --json mesa install 2026.10.04
check "install then removes exactly what its dry run said" \
	test "$(json '[d["version"], d["removed"]]' <"$T/out")" = "['2026.10.04', ['2026.10.01', '2026.10.02']]"


# --- app set: the entry it would write, and nothing written (the system's and --user) ---
entry my-game.desktop '[Desktop Entry]' 'Type=Application' 'Name=My Game' 'Exec=my-game --fullscreen %f'
for scope in "" --user; do
	dir=$LOCAL_APPS
	[ -n "$scope" ] && dir=$USER_APPS
	# everything under the test's directory but the files of this test's own bookkeeping
	listing "$T" | grep -v -e '/out$' -e '/err$' -e '/before$' -e '/after$' -e '/all-' >"$T/all-before"
	unchanged 0 ctl --json mesa app set $scope my-game 2026.10.03 --dry-run
	listing "$T" | grep -v -e '/out$' -e '/err$' -e '/before$' -e '/after$' -e '/all-' >"$T/all-after"
	check "  ${scope:-system}: no file was written anywhere (the entry, the rules, their directories)" \
		cmp -s "$T/all-before" "$T/all-after"
	check "  names the entry it would write, with its Exec" \
		test "$(json '[d["dry_run"], d["entry"], d["choice"], d["exec"]]' <"$T/out")" = \
		"[True, '$dir/my-game.desktop', '2026.10.03', '$MESA --store $(cd "$STORE" && pwd -P) run --version 2026.10.03 -- my-game --fullscreen %f']"
	exec_said=$(json 'd["exec"]' <"$T/out")
	ctl mesa app set $scope my-game 2026.10.03 >/dev/null 2>&1
	check "  app set then writes that entry with that Exec" test "$(exec_of "$dir/my-game.desktop")" = "$exec_said"
	ctl mesa app unset $scope my-game >/dev/null 2>&1
done

done_testing
