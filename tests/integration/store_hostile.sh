#!/bin/sh
# Damaged and hostile releases: each refused with exit 4 and a sentence naming the problem,
# nothing left in versions/, nothing written outside the store.
. "$TB_TOP/tests/lib.sh"

GEN="$TB_TOP/tests/tools/hostile-release.py"
work="$T/work"
mkdir -p "$work"
cd "$work" || exit 1

# refused CASE PATTERN DESCRIPTION [TARBALL SUMS]: install-local exits 4, says PATTERN.
refused() {
	c=$1 pattern=$2 what=$3
	tarball=${4:-$(python3 "$GEN" "$c" "$T/rel-$c")}
	sums=${5:-$T/rel-$c/SHA256SUMS}
	expect_exit 4 "$what: refused with exit 4" ctl --json mesa install-local "$tarball" --sums "$sums" --no-smoke
	case $c in
	flip*) reason_is "damaged|hash-mismatch" ;;
	not-in-sums) reason_is sums-invalid ;;
	wrong-sum) reason_is hash-mismatch ;;
	unlisted | missing | size | hash | mode) reason_is manifest-mismatch ;;
	arch) reason_is arch-mismatch ;;
	version-slash | no-manifest) reason_is manifest-invalid ;;
	bomb) reason_is bomb ;;
	*) reason_is unsafe-archive ;;
	esac
	if grep -q "$pattern" "$T/err" && [ "$(wc -l <"$T/err")" -eq 1 ]; then
		ok "$what: one sentence naming the problem"
	else
		not_ok "$what: one sentence naming the problem" "stderr: $(cat "$T/err")" "wanted: $pattern"
	fi
	if [ -z "$(ls -A "$STORE/versions" 2>/dev/null)" ]; then ok "$what: nothing left in versions/"
	else not_ok "$what: nothing left in versions/" "$(ls -A "$STORE/versions")"; fi
}

good=$(python3 "$GEN" good "$T/rel-good")
flipped="$T/rel-flip/$(basename "$good")"
mkdir -p "$T/rel-flip" && cp "$good" "$flipped" && cp "$T/rel-good/SHA256SUMS" "$T/rel-flip/"
size=$(stat -c %s "$flipped")
# one byte in the middle of the compressed stream, one in the gzip trailer (only the hash sees that)
printf '\125' | dd of="$flipped" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
refused flip "damaged\|does not match" "a flipped byte in the tarball" "$flipped" "$T/rel-flip/SHA256SUMS"
cp "$good" "$flipped"
printf 'x' | dd of="$flipped" bs=1 seek=$((size - 1)) conv=notrunc 2>/dev/null
refused flip-trailer "damaged\|does not match its SHA256SUMS" "a flipped byte in the gzip trailer" "$flipped" "$T/rel-flip/SHA256SUMS"
printf '%064d  other-file.tar.gz\n' 0 >"$T/other-sums"
refused not-in-sums "SHA256SUMS has no line for" "a tarball not in --sums" "$good" "$T/other-sums"
sed 's/^./0/' "$T/rel-good/SHA256SUMS" >"$T/wrong-sums"
refused wrong-sum "does not match its SHA256SUMS" "a tarball whose SHA-256 differs from --sums" "$good" "$T/wrong-sums"

refused dotdot "unsafe path" "an entry with ../"
refused absolute "unexpected entry \"/tmp/evil-absolute\"" "an absolute path"
refused symlink-out "points out of the tree" "a symbolic link out of the tree"
refused hardlink "is a hard link" "a hard link"
refused device "device, FIFO or socket" "a device node"
refused fifo "device, FIFO or socket" "a FIFO"
refused setuid "setuid" "a setuid file"
refused duplicate "twice" "a duplicate entry"
refused unlisted "is not listed in its MANIFEST" "a file the MANIFEST does not list"
refused missing "listed in its MANIFEST but missing" "a listed file that is missing"
refused size "different size" "a size mismatch"
refused hash "different SHA-256" "a hash mismatch"
refused mode "different mode" "a mode mismatch"
refused arch "built for" "a wrong arch"
refused version-slash "invalid version" "a version with a slash"
refused no-manifest "has no MANIFEST" "a release without MANIFEST"
refused bomb "decompression bomb" "a decompression bomb (ratio cap)"

check "nothing was written outside the store" sh -c "test ! -e /tmp/evil-absolute && test -z \"\$(find '$T' -name 'evil-*' 2>/dev/null)\""
check "the working directory is untouched" test -z "$(ls -A "$work")"

# version arguments are checked before any path is built from them
expect_exit 2 "install with a version holding a slash" ctl --json mesa install "../2026.1.1"
reason_is usage
expect_exit 2 "install with a version holding a newline" ctl --json mesa install "2026.1.1
evil"
reason_is usage
expect_exit 2 "verify with a version holding a slash" ctl --json mesa verify "a/b"
reason_is usage

# verify names the file whose byte changed
expect_exit 0 "a good release installs" ctl mesa install-local "$good" --no-smoke
expect_exit 0 "verify passes on an intact tree" ctl mesa verify
chmod u+w "$STORE/versions/2026.1.1/share/demo/README"
printf 'D' | dd of="$STORE/versions/2026.1.1/share/demo/README" bs=1 seek=0 conv=notrunc 2>/dev/null
expect_exit 4 "verify after one byte changed exits 4" ctl --json mesa verify 2026.1.1
reason_is damaged
check "verify names the damaged file" grep -q "share/demo/README (content changed)" "$T/err"
touch "$STORE/versions/2026.1.1/lib/intruder"
expect_exit 4 "verify finds an extra file" ctl --json mesa verify
reason_is damaged
check "verify names the extra file" grep -q "lib/intruder (not in the MANIFEST)" "$T/err"
done_testing
