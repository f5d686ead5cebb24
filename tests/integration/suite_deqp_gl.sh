#!/bin/sh
# The GL modules of the CTS (dEQP-GLES2, dEQP-GLES3, dEQP-EGL) through both sides by dEQP-VK's
# machinery: first on the double that writes real QPA logs (tests/doubles/fake-deqp-vk), laid
# out as a VK-GL-CTS build's modules/ folder: the binary found in its folder, a regression and
# an expected failure, the store's side under the version's own EGL vendor and the
# distribution's under the system's vendor file of the same library, the pbuffer options,
# deqp_gl_dir, smoke_suite rolling a regression back, and what is refused (another module's
# cases, a release without GL, a binary anyone may replace, no binary). Then, when
# build-recipes/deqp-gl built the real binaries (TB323FU_DEQP_GL_DIR, else its cache), the quick
# set on both sides (dEQP-GLES2's info and functional.prerequisite, dEQP-GLES3's and dEQP-EGL's
# info), with the libraries each side really loaded.
. "$TB_TOP/tests/lib.sh"

V1=2026.08.01
V2=2026.08.02
V3=2026.08.03
R1=$(standin $V1) && R2=$(standin $V2) && R3=$(standin $V3 --no-gl) ||
	{ not_ok "stand-in releases"; done_testing; exit 1; }
expect_exit 0 "install-local $V1" ctl mesa install-local "$R1" --sums "$(dirname "$R1")/SHA256SUMS"
REAL=$(cd "$STORE" && pwd -P)
FAKE=$TB_TOP/tests/doubles/fake-deqp-vk
mkdir -p "$T/modules/gles2" "$T/modules/gles3" "$T/modules/egl"
cp "$FAKE" "$T/modules/gles2/deqp-gles2"
cp "$FAKE" "$T/modules/gles3/deqp-gles3"
cp "$FAKE" "$T/modules/egl/deqp-egl"
cat >"$T/gl.cases" <<'EOF2'
dEQP-GLES2.info.fake.pass_1
dEQP-GLES2.functional.fake.pass_2
dEQP-GLES2.functional.fake.storefail_1
dEQP-GLES2.functional.fake.fail_1
dEQP-GLES2.functional.fake.notsupported_1
dEQP-GLES2.functional.fake.storefail_expected
dEQP-GLES3.info.fake.pass_1
dEQP-GLES3.info.fake.storefail_1
dEQP-EGL.info.fake.pass_1
EOF2
export FAKE_DEQP_CASES="$T/gl.cases" FAKE_DEQP_RECORD="$T/record" FAKE_DEQP_RECORD_GL="$T/record.gl"
fresh() { : >"$T/record" && : >"$T/record.gl"; }
result() { json "[t['store'] + '/' + t['distribution'] for t in d['results'] if t['name'] == '$1'][0]" <"$T/out"; }
SYSTEM_VENDOR=$(python3 -c 'import glob,json; print([f for f in sorted(glob.glob("/etc/glvnd/egl_vendor.d/*.json") + glob.glob("/usr/share/glvnd/egl_vendor.d/*.json")) if json.load(open(f))["ICD"]["library_path"] == "libEGL_mesa.so.0"][0])')
PBUFFER="--deqp-log-images=disable --deqp-log-shader-sources=disable --deqp-shadercache=disable --deqp-surface-type=pbuffer --deqp-gl-config-name=rgba8888d24s8ms0 --deqp-surface-width=256 --deqp-surface-height=256"

# --- a regression, an expected failure, each side on its own GL -------------------------------
C=dEQP-GLES2.functional.fake
mkdir -p "$T/conf/expected-fails/$V1"
printf '%s.storefail_expected,Fail\n' $C >"$T/conf/expected-fails/$V1/dEQP-GLES2.txt"
: >"$T/conf/mesa.conf"
fresh
TB323FU_MESA_CONFIG="$T/conf/mesa.conf" expect_exit 6 "--suite dEQP-GLES2 --deqp MODULES: a regression on the store's side" \
	ctl mesa smoke $V1 --suite dEQP-GLES2 --deqp "$T/modules" --groups functional --jobs 1 --json
check "…exactly that one regresses, the expected failure does not, under suites.dEQP-GLES2" \
	test "$(json 'd["reason"], d["suite"], d["regressions"], d["expected"], d["tests"]' <"$T/out")" = \
	"('suite-regression', 'dEQP-GLES2', ['$C.storefail_1'], ['$C.storefail_expected'], 5)"
check "…the others keep their results on both sides" \
	test "$(result $C.pass_2) $(result $C.fail_1) $(result $C.notsupported_1)" = "pass/pass fail/fail skip/skip"
check "…the sentence names the suite and the case" \
	test "$(json '"in 1 of 5 dEQP-GLES2 tests" in d["message"] and "'$C'.storefail_1" in d["message"]' <"$T/out")" = True
check "…smoke/$V1.json keeps it" \
	test "$(json 'd["suites"]["dEQP-GLES2"]["regressions"]' <"$STORE/smoke/$V1.json")" = "['$C.storefail_1']"
check "…the binary of gles2/ ran in its own folder" test "$(cut -d' ' -f1 "$T/record" | sort -u)" = "cwd=$T/modules/gles2"
check "…the store's side under the version's EGL vendor, the distribution's under the system's of the same library" \
	test "$(sed "s| EGL_PLATFORM=.*||; s|=$REAL/icd/versions/$V1/egl_vendor.json\$|=STORE|" "$T/record.gl" | sort -u | tr '\n' ' ')" = \
	"EGL=$SYSTEM_VENDOR EGL=STORE "
check "…every run on Mesa's surfaceless display, drawing into a pbuffer" \
	test "$(sed 's|^EGL=[^ ]* ||' "$T/record.gl" | sort -u)" = "EGL_PLATFORM=surfaceless options=$PBUFFER"

# --- deqp_gl_dir, the default groups, the other modules -----------------------------------------
printf 'deqp_gl_dir = %s\n' "$T/modules" >"$T/conf/mesa.conf"
TB323FU_MESA_CONFIG="$T/conf/mesa.conf" expect_exit 6 "--suite dEQP-GLES2 with deqp_gl_dir: info and functional" \
	ctl mesa smoke $V1 --suite dEQP-GLES2 --jobs 1 --json
check "…six cases, the groups recorded" test "$(json 'd["cases"], d["groups"]' <"$T/out")" = "(6, 'info,functional')"
TB323FU_MESA_CONFIG="$T/conf/mesa.conf" expect_exit 6 "--suite deqp-gles3 --groups info" \
	ctl mesa smoke $V1 --suite deqp-gles3 --groups info --json
check "…its own regression" test "$(json 'd["suite"], d["regressions"]' <"$T/out")" = "('dEQP-GLES3', ['dEQP-GLES3.info.fake.storefail_1'])"
TB323FU_MESA_CONFIG="$T/conf/mesa.conf" expect_exit 0 "--suite dEQP-EGL --groups quick" \
	ctl mesa smoke $V1 --suite dEQP-EGL --groups quick --json
check "…its info case on both sides" test "$(result dEQP-EGL.info.fake.pass_1)" = "pass/pass"
fresh
printf 'dEQP-GLES2.info.fake.pass_1\ndEQP-GLES2.functional.fake.fail_1\n' >"$T/store-side.txt"
expect_exit 6 "without --suite, a dEQP-GLES2 case list on the store's side alone" \
	ctl mesa smoke $V1 --deqp "$T/modules/gles2/deqp-gles2" --caselist "$T/store-side.txt"
check "…said as dEQP-GLES2, drawing into a pbuffer" \
	test "$(grep -c "dEQP-GLES2 on Mesa $V1: 1 of 2 cases failed" "$T/err") $(sed 's|^EGL=[^ ]* ||' "$T/record.gl" | sort -u)" = \
	"1 EGL_PLATFORM=surfaceless options=$PBUFFER"

# --- what is refused ----------------------------------------------------------------------------
printf 'dEQP-VK.api.smoke.triangle\n' >"$T/vk.txt"
expect_exit 2 "--suite dEQP-GLES2 --caselist with a dEQP-VK case" \
	ctl mesa smoke $V1 --suite dEQP-GLES2 --deqp "$T/modules" --caselist "$T/vk.txt"
check "…one sentence naming the line and the module" \
	grep -q "line 1 of the case list $T/vk.txt is no dEQP-GLES2 case name (\"dEQP-VK.api.smoke.triangle\"): one full name a line, as dEQP-GLES2.info.renderer" "$T/err"
expect_exit 2 "--groups with a name no group has" ctl mesa smoke $V1 --suite dEQP-GLES3 --groups 'x;y'
check "…naming the module's groups" grep -q "is no dEQP-GLES3 group (as info, or quick for info,functional.prerequisite)" "$T/err"
expect_exit 1 "--groups a group the binary does not have" \
	ctl mesa smoke $V1 --suite dEQP-EGL --deqp "$T/modules" --groups functional
check "…says it lists no case of it" grep -q "lists no case of dEQP-EGL.functional: no such group" "$T/err"
expect_exit 1 "no binary where it is looked for" ctl mesa smoke $V1 --suite dEQP-EGL --deqp "$T/nowhere"
check "…says how to build one" \
	grep -q "no dEQP-EGL binary at $T/nowhere; build it with build-recipes/deqp-gl, or name it (or its directory) with --deqp or deqp_gl_dir in mesa.conf" "$T/err"
mkdir -p "$T/open/gles2" && chmod 0777 "$T/open" && cp "$FAKE" "$T/open/gles2/deqp-gles2"
fresh
expect_exit 1 "a binary in a folder anyone may write is not run, not even to list its cases" \
	ctl mesa smoke $V1 --suite dEQP-GLES2 --deqp "$T/open" --groups info
check "…one sentence naming the module and the fix, and nothing ran" \
	test "$(grep -c "refusing to run the dEQP-GLES2 binary $T/open/gles2/deqp-gles2: the folder $T/open is writable by others" "$T/err") $(wc -l <"$T/record")" = "1 0"

# --- after install: smoke_suite = dEQP-GLES3 rolls a regression back ----------------------------
printf 'smoke_suite = dEQP-GLES3\ndeqp_gl_dir = %s\ndeqp_groups = info\n' "$T/modules" >"$T/conf/mesa.conf"
TB323FU_MESA_CONFIG="$T/conf/mesa.conf" expect_exit 6 "install-local $V2 with smoke_suite = dEQP-GLES3 is rolled back" \
	ctl --json mesa install-local "$R2" --sums "$(dirname "$R2")/SHA256SUMS"
check "…naming exactly the regressing case" \
	test "$(json 'd["reason"], "1 of 2 dEQP-GLES3 cases pass with the distribution'"'"'s Mesa and not with Mesa '$V2': dEQP-GLES3.info.fake.storefail_1" in d["message"]' <"$T/out")" = "('suite-regression', True)"
check "…$V1 is current again" test "$(ctl mesa status --json | json 'd["installed"]')" = "$V1"
expect_exit 0 "install-local $V3, a release without GL" \
	ctl mesa install-local "$R3" --sums "$(dirname "$R3")/SHA256SUMS" --no-smoke
expect_exit 1 "--suite dEQP-GLES3 of it" ctl --json mesa smoke $V3 --suite dEQP-GLES3 --deqp "$T/modules"
check "…says it has nothing to test" test "$(json 'd["reason"], d["message"]' <"$T/out")" = \
	"('failed', 'Mesa $V3 ships no GL: dEQP-GLES3 has nothing to test')"

# --- the real modules, when they were built -----------------------------------------------------
unset FAKE_DEQP_CASES FAKE_DEQP_RECORD FAKE_DEQP_RECORD_GL
real=${TB323FU_DEQP_GL_DIR:-$(TB_CACHE=${TB323FU_DEQP_CACHE:-${TB_CACHE:-$HOME/.cache/tb323fu-mesa}} sh "$TB_TOP/build-recipes/deqp-gl" --print-dir)}
if [ ! -x "$real/gles2/deqp-gles2" ] || [ ! -x "$real/gles3/deqp-gles3" ] || [ ! -x "$real/egl/deqp-egl" ]; then
	skip "the real GL modules' quick set on both sides" "no deqp-gles2, deqp-gles3 and deqp-egl built by build-recipes/deqp-gl in $real"
	done_testing
	exit 0
fi
# counts: "N cases, store {RESULT: N…}, distribution {…}" of the result in $T/out
counts() { json '"%d cases, store %s, distribution %s" % (d["tests"], d["counts"]["store"], d["counts"]["distribution"])' <"$T/out"; }
for q in dEQP-GLES2:quick dEQP-GLES3:info dEQP-EGL:info; do
	suite=${q%%:*} groups=${q#*:}
	expect_exit 0 "real $suite --groups $groups on both sides" \
		ctl mesa smoke $V1 --suite "$suite" --deqp "$real" --groups "$groups" --json
	check "…no regression, every case with a result on both sides" \
		test "$(json 'd["regressions"], d["tests"] > 0, sorted(set(r for t in d["results"] for r in (t["store"], t["distribution"])) - {"pass", "fail", "skip"})' <"$T/out")" = "([], True, [])"
	echo "# $suite --groups $groups: $(counts)"
done
# Each side's libraries, as the dynamic linker loaded them: a wrapper in the binary's place.
mkdir -p "$T/wrap/gles2" "$T/ld"
printf '#!/bin/sh\ncd "%s" || exit 1\nLD_DEBUG=files LD_DEBUG_OUTPUT="%s/ld/run" exec ./deqp-gles2 "$@"\n' \
	"$(cd "$real/gles2" && pwd -P)" "$T" >"$T/wrap/gles2/deqp-gles2"
chmod 755 "$T/wrap/gles2/deqp-gles2"
printf 'dEQP-GLES2.info.renderer\n' >"$T/renderer.txt"
expect_exit 0 "real dEQP-GLES2.info.renderer through a wrapper that logs what was loaded" \
	ctl mesa smoke $V1 --suite dEQP-GLES2 --deqp "$T/wrap" --caselist "$T/renderer.txt" --json
SYS=$(cd "/usr/lib/$(gcc -print-multiarch)" && pwd -P)
# resolved FILE…: each file's path with its folders' links resolved, not its own
resolved() { for f; do echo "$(cd "$(dirname "$f")" && pwd -P)/${f##*/}"; done; }
# loaded LIB: the files named LIB that the runs loaded, on one line, sorted
loaded() {
	grep -h "calling init: .*/$1\$" "$T"/ld/run.* | sed 's/.*calling init: //' |
		while IFS= read -r f; do resolved "$f"; done | sort -u | tr '\n' ' '
}
check "…the store's side loaded the version's EGL vendor and DRI driver, the distribution's its own" \
	test "$(loaded libEGL_mesa.so.0)$(loaded swrast_dri.so)" = \
	"$(resolved "$REAL/versions/$V1/lib/gl/libEGL_mesa.so.0" "$SYS/libEGL_mesa.so.0" | sort | tr '\n' ' ')$(resolved "$REAL/versions/$V1/lib/gl/dri/swrast_dri.so" "$SYS/dri/swrast_dri.so" | sort | tr '\n' ' ')"
done_testing
