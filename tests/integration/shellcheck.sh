#!/bin/sh
# Every shell script of the tree is clean at shellcheck's warning level, each finding named as a
# failure of its own. The scripts are found by tests/tools/shell-scripts.sh (by name, by shebang
# or by the shell directive for shellcheck), so a new one is checked without being listed
# anywhere. The checker is Debian's (ci/packages/check.txt, which make check installs); without
# it the quick tier counts this as skipped and the full tier fails.
# tests/run: slow
. "$TB_TOP/tests/lib.sh"

if ! command -v shellcheck >/dev/null; then
	if [ "$TB_TIER" = full ]; then
		not_ok "shellcheck is there in the full tier" "no shellcheck (sh ci/install-deps check)"
	else
		skip "every shell script is clean at shellcheck's warning level" \
			"shellcheck is not installed (ci/packages/check.txt; make check installs it)"
	fi
	done_testing
	exit 0
fi
scripts() { sh "$TB_TOP/tests/tools/shell-scripts.sh" "$@"; }

# --- which files are scripts: a tree of each kind (no git here: every file but the build's)
W=$T/tree
mkdir -p "$W/build" "$W/build-san" "$W/build-recipes" "$W/tests/fuzz/corpora/x" "$W/dist"
printf 'echo a\n' >"$W/a.sh"
printf '#!/bin/sh\necho b\n' >"$W/build-recipes/b"
printf '#!/usr/bin/env bash\necho c\n' >"$W/c"
printf '#! /bin/dash -e\necho d\n' >"$W/d"
printf '# shellcheck shell=bash\ncomplete -F f g\n' >"$W/dist/e"
printf '#!/usr/bin/env python3\nprint("f")\n' >"$W/f"
printf '#!/bin/shell-of-its-own\n' >"$W/g"
printf 'echo h\n' >"$W/h"
printf '#!/bin/sh\n' >"$W/build/i"
printf '#!/bin/sh\n' >"$W/build-san/j"
printf '#!/bin/sh\n' >"$W/tests/fuzz/corpora/x/k"
ln -s c "$W/l"
scripts "$W" >"$T/found"
check "scripts are found by name, shebang and shell directive, not in the build or the corpora" \
	test "$(tr '\n' ' ' <"$T/found")" = "a.sh build-recipes/b c d dist/e "
if command -v git >/dev/null; then
	git -C "$W" init -q && printf '/build/\n/build-*/\n!/build-recipes/\n' >"$W/.gitignore" &&
		git -C "$W" add a.sh c && git -C "$W" -c user.name=t -c user.email=t@t commit -qm t
	scripts "$W" >"$T/found"
	check "…and in a checkout, git's files, committed or not, without what it ignores" \
		test "$(tr '\n' ' ' <"$T/found")" = "a.sh build-recipes/b c d dist/e "
else
	skip "…and in a checkout" "no git"
fi
scripts "$TB_TOP" >"$T/scripts"
check "the tree's scripts include the recipes, ci/, the tests' helpers and the completion" sh -c "
	for f in build-recipes/deqp-vk build-recipes/lib.sh ci/install-deps tests/lib.sh tests/run \
		tests/integration/shellcheck.sh dist/bash-completion/tb323fu-ctl debian/tb323fu-mesa.postinst; do
		grep -qx \"\$f\" '$T/scripts' || { echo \"not found: \$f\"; exit 1; }
	done"
echo "# $(wc -l <"$T/scripts") shell scripts, shellcheck $(shellcheck --version | sed -n 's/^version: //p')"

# --- shellcheck really looks: a finding is named with its file, line and code
printf '#!/bin/sh\nfor f in $(ls); do echo "$f"; done\n' >"$T/bad.sh"
expect_exit 1 "a script that loops over ls fails shellcheck" shellcheck -S warning -f gcc "$T/bad.sh"
check "…named with its file, line and code" grep -q "bad.sh:2:.*\[SC2045\]" "$T/out"

# --- the tree: clean, or one failure a finding. Two shellchecks at once (one over every script
# took 90 s of a whole run): every other test script in each, the rest of the tree in the
# second, and the tests' shared helpers (tests/*.sh, which the test scripts source) in both, so
# that each knows the helpers' variables; a finding both report is said once.
grep -E '^tests/[^/]*\.sh$' "$T/scripts" >"$T/helpers"
grep -vxF -f "$T/helpers" "$T/scripts" | awk -v a="$T/half-a" -v b="$T/half-b" '
	/^tests\// { print > ((n++ % 2) ? a : b); next } { print > b }'
cat "$T/helpers" >>"$T/half-a"
cat "$T/helpers" >>"$T/half-b"
(cd "$TB_TOP" && xargs shellcheck -S warning -f gcc <"$T/half-a") >"$T/findings-a" 2>"$T/errors-a" &
(cd "$TB_TOP" && xargs shellcheck -S warning -f gcc <"$T/half-b") >"$T/findings-b" 2>"$T/errors-b"
rc_b=$?
wait $!
rc=$?
[ "$rc" -ne 0 ] || rc=$rc_b
sort -u "$T/findings-a" "$T/findings-b" >"$T/findings"
cat "$T/errors-a" "$T/errors-b" >"$T/errors"
if [ -s "$T/findings" ]; then
	while IFS= read -r finding; do
		not_ok "shellcheck: $finding"
	done <"$T/findings"
elif [ "$rc" -ne 0 ] || [ -s "$T/errors" ]; then
	not_ok "shellcheck ran over every script" "exit $rc" "$(head -c 600 "$T/errors")"
else
	ok "every shell script of the tree is clean at shellcheck's warning level"
fi

done_testing
