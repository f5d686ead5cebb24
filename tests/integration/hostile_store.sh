#!/bin/sh
# Links planted inside the store by whoever can write it (versions, .lock, icd/versions/<v>,
# env, cache): a writer refuses the store with a sentence saying what to move away, and
# creates nothing outside it. A --store path with ':' is refused.
. "$TB_TOP/tests/lib.sh"

v7=$(standin 2026.10.07) || { not_ok "stand-in release"; done_testing; exit 1; }
SUMS="$(dirname "$v7")/SHA256SUMS"
OUT="$T/outside"
reason() { json_strict "$T/out" 'd.get("reason", "")' 2>/dev/null; }
outside_empty() { [ -z "$(ls -A "$OUT")" ]; }
fresh() {
	rm -rf "$STORE" "$OUT"
	mkdir -p "$STORE" "$OUT"
}

# --- versions/ is a link to a directory elsewhere
fresh
ln -s "$OUT" "$STORE/versions"
expect_exit 1 "store_versions_link: a store whose versions/ is a link is refused" \
	ctl --json mesa install-local "$v7" --sums "$SUMS" --no-smoke
check "store_versions_link: the sentence names versions and says what to do" \
	grep -q "versions is a symbolic link where a directory belongs; move it out of the store" "$T/err"
check "store_versions_link: reason damaged" test "$(reason)" = damaged
check "store_versions_link: nothing was created outside the store" outside_empty

# --- .lock is a link to a file elsewhere
fresh
ln -s "$OUT/lock" "$STORE/.lock"
expect_exit 1 "store_lock_link: a store whose .lock is a link is refused" ctl mesa off
check "store_lock_link: the sentence names .lock" grep -q "\.lock is a symbolic link where a file belongs" "$T/err"
check "store_lock_link: no lock file was created outside the store" outside_empty

# --- icd/versions/<v> is a link to a directory elsewhere
fresh
mkdir -p "$STORE/icd/versions"
ln -s "$OUT" "$STORE/icd/versions/2026.10.07"
expect_exit 1 "store_icd_version_link: a store whose icd/versions/<v> is a link is refused" \
	ctl mesa install-local "$v7" --sums "$SUMS" --no-smoke
check "store_icd_version_link: the sentence names the link" \
	grep -q "icd/versions/2026.10.07 is a symbolic link where a directory belongs" "$T/err"
check "store_icd_version_link: no ICD file was written outside the store" outside_empty
check "store_icd_version_link: nothing was installed" test ! -e "$STORE/versions/2026.10.07"

# --- env/ and cache/ as links
fresh
ln -s "$OUT" "$STORE/env"
expect_exit 1 "store_env_link: a store whose env/ is a link is refused" \
	ctl mesa install-local "$v7" --sums "$SUMS" --no-smoke
check "store_env_link: no env file was written outside the store" outside_empty
fresh
mkdir -p "$STORE/cache"
ln -s "$OUT" "$STORE/cache/mesa-2026.10.07"
expect_exit 1 "store_cache_link: a store with a link inside cache/ is refused" ctl mesa off
check "store_cache_link: outside stays empty" outside_empty

# --- current as a directory instead of a link
fresh
mkdir -p "$STORE/current"
expect_exit 1 "store_current_not_link: a store whose current is a directory is refused" ctl mesa off
check "store_current_not_link: the sentence names current" \
	grep -q "current is a directory where a symbolic link belongs" "$T/err"

# --- a whole store still works, and readers are unaffected
fresh
expect_exit 0 "store_intact: an intact store installs" \
	ctl mesa install-local "$v7" --sums "$SUMS" --no-smoke
expect_exit 0 "store_intact: and writes again" ctl mesa off

# --- a --store path with ':' would put a relative entry into LD_LIBRARY_PATH
expect_exit 2 "store_path_colon: a --store path with ':' is refused (exit 2)" \
	"$CTL" --store "$T/a:b" mesa install-local "$v7" --sums "$SUMS" --no-smoke
check "store_path_colon: the sentence says why" grep -q "has characters the session files cannot carry" "$T/err"
check "store_path_colon: nothing was created" test ! -e "$T/a:b/versions"

done_testing
