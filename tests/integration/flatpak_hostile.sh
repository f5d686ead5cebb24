#!/bin/sh
# A runtime's files as whoever may write a Flatpak installation could leave them (docs/design.md
# §17): `flatpak export` reads a runtime branch's libraries for its ABI check, and a FIFO where
# libc.so.6 belongs is refused at once (never waited on), a sparse ELF file whose version
# section claims 3 GiB is refused without being read (the memory a bound of the test's shell
# allows is far below), and links planted above our own folders (extension/, the extension's
# folder, the architecture's) are refused, naming them; every refusal leaves the store and the
# installation as they were; a link where the installation's overrides/ belongs is not written
# through by on and off, which say so. The runtime is laid out as flatpak deploys one
# (runtime/org.freedesktop.Platform/ARCH/BRANCH/active/{metadata,files}), made here from this
# system's C library: what is read is the installation's files, not flatpak.
. "$TB_TOP/tests/lib.sh"

R1=$(tiny_release 2026.1.1 "$T/r1") || { not_ok "tiny release"; done_testing; exit 1; }
expect_exit 0 "a version installs" ctl mesa install-local "$R1" --no-smoke

ML=$(gcc -print-multiarch 2>/dev/null || dpkg-architecture -qDEB_HOST_MULTIARCH)
case $(uname -m) in i?86) ARCH=i386 ;; arm64) ARCH=aarch64 ;; *) ARCH=$(uname -m) ;; esac
INST=$FLATPAK_USER_DIR
RT=$INST/runtime/org.freedesktop.Platform/$ARCH/24.08/active
LIBC=$RT/files/lib/$ML/libc.so.6
mkdir -p "$RT/files/lib/$ML/GL" "$INST/extension"
cat >"$RT/metadata" <<EOF
[Runtime]
name=org.freedesktop.Platform
runtime=org.freedesktop.Platform/$ARCH/24.08

[Extension org.freedesktop.Platform.GL]
versions=24.08;1.4
directory=lib/$ML/GL
subdirectories=true
EOF
cp -L "/usr/lib/$ML/libc.so.6" "$LIBC"
EXT=$INST/extension/org.freedesktop.Platform.GL.tb323fu-mesa-2026_1_1

# digest: the store and the installation, to tell that a refusal changed nothing
digest() { store_digest; (cd "$INST" && find . -printf '%p %y %l\n' | sort); }

expect_exit 0 "export to the runtime as it should be" ctl mesa flatpak export --user
check "…the extension is there" test -d "$EXT/$ARCH/24.08"
expect_exit 0 "unexport" ctl mesa flatpak unexport --user

# --- a FIFO where the C library belongs ---
mv "$LIBC" "$T/libc.so.6"
mkfifo "$LIBC"
digest >"$T/before"
# no writer ever opens the FIFO: an open that waits would wait for ever (the guard of 120 s
# only turns that into a failure here; nothing waits for it to pass)
expect_exit 4 "export with a FIFO for libc.so.6: refused, not waited on" \
	timeout -k 5 120 "$CTL" --store "$STORE" --json mesa flatpak export --user
reason_is damaged
check "…naming the FIFO and what to do" \
	test "$(json_strict "$T/out" '"'"$LIBC"' is not a regular file" in d["message"] and "replace it with the file" in d["message"]')" = True
digest >"$T/after"
check "…the store and the installation are as they were" cmp -s "$T/before" "$T/after"
rm "$LIBC"

# --- a sparse ELF file whose version section claims 3 GiB ---
python3 - "$T/libc.so.6" "$LIBC" <<'EOF'
import struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
assert data[:4] == b'\x7fELF' and data[4] == 2 and data[5] == 1, 'a 64-bit little-endian ELF'
shoff, = struct.unpack_from('<Q', data, 0x28)
shentsize, shnum = struct.unpack_from('<HH', data, 0x3a)
big = 3 << 30
for i in range(shnum):
    at = shoff + i * shentsize
    if struct.unpack_from('<I', data, at + 4)[0] == 0x6ffffffd:  # SHT_GNU_verdef
        offset, = struct.unpack_from('<Q', data, at + 0x18)
        struct.pack_into('<Q', data, at + 0x20, big)
        break
else:
    sys.exit('no version definitions')
with open(sys.argv[2], 'wb') as f:
    f.write(data)
    f.truncate(offset + big)  # a hole: nothing on disk
EOF
check "the sparse libc.so.6 is 3 GiB long and takes no room" \
	test "$(stat -c %s "$LIBC")" -gt 3221225472 -a "$(du -k "$LIBC" | cut -f1)" -lt 65536
digest >"$T/before"
# A limit of the shell's own, so that a reader without the bound fails here instead of taking
# the machine's memory (a sanitizer's shadow counts as data: not there).
# shellcheck disable=SC3045 # dash, Debian's sh, takes ulimit -d
limited() { if ldd "$CTL" | grep -q libasan; then "$@"; else (ulimit -d 1048576 && "$@"); fi; }
expect_exit 4 "export with a version section that claims 3 GiB: refused" limited ctl --json mesa flatpak export --user
reason_is damaged
check "…saying what the section claims, the bound, and what to do" \
	test "$(json_strict "$T/out" '"'"$LIBC"' is a damaged ELF file (a section claims 3221225472 bytes" in d["message"] and "at most 64 MiB" in d["message"] and "replace it with the file" in d["message"]')" = True
digest >"$T/after"
check "…the store and the installation are as they were" cmp -s "$T/before" "$T/after"
cp "$T/libc.so.6" "$LIBC"

# --- links planted above our own folders ---
mkdir -p "$T/elsewhere"
plant_refused() { # plant_refused NAME LINK: a link at LINK (to $T/elsewhere) is refused, naming it
	ln -s "$T/elsewhere" "$2"
	digest >"$T/before"
	expect_exit 1 "export with $1 a link: refused" ctl --json mesa flatpak export --user
	reason_is not-ours
	check "…naming the link and what to do" \
		test "$(json_strict "$T/out" '"'"$2"'" in d["message"] and "link" in d["message"] and "remove" in d["message"]')" = True
	check "…nothing written where it points" test -z "$(ls -A "$T/elsewhere")"
	digest >"$T/after"
	check "…the store and the installation are as they were" cmp -s "$T/before" "$T/after"
	rm "$2"
}
rmdir "$INST/extension"
plant_refused "extension/" "$INST/extension"
mkdir -p "$INST/extension"
plant_refused "the extension's folder" "$EXT"
mkdir -p "$EXT"
plant_refused "the architecture's folder" "$EXT/$ARCH"
# a link at the export's temporary (.<version>.tmp.<pid>, the pid the writer's own: exec keeps
# the shell's) and at a file's temporary in it: removed, never followed
mkdir -p "$T/elsewhere-tmp" "$EXT/$ARCH"
expect_exit 0 "export with links planted at its temporaries" sh -c '
	ln -s "$1" "$2/.24.08.tmp.$$"
	shift 2
	exec "$@"' sh "$T/elsewhere-tmp" "$EXT/$ARCH" "$CTL" --store "$STORE" mesa flatpak export --user
check "…nothing written where they point" test -z "$(ls -A "$T/elsewhere-tmp")"
expect_exit 0 "unexport" ctl mesa flatpak unexport --user
expect_exit 0 "export with every folder as it should be" ctl mesa flatpak export --user
check "…the extension is there" test -f "$EXT/$ARCH/24.08/vulkan/icd.d/tb323fu-mesa-2026_1_1.json" -o -d "$EXT/$ARCH/24.08"
expect_exit 0 "unexport" ctl mesa flatpak unexport --user

# --- a link where the installation's overrides/ belongs: on and off go on, writing nothing there ---
mkdir -p "$T/elsewhere-overrides"
ln -s "$T/elsewhere-overrides" "$INST/overrides"
expect_exit 0 "on with overrides/ a link" ctl mesa on
check "…nothing written where it points" test -z "$(ls -A "$T/elsewhere-overrides")"
check "…and a warning names the link and what to do" \
	grep -q "^warning: $INST/overrides is a symbolic link where Flatpak's overrides folder belongs; the session's Flatpak setting was not written through it (remove the link and run the command again)" "$T/out"
expect_exit 0 "off with overrides/ a link" ctl mesa off
check "…nothing written where it points" test -z "$(ls -A "$T/elsewhere-overrides")"
check "…the same warning" grep -q "^warning: $INST/overrides is a symbolic link" "$T/out"
rm "$INST/overrides"
expect_exit 0 "on with overrides/ a folder again" ctl mesa on
check "…writes our key there" grep -q OCL_ICD_VENDORS "$INST/overrides/global"
expect_exit 0 "off" ctl mesa off

done_testing
