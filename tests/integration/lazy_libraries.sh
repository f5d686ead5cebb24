#!/bin/sh
# Libraries only some commands need are loaded on their first call (ctl/base/lazylib.h,
# docs/design.md §2): status, list, help and the completion initialise none of libcurl,
# libarchive, libcrypto and libxml2; the commands that use them load them and work; one that
# cannot be loaded ends the command as the dynamic linker would (exit 127) with a sentence
# naming it (one JSON failure object, reason library-missing, with --json), the commands that
# do not need it still work, install-local leaves no staging tree when libarchive cannot be
# loaded, and boot-tick counts the start without libsystemd (the journal is optional to it);
# bench --history --plot loads cairo, and without it says so and what to install.
. "$TB_TOP/tests/lib.sh"

printf 'smoke = off\n' >"$TB323FU_MESA_CONFIG"
R=$(tiny_release 2026.10.01 "$T/r") || { not_ok "tiny release"; done_testing; exit 1; }
LAZY='libcurl\.so|libarchive\.so|libcrypto\.so|libxml2\.so|libsystemd\.so|libcairo\.so'
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
	check "$c initialises none of libcurl, libarchive, libcrypto, libxml2, libsystemd, cairo" sh -c "! grep -Eq '$LAZY' '$T/inits'"
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
run_cmd env LD_LIBRARY_PATH="$T/broken" "$CTL" --store "$STORE" --json mesa verify
check "--json verify with $soname unloadable: exit 127 and one JSON failure object on stdout" \
	test "$rc" -eq 127 -a "$(wc -l <"$T/out")" -eq 1
check "  … with reason library-missing and the sentence" \
	test "$(json_strict "$T/out" 'd["ok"], d["reason"], d["message"].startswith("cannot load '"$soname"', which this command needs")')" = "(False, 'library-missing', True)"

# libarchive unloadable: install-local refuses before it makes anything, the store as it was
rm -f "$T/broken/"*
archive_so=$(LD_DEBUG=files "$CTL" --store "$STORE" mesa install-local "$R" 2>&1 >/dev/null | sed -n 's/.*file=\(libarchive\.so[.0-9]*\) .*/\1/p' | head -n 1)
printf 'not a library\n' >"$T/broken/$archive_so"
R2=$(tiny_release 2026.10.02 "$T/r2")
before=$(store_digest | grep -v ' ./last-operation$')
run_cmd env LD_LIBRARY_PATH="$T/broken" "$CTL" --store "$STORE" --json mesa install-local "$R2"
check "install-local with $archive_so unloadable: exit 127, reason library-missing" \
	test "$rc" -eq 127 -a "$(json_strict "$T/out" 'd["reason"]')" = library-missing
check "  … leaves no staging tree behind" test -z "$(find "$STORE/versions" -mindepth 1 -maxdepth 1 -name '.*')"
check "  … and the store as it was" test "$(store_digest | grep -v ' ./last-operation$')" = "$before"
run_cmd ctl mesa install-local "$R2"
check "  … and installs with the library there" test "$rc" -eq 0

# libsystemd unloadable: boot-tick counts the start all the same (the journal is optional to it)
rm -f "$T/broken/"*
systemd_so=$(ldconfig -p | sed -n 's/^\t*\(libsystemd\.so\.[0-9]*\) .*/\1/p' | head -n 1)
printf 'not a library\n' >"$T/broken/${systemd_so:-libsystemd.so.0}"
ctl mesa on >/dev/null
tries=$(ctl --json mesa status | json_strict - 'd["tries"]')
run_cmd env LD_LIBRARY_PATH="$T/broken" TB323FU_BOOT_ID=lazy-boot-2 "$CTL" --store "$STORE" mesa boot-tick
check "boot-tick with ${systemd_so:-libsystemd.so.0} unloadable: exit 0" test "$rc" -eq 0
check "  … the start is counted" test "$(ctl --json mesa status | json_strict - 'd["tries"]')" -eq $((tries + 1))
check "  … and it says the crash evidence was not read, and why" \
	grep -q "crash evidence was not read: cannot load ${systemd_so:-libsystemd.so.0}, which this command needs" "$T/out"

# cairo: bench --history --plot alone loads it
printf '{"runs":[{"version":"2026.10.01","time":"2026-12-06T06:30:00Z","ratio":1.5,"interval":[1.4,1.6],"verdict":"faster"}]}\n' >"$STORE/bench-history.json"
inits "$CTL" --store "$STORE" mesa bench --history >"$T/inits"
check "bench --history without --plot initialises none of them" sh -c "! grep -Eq '$LAZY' '$T/inits'"
inits "$CTL" --store "$STORE" mesa bench --history --plot "$T/chart.svg" >"$T/inits"
check "  … with --plot it loads cairo and draws" sh -c "grep -q 'libcairo\.so' '$T/inits' && grep -q '<svg' '$T/chart.svg'"
rm -f "$T/broken/"* "$T/chart.svg"
cairo_so=$(ldconfig -p | sed -n 's/^\t*\(libcairo\.so\.[0-9]*\) .*/\1/p' | head -n 1)
printf 'not a library\n' >"$T/broken/${cairo_so:-libcairo.so.2}"
run_cmd env LD_LIBRARY_PATH="$T/broken" "$CTL" --store "$STORE" --json mesa bench --history --plot "$T/chart.svg"
check "bench --history --plot with ${cairo_so:-libcairo.so.2} unloadable: exit 127, reason library-missing" \
	test "$rc" -eq 127 -a "$(json_strict "$T/out" 'd["reason"]')" = library-missing
check "  … saying what to install or leave out, no file written" sh -c \
	"grep -q 'cannot load ${cairo_so:-libcairo.so.2} (.*), which --plot draws with; install libcairo2 (apt-get install libcairo2), or leave --plot out' '$T/out' && test ! -e '$T/chart.svg'"
done_testing
