#!/bin/sh
# Local files that are not what they claim: a release named link to /dev/zero, a FIFO, huge
# or NUL-bearing configuration and SHA256SUMS files, and a launcher env file that is a FIFO.
# Each is refused at once, with a sentence saying what is wrong, and leaves nothing behind.
. "$TB_TOP/tests/lib.sh"

arch=$(uname -m)
v7=$(standin 2026.10.07) || { not_ok "stand-in release"; done_testing; exit 1; }
SUMS="$(dirname "$v7")/SHA256SUMS"
staging_gone() { [ -z "$(find "$STORE/versions" -maxdepth 1 -name '.*' 2>/dev/null)" ]; }

# --- install-local of a release-named link to /dev/zero, and of a FIFO
mkdir -p "$T/rel"
rname="tb323fu-mesa-2026.10.07-$arch.tar.gz"
cp "$SUMS" "$T/rel/SHA256SUMS"
ln -s /dev/zero "$T/rel/$rname"
expect_exit 4 "install_local_dev_zero: a release named link to /dev/zero is refused (exit 4)" \
	timeout 60 "$CTL" --store "$STORE" --json mesa install-local "$T/rel/$rname" --no-smoke
check "install_local_dev_zero: it says it is not a regular file" grep -qF "not a regular file" "$T/err"
check "install_local_dev_zero: reason unsafe-archive" grep -q '"reason":"unsafe-archive"' "$T/out"
check "install_local_dev_zero: no staging is left" staging_gone
rm "$T/rel/$rname"
mkfifo "$T/rel/$rname"
expect_exit 4 "install_local_fifo: a FIFO named like a release is refused at once" \
	timeout 60 "$CTL" --store "$STORE" mesa install-local "$T/rel/$rname" --no-smoke
check "install_local_fifo: no staging is left" staging_gone
rm "$T/rel/$rname"

# --- SHA256SUMS that is a device or a gigabyte
expect_exit 4 "sums_dev_zero: --sums /dev/zero is refused" \
	timeout 60 "$CTL" --store "$STORE" mesa install-local "$v7" --sums /dev/zero --no-smoke
check "sums_dev_zero: it says it is not a regular file" grep -qF "not a regular file" "$T/err"
truncate -s 1G "$T/huge-sums"
expect_exit 4 "sums_huge: a 1 GB SHA256SUMS is refused" \
	ctl --json mesa install-local "$v7" --sums "$T/huge-sums" --no-smoke
check "sums_huge: it says the file is too large, not \"Argument list too long\"" \
	sh -c "grep -q 'larger than 64 KiB' '$T/err' && ! grep -q 'Argument list' '$T/err'"
check "sums_huge: reason too-large" grep -q '"reason":"too-large"' "$T/out"
rm -f "$T/huge-sums"

# --- the configuration: a NUL byte, two megabytes, a FIFO
printf 'smoke = off\n\0\nrequire_signature = true\n' >"$T/nul.conf"
expect_exit 2 "config_nul_byte: a mesa.conf with a NUL byte is refused" \
	ctl --config "$T/nul.conf" mesa status
check "config_nul_byte: it names the NUL byte" grep -qF "contains a NUL byte" "$T/err"
truncate -s 2M "$T/big.conf"
expect_exit 2 "config_huge: a 2 MB mesa.conf is refused" ctl --config "$T/big.conf" mesa status
check "config_huge: it says the file is too large, not \"Argument list too long\"" \
	sh -c "grep -q 'larger than 1 MiB' '$T/err' && ! grep -q 'Argument list' '$T/err'"
mkfifo "$T/fifo.conf"
expect_exit 2 "config_fifo: a FIFO as mesa.conf is refused at once" \
	timeout 60 "$CTL" --store "$STORE" --config "$T/fifo.conf" mesa status
check "config_fifo: it says it is not a regular file" grep -qF "not a regular file" "$T/err"
expect_exit 0 "config_dev_null: --config /dev/null still means no configuration" \
	ctl --config /dev/null mesa status

# --- the launcher's env file as a FIFO or a link to /dev/zero
expect_exit 0 "a stand-in installs" ctl mesa install-local "$v7" --no-smoke
rm -f "$STORE/env/current.env"
mkfifo "$STORE/env/current.env"
expect_exit 1 "launcher_env_fifo: run with a FIFO as env file fails at once" \
	timeout 60 "$MESA" --store "$STORE" run true
check "launcher_env_fifo: it says the env file is not a regular file" grep -qF "is not a regular file" "$T/err"
rm -f "$STORE/env/current.env"
ln -s /dev/zero "$STORE/env/current.env"
expect_exit 1 "launcher_env_dev_zero: run with /dev/zero as env file fails at once" \
	timeout 60 "$MESA" --store "$STORE" run true
rm -f "$STORE/env/current.env"

# --- only the five variables a release selects are applied
printf 'VK_DRIVER_FILES=/x/turnip.json\nLD_PRELOAD=/tmp/evil.so\n' >"$STORE/env/current.env"
expect_exit 1 "launcher_env_other_variable: an env file that sets LD_PRELOAD is refused" \
	"$MESA" --store "$STORE" run sh -c 'echo "${LD_PRELOAD-unset}"'
check "launcher_env_other_variable: it names the variable" grep -q "sets LD_PRELOAD, which is not one of the variables" "$T/err"
check "launcher_env_other_variable: the command did not run" test ! -s "$T/out"
mkdir -p "$T/pstore"
printf 'VK_DRIVER_FILES=/x/turnip.json\nLD_PRELOAD=/tmp/evil.so\nPATH=/tmp/evil\n' >"$T/pstore/env.conf"
check "profile_d_other_variable: the login snippet applies VK_DRIVER_FILES but not LD_PRELOAD or PATH" \
	test "$(env -u LD_PRELOAD TB323FU_MESA_DIR="$T/pstore" sh -c '. "$1"; echo "$VK_DRIVER_FILES ${LD_PRELOAD-unset} $PATH"' sh "$TB_TOP/dist/profile.d/tb323fu-mesa.sh")" = "/x/turnip.json unset $PATH"

# --- SIGTERM, SIGINT and SIGHUP while unpacking: staging is removed, the sentence says so
BIG=$(STANDIN_PAD_MB=150 standin 2026.10.20 --commit big)
# The writer is stopped after the archive's first entry (docs/design.md §14), so the signal
# comes while it unpacks on any machine; the signal ends the stop and the unpack.
for sig in TERM INT HUP; do
	S2="$T/store-sig-$sig"
	check "signal_during_unpack: SIG$sig: the writer is in the middle of unpacking" \
		paused unpacking "$CTL" --store "$S2" --json mesa install-local "$BIG" --no-smoke
	kill -s "$sig" "$paused_pid" 2>/dev/null
	wait "$paused_job"
	rc=$?
	resume
	mv "$T/paused.out" "$T/out" && mv "$T/paused.err" "$T/err"
	check "signal_during_unpack: SIG$sig while unpacking exits 1" test "$rc" -eq 1
	check "signal_during_unpack: SIG$sig: it says what was interrupted" grep -q "interrupted by SIG$sig.* while unpacking" "$T/err"
	check "signal_during_unpack: SIG$sig: reason interrupted" grep -q '"reason":"interrupted"' "$T/out"
	check "signal_during_unpack: SIG$sig: no staging is left" \
		test -z "$(find "$S2/versions" -maxdepth 1 -name '.*' 2>/dev/null)"
done

# --- the launcher's messages show what they quote, never obey it
expect_exit 127 "terminal_escapes_launcher: a command name with escapes is not found" \
	"$MESA" --store "$STORE" distro "$(printf 'x\033]52;c;aGk=\007\033[2J')"
check "terminal_escapes_launcher: the message has no control byte" \
	sh -c "grep -qF 'x\\x1b]52;c;aGk=\\x07' '$T/err' && ! grep -q '[[:cntrl:]]' '$T/err'"

done_testing
