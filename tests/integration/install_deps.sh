#!/bin/sh
# ci/install-deps as make demo and make check call it first (--for): silent when nothing is
# missing; otherwise each list's missing packages with the list's reason, and for a user the one
# sudo line that installs them, stopping at once. Run on a copy with lists of its own, so
# nothing is installed here.
. "$TB_TOP/tests/lib.sh"

mkdir -p "$T/ci/packages"
cp "$TB_TOP/ci/install-deps" "$TB_TOP/ci/npm-packages.txt" "$T/ci/"
printf '# why: the test'"'"'s own list\ndpkg\ncoreutils\n' >"$T/ci/packages/here.txt"
printf '# why: a list with a package this machine has not\ndpkg\ntb323fu-no-such-package\n' >"$T/ci/packages/lacking.txt"
deps() { run_cmd sh "$T/ci/install-deps" "$@"; }

deps --for "make demo" here
check "nothing missing: silent, exit 0" sh -c "test $rc = 0 && test ! -s '$T/out' && test ! -s '$T/err'"
deps here
check "…and by hand it says so" grep -qx 'install-deps: nothing to install: every package of here is installed' "$T/out"

if [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null && reachable_by nobody; then
	chmod -R o+rX "$T/ci"
	run_cmd runuser -u nobody -- sh "$T/ci/install-deps" --for "make check" here lacking
	check "as a user with a package missing: exit 1" test "$rc" = 1
	check "…names the list, its reason and only the missing package" \
		grep -qx '  lacking, a list with a package this machine has not: tb323fu-no-such-package' "$T/out"
	check "…nothing of the list that is whole" sh -c "! grep -q '^  here' '$T/out'"
	check "…and the one line that installs them, with what to run after" \
		grep -qx 'make check: installing them needs root: run `sudo sh ci/install-deps here lacking`, then make check again' "$T/err"
	unreachable_again
else
	skip "a user is told the sudo line" "needs root and runuser to act as nobody"
fi

deps --for "make demo" 'bad word'
check "a word that is neither a list nor a package name: usage, exit 2" \
	sh -c "test $rc = 2 && grep -q 'is neither a list of ci/packages/ nor a package name' '$T/err'"

# Every list is there, each with its reason on the first line, and the targets name them.
for l in check full recipes root tablet repro cts bench; do
	check "ci/packages/$l.txt says why on its first line" sh -c "head -n 1 '$TB_TOP/ci/packages/$l.txt' | grep -q '^# why: .'"
done
check "make demo and make check install ci/packages/check.txt first (the Makefile)" sh -c "
	grep -A1 '^demo:' '$TB_TOP/Makefile' | grep -qF '\$(call needs,check)' &&
	grep -A1 '^check:' '$TB_TOP/Makefile' | grep -qF '\$(call needs,check \$(if \$(filter full,\$(TB_TIER)),full))'"
check "the quick tier's list needs no npm package" sh -c "! grep -qx 'nodejs\|npm' '$TB_TOP/ci/packages/check.txt'"

done_testing
