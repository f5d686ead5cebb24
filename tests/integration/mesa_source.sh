#!/bin/sh
# The Mesa the tablet's releases are built from (build-recipes/mesa-source, lib.sh's mesa_source
# and shim_patch): the pinned archive is read only after its SHA-256 matched, unpacked once, and
# must hold the version the pin names; a download is refused while upstream's SHA-256 is not
# pinned; each Mesa gets the shim's Adreno 840 entry of its own patch, once. Tiny archives stand
# in for Mesa's in a checkout of their own; the real pin and the real 26.2 archive (where the
# shared upstream archives are) are checked too.
. "$TB_TOP/tests/lib.sh"

# A checkout with build-recipes/ (lib.sh, the patches) and a mesa-source pinning ARCHIVE's hash.
top=$T/top
mkdir -p "$top/build-recipes" "$T/third" "$T/cache"
cp "$TB_TOP/build-recipes/lib.sh" "$TB_TOP/build-recipes/shim-adreno840.patch" \
	"$TB_TOP/build-recipes/shim-adreno840-mesa26.patch" "$top/build-recipes/"
# tiny VERSION NAME: a Mesa-shaped tree of that version packed as T/third/NAME (xz)
tiny() {
	rm -rf "$T/pack"
	mkdir -p "$T/pack/mesa-$1/src/freedreno/drm-shim"
	echo "$1" >"$T/pack/mesa-$1/VERSION"
	echo "project('mesa')" >"$T/pack/mesa-$1/meson.build"
	tar -cJf "$T/third/$2" -C "$T/pack" "mesa-$1"
}
pin() { # pin VERSION SHARED-SHA256 [UPSTREAM-SHA256]
	cat >"$top/build-recipes/mesa-source" <<EOF
mesa_source_version=$1
mesa_source_archive=mesa-\$mesa_source_version.tar.xz
mesa_source_url=http://127.0.0.1:9/\$mesa_source_archive
mesa_source_upstream_sha256=${3:-}
mesa_source_shared_sha256=$2
EOF
}
# source_of WHERE: lib.sh's mesa_source in that checkout; prints the tree and the record line
source_of() {
	(cd "$top" && sh -euc 'top=$PWD; . build-recipes/lib.sh; mesa_source "$1" "$2"
		echo "$mesa_source_tree"; echo "$mesa_source_record"' mesa-source "$1" "$T/cache")
}

tiny 26.2.0-rc1 mesa-26.2.0-rc1.tar.xz
sum=$(sha256sum "$T/third/mesa-26.2.0-rc1.tar.xz" | cut -d' ' -f1)
pin 26.2.0-rc1 "$sum"
expect_exit 0 "the pinned archive with its pinned SHA-256 is unpacked" source_of "$T/third"
check "…into the cache, named by its version and hash" \
	test "$(sed -n 1p "$T/out")" = "$T/cache/mesa-26.2.0-rc1-$(echo "$sum" | cut -c1-12)/tree"
check "…and the build record's line names the archive by its hash" \
	test "$(sed -n 2p "$T/out")" = "$sum  mesa-26.2.0-rc1.tar.xz"
touch "$T/cache/mesa-26.2.0-rc1-$(echo "$sum" | cut -c1-12)/tree/kept"
expect_exit 0 "a second run uses the tree unpacked before" source_of "$T/third"
check "…without unpacking it again" test -f "$T/cache/mesa-26.2.0-rc1-$(echo "$sum" | cut -c1-12)/tree/kept"

tiny 26.2.0-rc1 other.tar.xz
echo x >>"$T/third/other.tar.xz"
cp "$T/third/other.tar.xz" "$T/third/mesa-26.2.0-rc1.tar.xz"
bad=$(sha256sum "$T/third/mesa-26.2.0-rc1.tar.xz" | cut -d' ' -f1)
rm -rf "$T/cache"/*
expect_exit 1 "an archive of that name with another SHA-256 is refused" source_of "$T/third"
check "…in one sentence naming both hashes" grep -qx "mesa-source: $T/third/mesa-26.2.0-rc1.tar.xz has SHA-256 $bad, not the $sum build-recipes/mesa-source pins: it is not the Mesa 26.2.0-rc1 the releases are built from" "$T/err"
check "…and nothing is unpacked" test -z "$(ls "$T/cache")"

tiny 26.1.0 mesa-26.2.0-rc1.tar.xz
pin 26.2.0-rc1 "$(sha256sum "$T/third/mesa-26.2.0-rc1.tar.xz" | cut -d' ' -f1)"
expect_exit 1 "an archive whose tree is another Mesa than the pin names is refused" source_of "$T/third"
check "…saying which it is" grep -q "unpacks to Mesa 26.1.0, not the 26.2.0-rc1 build-recipes/mesa-source names" "$T/err"

expect_exit 1 "no archive in the folder given: refused" source_of "$T/none"
check "…naming the two ways on" grep -q "give the shared archives' folder with --third-party DIR, or --source debian" "$T/err"

expect_exit 1 "a download while upstream's SHA-256 is not pinned is refused" source_of upstream
check "…before anything is downloaded, saying where the hash goes" sh -c "
	grep -q 'pins no upstream SHA-256 for mesa-26.2.0-rc1.tar.xz: copy it from Mesa' '$T/err' && test ! -e '$T/cache/download'"

# --- the shim's Adreno 840 entry, by the Mesa it is for
# shim SRC-VERSION SHIM-FILE: a tree of that version with that freedreno_noop.c, patched
shim_tree() {
	rm -rf "$T/shim"
	mkdir -p "$T/shim/src/freedreno/drm-shim"
	echo "$1" >"$T/shim/VERSION"
	cp "$2" "$T/shim/src/freedreno/drm-shim/freedreno_noop.c"
}
patch_of() { (cd "$top" && sh -euc 'top=$PWD; . build-recipes/lib.sh; shim_patch "$1"; echo "$shim_patch_name"' shim "$T/shim"); }
if third=$(third_party) && [ -f "$third/mesa-26.2.0-rc1.tar.xz" ]; then
	. "$TB_TOP/build-recipes/mesa-source"
	check "build-recipes/mesa-source pins the shared archive's SHA-256" \
		test "$(sha256sum "$third/$mesa_source_archive" | cut -d' ' -f1)" = "$mesa_source_shared_sha256"
	tar -xJf "$third/$mesa_source_archive" -C "$T" "mesa-$mesa_source_version/src/freedreno/drm-shim/freedreno_noop.c"
	shim_tree "$mesa_source_version" "$T/mesa-$mesa_source_version/src/freedreno/drm-shim/freedreno_noop.c"
	expect_exit 0 "the 26.2 shim takes its patch" patch_of
	check "…shim-adreno840-mesa26.patch" grep -qx shim-adreno840-mesa26.patch "$T/out"
	check "…and knows the 840 by its chip id" grep -q 'chip_id = 0x44050a31' "$T/shim/src/freedreno/drm-shim/freedreno_noop.c"
	cp "$T/shim/src/freedreno/drm-shim/freedreno_noop.c" "$T/patched.c"
	expect_exit 0 "a shim that knows the 840 is left alone" patch_of
	check "…byte for byte" cmp -s "$T/patched.c" "$T/shim/src/freedreno/drm-shim/freedreno_noop.c"
else
	skip "the shared Mesa 26.2 archive's shim takes its patch" "no ../shared/third_party/mesa-26.2.0-rc1.tar.xz (TB323FU_THIRD_PARTY)"
fi
# A shim that neither patch fits: refused, naming the patch and the Mesa.
printf 'int x;\n' >"$T/odd.c"
shim_tree 25.0.7 "$T/odd.c"
expect_exit 1 "a 25.x shim the patch does not fit is refused" patch_of
check "…naming shim-adreno840.patch and the Mesa" grep -q "the shim's Adreno 840 entry (shim-adreno840.patch) does not apply to Mesa 25.0.7" "$T/err"
done_testing
