#!/bin/sh
# CTS releases (docs/design.md §19): build-recipes/cts-release packs prebuilt suites (the doubles
# of dEQP-VK and OpenCL-CTS) into tb323fu-cts-V-ARCH.tar.gz with a MANIFEST of kind=cts, the
# case lists and a build record; the same inputs give the same bytes; a link that leaves a part
# is refused; and publish --kind cts makes the GitHub release cts-V signed with tag:cts-V.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"

V=2026.12.05
arch=$(uname -m)
R=$(cts_stand_in "$T/rel" $V) || { not_ok "cts_stand_in makes a CTS release"; done_testing; exit 1; }
ok "cts_stand_in makes a CTS release with build-recipes/cts-release"
tar -xOzf "$R" MANIFEST >"$T/manifest" 2>/dev/null
check "…named tb323fu-cts-$V-$arch.tar.gz, beside its SHA256SUMS" sh -c "
	test '$(basename "$R")' = 'tb323fu-cts-$V-$arch.tar.gz' && grep -q '  tb323fu-cts-$V-$arch.tar.gz\$' '$T/rel/SHA256SUMS'"
check "…its MANIFEST is kind=cts with deqp_vk and opencl_cts_dir, and names no drivers" sh -c "
	grep -qx 'kind=cts' '$T/manifest' && grep -qx 'deqp_vk=lib/deqp-vk/deqp-vk' '$T/manifest' &&
	grep -qx 'opencl_cts_dir=lib/opencl-cts' '$T/manifest' && ! grep -q '^drivers=' '$T/manifest'"
check "…dEQP-VK executable with its case lists, the two OpenCL-CTS binaries, the build record" sh -c "
	grep -q ' 755 [0-9]* lib/deqp-vk/deqp-vk\$' '$T/manifest' &&
	grep -q ' 644 [0-9]* lib/deqp-vk/caselists/info.txt\$' '$T/manifest' &&
	grep -q ' 644 [0-9]* lib/deqp-vk/caselists/api.smoke.txt\$' '$T/manifest' &&
	grep -q ' 755 [0-9]* lib/opencl-cts/basic/test_basic\$' '$T/manifest' &&
	grep -q ' 755 [0-9]* lib/opencl-cts/other/test_other\$' '$T/manifest' &&
	grep -q ' 644 [0-9]* share/tb323fu-cts/build-record.json\$' '$T/manifest'"
check "…the case lists are the doubles' names" test "$(tar -xOzf "$R" tree/lib/deqp-vk/caselists/api.smoke.txt)" = \
	"$(grep '^dEQP-VK\.api\.smoke\.' "$TB_TOP/tests/doubles/fake-deqp-vk.cases")"
tar -xOzf "$R" tree/share/tb323fu-cts/build-record.json >"$T/record.json" 2>/dev/null
check "the build record names the kind, version, arch, recipe commit and the prebuilt parts, and no time of the build or folder" \
	test "$(json_strict "$T/record.json" '(d["format"], d["kind"], d["version"], d["arch"], len(d["recipe_commit"]) >= 40, d["prebuilt"], d["sources"])')" = \
	"(1, 'cts', '$V', '$arch', True, ['deqp-vk', 'opencl-cts'], [])"
check "…and a copy of it lies beside the tarball" cmp "$T/record.json" "$T/rel/tb323fu-cts-$V-$arch.build-record.json"
check "…which names no folder of this machine" sh -c "! grep -q -e '$T' -e '$TB_TOP' '$T/record.json'"

# --- the same inputs, the same bytes (other output folder, later, other umask)
sleep 1
R2=$( (umask 077 && cd / && cts_stand_in "$T/other/place" $V)) || not_ok "a second cts-release"
check "two runs from the same inputs give the same tarball (SHA-256)" \
	test "$(sha256sum <"$R" | cut -d' ' -f1)" = "$(sha256sum <"$R2" | cut -d' ' -f1)"
R3=$(SOURCE_DATE_EPOCH=1767225601 cts_stand_in "$T/later" $V) || not_ok "a third cts-release"
check "…and another SOURCE_DATE_EPOCH another one" sh -c "! cmp -s '$R' '$R3'"

# --- what is refused
D=$T/doubles
mkdir -p "$D"
cp -R "$T/cts-doubles/deqp" "$T/cts-doubles/ocl" "$D/"
cr() { SOURCE_DATE_EPOCH=1767225600 TB323FU_CTL="$CTL" "$TB_TOP/build-recipes/cts-release" --version $V --out "$T/refused" "$@"; }
ln -s /etc/passwd "$D/deqp/caselists/passwd.txt"
expect_exit 1 "a case list that is a link out of the dEQP-VK folder is refused" cr --deqp "$D/deqp" --opencl-cts "$D/ocl"
check "…saying which link and where it leads" grep -q "caselists/passwd.txt is a link out of .* (to /etc/passwd): refused" "$T/err"
check "…and nothing is packed" test ! -e "$T/refused/tb323fu-cts-$V-$arch.tar.gz"
rm "$D/deqp/caselists/passwd.txt"
ln -s ../deqp-vk "$D/deqp/caselists/inside.txt"
expect_exit 0 "a link that stays inside is packed" cr --deqp "$D/deqp" --opencl-cts "$D/ocl"
check "…as a copy of the file it names" sh -c "tar -tvzf '$T/refused/tb323fu-cts-$V-$arch.tar.gz' | grep -q '^-.* tree/lib/deqp-vk/caselists/inside.txt\$'"
rm "$D/deqp/caselists/inside.txt"
mkdir -p "$D/ocl/third"
cp "$D/ocl/test_basic" "$D/ocl/third/test_third"
ln -s /etc "$D/ocl/third/data"
expect_exit 1 "a test's data that links out of its folder is refused" cr --deqp "$D/deqp" --opencl-cts "$D/ocl"
check "…saying so" grep -q "third/data is a link out of" "$T/err"
rm -r "$D/ocl/third"
other=x86_64
[ "$arch" != x86_64 ] || other=aarch64
cp "$CTL" "$D/ocl/test_elf"
expect_exit 1 "an ELF binary of this machine in a release for $other is refused" cr --arch $other --deqp "$D/deqp" --opencl-cts "$D/ocl"
check "…naming it" grep -q "test_elf is an ELF file for another machine" "$T/err"
rm -r "$D/ocl/test_elf" "$T/refused"
# a CMake build whose binary still names its folders (built without -ffile-prefix-map)
B=$T/cmake-built
mkdir -p "$B/build/test_conformance/basic" "$D/from-cmake"
printf 'CMAKE_HOME_DIRECTORY:INTERNAL=%s\n' "$B/src" >"$B/build/CMakeCache.txt"
{ cat "$D/ocl/test_basic"; echo "# $B/src/test_common/harness/testHarness.cpp"; } >"$B/build/test_conformance/basic/test_basic"
chmod 0755 "$B/build/test_conformance/basic/test_basic"
ln -s "$B/build/test_conformance/basic/test_basic" "$D/from-cmake/test_basic"
expect_exit 1 "an OpenCL-CTS binary that names the sources CMake configured is refused" cr --deqp "$D/deqp" --opencl-cts "$D/from-cmake"
check "…saying which file names which folder, and what to do" grep -q \
	"1 of the release's files name the folder they were built in (lib/opencl-cts/basic/test_basic names $B/src), so the release would differ built anywhere else: build them with the recipes, or with -ffile-prefix-map=FOLDER=. for each such folder, and pack again" "$T/err"
check "…and nothing is packed" test ! -e "$T/refused/tb323fu-cts-$V-$arch.tar.gz"
{ cat "$D/ocl/test_basic"; echo "# $B/build/test_conformance/basic/generated.h"; } >"$B/build/test_conformance/basic/test_basic"
expect_exit 1 "…and one that names its build tree" cr --deqp "$D/deqp" --opencl-cts "$D/from-cmake"
check "…naming that" grep -q "(lib/opencl-cts/basic/test_basic names $B/build)" "$T/err"
{ cat "$D/ocl/test_basic"; echo "# ./src/test_common/harness/testHarness.cpp"; } >"$B/build/test_conformance/basic/test_basic"
expect_exit 0 "the same binary built with the folder mapped to . is packed" cr --deqp "$D/deqp" --opencl-cts "$D/from-cmake"
rm -r "$D/from-cmake"
expect_exit 2 "an unknown --arch is a usage error" cr --arch mips --deqp "$D/deqp" --opencl-cts "$D/ocl"
check "…naming the two" grep -q "is x86_64 or aarch64" "$T/err"

# --- published as cts-V, signed with tag:cts-V
WWW=$T/www
mkdir -p "$WWW" "$T/keys"
printf 'ghp_ctsReleaseTest0123456789\n' >"$WWW/.token"
cp "$WWW/.token" "$T/token"
minisign -G -W -p "$T/keys/cts.pub" -s "$T/cts.key" >/dev/null </dev/null
start_httpd "$WWW" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="http://127.0.0.1:$PORT"
pub() { "$TB_TOP/build-recipes/publish" --repo o/r --key "$T/cts.key" --api "$API" --uploads "$API/uploads" \
	--token-file "$T/token" "$@"; }
expect_exit 1 "publish (of Mesa, the default) finds no Mesa release in a CTS release's folder" pub "$T/rel"
check "…saying so" grep -q "tb323fu-mesa-" "$T/err"
expect_exit 0 "publish --kind cts publishes the CTS release" pub --kind cts --comment "run:https://github.com/o/r/actions/runs/7" "$T/rel"
check "…as cts-$V" sh -c "grep -q 'release cts-$V created' '$T/out' && grep -q 'release cts-$V published' '$T/out'"
check "…titled CTS $V, with the tarball, SHA256SUMS and its signature" python3 -c '
import json, sys
rs = [r for r in json.load(open(sys.argv[1])) if r["tag_name"] == "cts-" + sys.argv[2]]
assert len(rs) == 1 and rs[0]["name"] == "CTS " + sys.argv[2] and not rs[0]["draft"], rs
names = sorted(a["name"] for a in rs[0]["assets"])
assert names == ["SHA256SUMS", "SHA256SUMS.minisig", "tb323fu-cts-%s-%s.tar.gz" % (sys.argv[2], sys.argv[3])], names
' "$WWW/repos/o/r/releases" $V "$arch"
check "…whose trusted comment starts tag:cts-$V" sh -c "minisign -V -p '$T/keys/cts.pub' -m '$T/rel/SHA256SUMS' </dev/null |
	grep -qx 'Trusted comment: tag:cts-$V run:https://github.com/o/r/actions/runs/7'"
expect_exit 1 "publish --kind refuses a kind it does not know" pub --kind gl "$T/rel"
check "…naming the two" grep -q -- "--kind is mesa or cts" "$T/err"

done_testing
