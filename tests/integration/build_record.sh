#!/bin/sh
# A build record that is not the release's (docs/design.md §19): one whose version,
# architecture or drivers contradict the release's MANIFEST, or that names a key twice, is
# not shown as the release's: doctor names what it says against the MANIFEST (a problem), and
# the release installs and runs as before (a record is never a reason to refuse a release).
. "$TB_TOP/tests/lib.sh"

arch=$(uname -m)
S=$T/stage
mkdir -p "$S/lib" "$S/share/tb323fu-mesa"
tiny_release 2026.1.1 "$T/r0" >/dev/null || { not_ok "tiny release"; done_testing; exit 1; }
cp "$T/tiny-stage/lib/libvk.so" "$T/tiny-stage/lib/libcl.so.1" "$S/lib/"
sha_a=a3f1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90
# record VERSION ARCH DRIVERS [EXTRA]: the stage's build record
record() {
	cat >"$S/share/tb323fu-mesa/build-record.json" <<EOF2
{
 "arch": "$2",
 "drivers": "$3",
 "format": 1,
 "mesa_version": "25.0.7",
 "recipe_commit": "0123456789abcdef0123456789abcdef01234567",
 "source_date_epoch": 1767225600,
 "sources": [{"name": "mesa_25.0.7-2.dsc", "sha256": "$sha_a"}],
 "toolchain": {"c": "gcc 14.2.0"${4:-}},
 "version": "$1"
}
EOF2
	chmod 644 "$S"/lib/* "$S"/share/tb323fu-mesa/*
}
# release VERSION: packs and installs the stage as VERSION
release() {
	rm -rf "$T/rel-$1"
	"$CTL" mesa pack --stage "$S" --version "$1" --commit c --base b --mesa-version 25.0.7 \
		--drivers vulkan,opencl --vulkan-lib lib/libvk.so --opencl-lib lib/libcl.so.1 \
		--rusticl-enable llvmpipe "$T/rel-$1" >/dev/null &&
		ctl mesa install-local "$T/rel-$1/tb323fu-mesa-$1-"*.tar.* --no-smoke >/dev/null
}

record 2026.2.1 "$arch" opencl,vulkan
check "a release whose record agrees with its MANIFEST (drivers in another order) installs" release 2026.2.1
expect_exit 0 "doctor" ctl --json mesa doctor
check "…shows the record as the release's" test "$(json_strict "$T/out" 'd["build_record"]["present"], d["build_record"]["version"]')" = "(True, '2026.2.1')"

v=2026.3.0
for case in "version 2026.2.1 2026.3.1" "arch sparc64 $arch" "drivers vulkan vulkan,opencl"; do
	# shellcheck disable=SC2086 # the words of one case
	set -- $case
	v=2026.3.$(( ${v#2026.3.} + 1 ))
	case $1 in
	version) record 2026.2.1 "$arch" vulkan,opencl; said=2026.2.1 man=$v ;;
	arch) record "$v" sparc64 vulkan,opencl; said=sparc64 man=$arch ;;
	drivers) record "$v" "$arch" vulkan; said=vulkan man=vulkan,opencl ;;
	esac
	check "a release whose record gives another $1 installs all the same" release "$v"
	expect_exit 1 "doctor with that record" ctl --json mesa doctor
	check "…does not show it as the release's" test "$(json_strict "$T/out" 'd["build_record"]["present"]')" = False
	want="the build record (share/tb323fu-mesa/build-record.json) says $1 $said, but the release's MANIFEST says $man: it is another build's record, so nothing is shown of it; rebuild the release with the recipes"
	check "…and says what it says against the MANIFEST, and what to do" \
		test "$(WANT=$want json_strict "$T/out" '__import__("os").environ["WANT"] in d["message"]')" = True
done

v=2026.4.1
record "$v" "$arch" vulkan,opencl ', "c": "clang 19"'
check "a release whose record names a key twice installs all the same" release "$v"
expect_exit 1 "doctor with that record" ctl --json mesa doctor
check "…does not show it, saying the key is named twice" \
	test "$(json_strict "$T/out" 'd["build_record"]["present"] is False and "names a key twice in one object" in d["message"]')" = True

done_testing
