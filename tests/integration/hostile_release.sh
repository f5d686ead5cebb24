#!/bin/sh
# What a hostile release can still try once its signature and hashes are right: a RUNPATH or
# RPATH that reaches outside the release (the working directory, another absolute directory),
# an ld_library_path outside it, link/path conflicts, MANIFEST values longer than the files
# they feed can carry, terminal escapes in MANIFEST values, and a renamed tarball whose
# signature names another version. Every one is refused with exit 4 and a reason.
. "$TB_TOP/tests/lib.sh"

FX=$T/fixtures
sh "$TB_TOP/tests/fixtures/elf/build.sh" "$FX" || { not_ok "fixture libraries build"; done_testing; exit 1; }

# stage NAME USER-LIB: a release tree with an OpenCL driver, lib/libtbuser.so (the fixture
# USER-LIB) and its dependency lib/libtbdep.so.1.
stage() {
	s=$T/stage-$1
	rm -rf "$s"
	mkdir -p "$s/lib"
	cp "$FX/libtbdriver.so" "$s/lib/libRusticlOpenCL.so.1"
	cp "$FX/$2" "$s/lib/libtbuser.so"
	cp "$FX/libtbdep.so.1" "$s/lib/libtbdep.so.1"
	chmod 0644 "$s/lib/"*
	echo "$s"
}
# mkrel NAME VERSION STAGE [MANIFEST-LINE…]: the release's tarball path.
mkrel() {
	n=$1
	shift
	python3 "$TB_TOP/tests/tools/mkrelease.py" "$T/rel-$n" "$@"
}
# install NAME TARBALL [ARGS…]: install-local into a store of its own ($T/store-NAME).
install() {
	n=$1 tb=$2
	shift 2
	"$CTL" --store "$T/store-$n" --json mesa install-local "$tb" --sums "$(dirname "$tb")/SHA256SUMS" --no-smoke "$@"
}
reason() { json_strict "$T/out" 'd.get("reason", "")' 2>/dev/null; }
nothing_installed() { [ -z "$(ls -A "$T/store-$1/versions" 2>/dev/null)" ]; }

# --- RUNPATH "hijack:$ORIGIN": hijack is relative to the working directory of the program
S=$(stage hijack libtbuser-hijack.so)
mkdir -p "$T/cwd/hijack"
cp "$FX/libtbdep.so.1" "$T/cwd/hijack/libtbdep.so.1"
check "runpath_working_directory: a library planted in ./hijack would be loaded (the attack is real)" \
	sh -c "cd '$T/cwd' && ldd '$S/lib/libtbuser.so' | grep -q 'hijack/libtbdep.so.1'"
R=$(mkrel hijack 2026.12.01 "$S")
expect_exit 4 "runpath_working_directory: a RUNPATH entry relative to the working directory is refused (exit 4)" \
	install hijack "$R"
check "runpath_working_directory: the sentence names the library and the entry" \
	grep -q 'lib/libtbuser.so has the RUNPATH entry "hijack", which reaches outside the release' "$T/err"
check "runpath_working_directory: reason runpath-unsafe" test "$(reason)" = runpath-unsafe
check "runpath_working_directory: nothing was installed" nothing_installed hijack

# --- RPATH of an absolute directory elsewhere
S=$(stage abs libtbuser-abs.so)
R=$(mkrel abs 2026.12.02 "$S")
expect_exit 4 "rpath_absolute_elsewhere: an RPATH of a directory outside the release and the system's is refused" \
	install abs "$R"
check "rpath_absolute_elsewhere: the sentence names the library and the entry" \
	grep -q 'lib/libtbuser.so has the RPATH entry "/opt/tb-elsewhere/lib"' "$T/err"
check "rpath_absolute_elsewhere: reason runpath-unsafe" test "$(reason)" = runpath-unsafe

# --- $ORIGIN/../../outside leaves the tree
S=$(stage escape libtbuser-escape.so)
R=$(mkrel escape 2026.12.03 "$S")
expect_exit 4 "runpath_origin_escape: \$ORIGIN/../../outside is refused" install escape "$R"
check "runpath_origin_escape: reason runpath-unsafe" test "$(reason)" = runpath-unsafe

# --- ld_library_path outside lib
S=$(stage ldpath libtbuser-plain.so)
R=$(mkrel ldpath 2026.12.04 "$S" "ld_library_path=../../../tmp")
expect_exit 4 "ld_library_path_outside: an ld_library_path outside the release is refused" install ldpath "$R"
check "ld_library_path_outside: the sentence names the entry" grep -q 'ld_library_path "../../../tmp"' "$T/err"
check "ld_library_path_outside: reason runpath-unsafe" test "$(reason)" = runpath-unsafe

# --- the safe forms still install: RUNPATH $ORIGIN from ld-wrappers
S=$(stage safe libtbuser-runpath.so)
R=$(mkrel safe 2026.12.05 "$S")
expect_exit 0 "runpath_origin_inside: RUNPATH \$ORIGIN inside the release installs" install safe "$R"

# --- a declared link whose path is also a directory of files
S=$(stage conflict libtbuser-runpath.so)
mkdir -p "$S/lib/d"
cp "$FX/libtbplain.so" "$S/lib/d/x.so"
R=$(mkrel conflict 2026.12.06 "$S" "link lib/d libRusticlOpenCL.so.1")
expect_exit 4 "link_directory_conflict: a link that is also a directory of files is refused (exit 4, not \"File exists\")" \
	install conflict "$R"
check "link_directory_conflict: the sentence names the path" grep -q "lib/d both as a link and a directory" "$T/err"
check "link_directory_conflict: nothing was installed, no staging left" sh -c "[ -z \"\$(ls -A '$T/store-conflict/versions')\" ]"

# --- values longer than the env files and sentences can carry
long=$(head -c 70000 /dev/zero | tr '\0' l)
S=$(stage caps libtbuser-runpath.so)
R=$(mkrel caps 2026.12.07 "$S" "rusticl_enable=$long")
expect_exit 4 "manifest_value_too_long: a 70,000-character rusticl_enable is refused" install caps "$R"
check "manifest_value_too_long: the sentence names the key and the limit" \
	grep -q "the value of rusticl_enable is 70000 bytes long, more than the 256" "$T/err"
check "manifest_value_too_long: reason manifest-invalid" test "$(reason)" = manifest-invalid
check "manifest_value_too_long: no env file was written" test ! -e "$T/store-caps/env/current.env"
R=$(mkrel caps2 2026.12.08 "$S" "mesa_version=$long")
expect_exit 4 "manifest_value_too_long: a 70,000-character mesa_version is refused" install caps2 "$R"
edge=$(head -c 256 /dev/zero | tr '\0' l)
R=$(mkrel caps3 2026.12.09 "$S" "rusticl_enable=$edge")
expect_exit 0 "manifest_value_at_cap: a 256-character rusticl_enable installs" install caps3 "$R"
check "manifest_value_at_cap: and the launcher reads the env file it makes" \
	"$MESA" --store "$T/store-caps3" env

# --- a renamed tarball: the signature's tag is held against the MANIFEST's version
mkdir -p "$T/keys"
minisign -G -W -p "$T/keys/release.pub" -s "$T/release.key" >/dev/null </dev/null
printf 'keys_dir = %s\nrequire_signature = true\n' "$T/keys" >"$TB323FU_MESA_CONFIG"
S=$(stage renamed libtbuser-runpath.so)
R=$(mkrel renamed 2026.12.20 "$S")
D=$(dirname "$R")
mv "$R" "$D/renamed.tar.gz"
(cd "$D" && sha256sum renamed.tar.gz >SHA256SUMS)
minisign -S -s "$T/release.key" -m "$D/SHA256SUMS" -t "tag:mesa-2026.12.19" >/dev/null </dev/null
expect_exit 4 "signature_tag_renamed_tarball: a renamed tarball signed for another version is refused" \
	install renamed "$D/renamed.tar.gz" --sig "$D/SHA256SUMS.minisig"
check "signature_tag_renamed_tarball: the sentence names both versions" \
	grep -q "its MANIFEST says version 2026.12.20, the release (its name or signed tag) is 2026.12.19" "$T/err"
check "signature_tag_renamed_tarball: reason tag-mismatch" test "$(reason)" = tag-mismatch
check "signature_tag_renamed_tarball: nothing was installed" nothing_installed renamed
minisign -S -s "$T/release.key" -m "$D/SHA256SUMS" -t "tag:mesa-2026.12.20" >/dev/null </dev/null
expect_exit 0 "signature_tag_renamed_tarball: signed for its own version it installs" \
	install renamed "$D/renamed.tar.gz" --sig "$D/SHA256SUMS.minisig"
minisign -S -s "$T/release.key" -m "$D/SHA256SUMS" -t "no tag at all" >/dev/null </dev/null
expect_exit 4 "signature_tag_missing: a renamed tarball whose signature names no release is refused" \
	install renamed2 "$D/renamed.tar.gz" --sig "$D/SHA256SUMS.minisig"
check "signature_tag_missing: reason tag-mismatch" test "$(reason)" = tag-mismatch
: >"$TB323FU_MESA_CONFIG"

# --- terminal escapes in MANIFEST values: shown, never obeyed; JSON keeps them exact
ESC=$(printf '\033')
S=$(stage escapes libtbuser-runpath.so)
R=$(mkrel escapes 2026.12.10 "$S" "mesa_version=26.3${ESC}]52;c;aGk=$(printf '\007')" \
	"base=${ESC}[2J$(printf '\r')upstream")
expect_exit 0 "terminal_escapes_manifest: a release with escapes in mesa_version and base installs" install escapes "$R"
run_cmd "$CTL" --store "$T/store-escapes" mesa status
check "terminal_escapes_manifest: status prints no escape, bell or CR byte" \
	sh -c "! grep -q '[[:cntrl:]]' '$T/out'"
check "terminal_escapes_manifest: it shows them as \\x1b, \\x07 and \\x0d" \
	sh -c "grep -qF 'Mesa 26.3\\x1b]52;c;aGk=\\x07' '$T/out' && grep -qF '\\x1b[2J\\x0dupstream' '$T/out'"
run_cmd "$CTL" --store "$T/store-escapes" --json mesa status
check "terminal_escapes_manifest: --json keeps the values exact" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["mesa_version"] != "26.3\x1b]52;c;aGk=\x07" or d["base"] != "\x1b[2J\rupstream")' "$T/out"

# --- MANIFEST values that are not UTF-8: installed (they are only shown), repaired in JSON,
# shown as \xNN to people
S=$(stage badutf8 libtbuser-runpath.so)
R=$(mkrel badutf8 2026.12.11 "$S" "mesa_version=26.3$(printf '\377')-devel" "base=up$(printf '\342\202')stream$(printf '\233')")
expect_exit 0 "invalid_utf8_manifest: a release with invalid UTF-8 in mesa_version and base installs" install badutf8 "$R"
check "invalid_utf8_manifest: install-local --json is strict UTF-8 JSON" json_strict "$T/out"
for cmd in status list; do
	run_cmd "$CTL" --store "$T/store-badutf8" --json mesa $cmd
	check "invalid_utf8_manifest: $cmd --json is strict UTF-8 JSON" json_strict "$T/out"
done
run_cmd "$CTL" --store "$T/store-badutf8" --json mesa status
check "invalid_utf8_manifest: status --json has U+FFFD in their place" \
	test "$(json_strict "$T/out" 'd["mesa_version"] == "26.3\ufffd-devel" and d["base"] == "up\ufffd\ufffdstream\ufffd"')" = True
run_cmd "$CTL" --store "$T/store-badutf8" mesa status
check "invalid_utf8_manifest: status shows the bytes as \\xNN" \
	sh -c "grep -qF '26.3\\xff-devel' '$T/out' && grep -qF 'up\\xe2\\x82stream\\x9b' '$T/out'"

# --- GL keys (docs/design.md §4): a vendor library outside GL's folder, a path out of the tree,
# a GL library without glvnd's entry; refused before anything is installed
# gl_stage NAME EGL-FIXTURE: stage NAME with GL's libraries in lib/gl
gl_stage() {
	s=$(stage "$1" libtbuser-runpath.so)
	mkdir -p "$s/lib/gl/dri"
	cp "$FX/$2" "$s/lib/gl/libEGL_mesa.so.0"
	cp "$FX/libtbdriver.so" "$s/lib/gl/libgbm.so.1"
	cp "$FX/libtbplain.so" "$s/lib/gl/dri/swrast_dri.so"
	chmod -R a+rX "$s"
	echo "$s"
}
S=$(gl_stage gl-outside libtbdriver.so)
R=$(mkrel gl-outside 2026.12.12 "$S" drivers=opencl,gl gallium_drivers=llvmpipe \
	egl_vendor_lib=lib/libtbuser.so)
expect_exit 4 "gl_vendor_outside: an EGL vendor library outside gl_lib_dir is refused (exit 4)" install gl-outside "$R"
check "gl_vendor_outside: the sentence names the key and the folder" \
	grep -q "egl_vendor_lib lib/libtbuser.so is not in gl_lib_dir lib/gl" "$T/err"
check "gl_vendor_outside: reason manifest-invalid" test "$(reason)" = manifest-invalid
check "gl_vendor_outside: nothing was installed" nothing_installed gl-outside
R=$(mkrel gl-escape 2026.12.13 "$S" drivers=opencl,gl "gl_drivers_dir=lib/gl/../../../../usr/lib/dri")
expect_exit 4 "gl_dir_escape: a gl_drivers_dir that climbs out of the tree is refused (exit 4)" install gl-escape "$R"
check "gl_dir_escape: the sentence names the key" grep -q "gl_drivers_dir must be a path under lib/" "$T/err"
check "gl_dir_escape: reason manifest-invalid" test "$(reason)" = manifest-invalid
check "gl_dir_escape: nothing was installed" nothing_installed gl-escape
S=$(gl_stage gl-noentry libtbplain.so)
R=$(mkrel gl-noentry 2026.12.14 "$S" drivers=opencl,gl gallium_drivers=llvmpipe)
expect_exit 4 "gl_vendor_no_entry: an EGL vendor library without __egl_Main is refused (exit 4)" install gl-noentry "$R"
check "gl_vendor_no_entry: the sentence names the library and the entry" \
	grep -q "the EGL vendor library lib/gl/libEGL_mesa.so.0 does not export __egl_Main" "$T/err"
check "gl_vendor_no_entry: reason driver-entry-missing" test "$(reason)" = driver-entry-missing
check "gl_vendor_no_entry: nothing was installed" nothing_installed gl-noentry

done_testing
