#!/bin/sh
# Libraries only some commands need are loaded on their first call (ctl/base/lazylib.h,
# docs/design.md §2): status, list, help and the completion initialise none of libcurl,
# libarchive, libcrypto and libxml2; the commands that use them load them and work; one that
# cannot be loaded ends the command as the dynamic linker would (exit 127) with a sentence
# naming it, and the commands that do not need it still work.
. "$TB_TOP/tests/lib.sh"

printf 'smoke = off\n' >"$TB323FU_MESA_CONFIG"
R=$(tiny_release 2026.10.01 "$T/r") || { not_ok "tiny release"; done_testing; exit 1; }
LAZY='libcurl\.so|libarchive\.so|libcrypto\.so|libxml2\.so|libsystemd\.so'
# inits CMD…: the shared objects the command initialised, one a line.
inits() { LD_DEBUG=files "$@" 2>&1 >/dev/null | sed -n 's/.*calling init: //p'; }

inits "$CTL" --version >"$T/inits"
check "the program starts without them (--version)" sh -c "! grep -Eq '$LAZY' '$T/inits'"
run_cmd ctl mesa install-local "$R"
check "install-local works (it loads libarchive and libcrypto)" test "$rc" -eq 0
inits "$CTL" --store "$STORE" mesa install-local "$R" >"$T/inits"
check "  … and did load them" sh -c "grep -q 'libarchive\.so' '$T/inits' && grep -q 'libcrypto\.so' '$T/inits'"
for c in "--json mesa status" "mesa list" "mesa help" "mesa app list"; do
	# shellcheck disable=SC2086
	inits "$CTL" --store "$STORE" $c >"$T/inits"
	check "$c initialises none of libcurl, libarchive, libcrypto, libxml2, libsystemd" sh -c "! grep -Eq '$LAZY' '$T/inits'"
done
inits "$CTL" __complete mesa remove "" >"$T/inits"
check "the completion initialises none of them" sh -c "! grep -Eq '$LAZY' '$T/inits'"
inits "$CTL" --store "$STORE" mesa verify >"$T/inits"
check "verify loads libcrypto" grep -q 'libcrypto\.so' "$T/inits"

# A library that cannot be loaded: the dynamic linker finds a file that is no library first.
mkdir -p "$T/broken"
soname=$(LD_DEBUG=files "$CTL" --store "$STORE" mesa verify 2>&1 >/dev/null | sed -n 's/.*file=\(libcrypto\.so[.0-9]*\) .*/\1/p' | head -n 1)
printf 'not a library\n' >"$T/broken/$soname"
run_cmd env LD_LIBRARY_PATH="$T/broken" "$CTL" --store "$STORE" mesa verify
check "verify with $soname unloadable: exit 127, as a missing library at start would give" test "$rc" -eq 127
check "  … saying which library and why" grep -q "tb323fu-ctl: cannot load $soname, which this command needs (.*); reinstall" "$T/err"
run_cmd env LD_LIBRARY_PATH="$T/broken" "$CTL" --store "$STORE" --json mesa status
installed=$(json_strict "$T/out" 'd["installed"]')
check "  status still works without it" test "$rc" -eq 0 -a "$installed" = 2026.10.01
done_testing
