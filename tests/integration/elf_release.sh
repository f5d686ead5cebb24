#!/bin/sh
# The ELF check on real releases: packed with `tb323fu-ctl mesa pack` from trees of the fixture
# libraries (tests/fixtures/elf) and installed with `install-local`. A foreign architecture, a
# library nobody has and a too new glibc are refused (exit 4) with a sentence naming them;
# a dependency shipped in lib/ is reached through RUNPATH $ORIGIN (linked through ld-wrappers/,
# no LD_LIBRARY_PATH) or else through LD_LIBRARY_PATH in the env files.
. "$TB_TOP/tests/lib.sh"

FX=$T/fixtures
sh "$TB_TOP/tests/fixtures/elf/build.sh" "$FX" || { not_ok "fixture libraries build"; done_testing; exit 1; }

# release NAME VERSION [PACK-OPTIONS…] -- FIXTURE:PATH…: packs a release of those files
# into $T/rel-NAME and prints the tarball's path.
release() {
	name=$1 version=$2
	shift 2
	opts=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do opts="$opts $1"; shift; done
	shift
	stage=$T/stage-$name
	rm -rf "$stage"
	mkdir -p "$stage/lib"
	for f; do
		mkdir -p "$(dirname "$stage/${f#*:}")"
		cp "$FX/${f%%:*}" "$stage/${f#*:}"
		chmod 0644 "$stage/${f#*:}"
	done
	# A development link, as real releases ship them.
	first=${1#*:}
	ln -s "$(basename "$first")" "$stage/lib/libtb-devlink.so"
	# shellcheck disable=SC2086
	"$CTL" mesa pack --stage "$stage" --version "$version" $opts "$T/rel-$name" >/dev/null ||
		return 1
	ls "$T/rel-$name/tb323fu-mesa-$version"-*.tar.*
}

# install NAME TARBALL: install-local into a store of its own ($T/store-NAME).
install() {
	"$CTL" --store "$T/store-$1" --json mesa install-local "$2" --sums "$(dirname "$2")/SHA256SUMS" --no-smoke
}

# --- a library built for another architecture ---
if [ -f "$FX/libtbarm64.so" ]; then
	R=$(release arm 2026.11.01 --drivers opencl --opencl-lib lib/libRusticlOpenCL.so.1 -- \
		libtbdriver.so:lib/libRusticlOpenCL.so.1 libtbarm64.so:lib/libfoo.so)
	expect_exit 4 "an aarch64 library is refused" install arm "$R"
	reason_is arch-mismatch
	check "the sentence names the library and both architectures" \
		grep -q "lib/libfoo.so is built for aarch64, this system is $(uname -m)" "$T/err"
	check "nothing was installed" test ! -e "$T/store-arm/versions/2026.11.01"
else
	skip "an aarch64 library is refused" "no aarch64-linux-gnu-gcc to build one"
fi

# --- a library that needs a SONAME nobody has ---
R=$(release nosoname 2026.11.02 --drivers opencl --opencl-lib lib/libRusticlOpenCL.so.1 -- \
	libtbdriver.so:lib/libRusticlOpenCL.so.1 libtbuser-runpath.so:lib/libtbuser.so)
expect_exit 4 "a library needing a missing SONAME is refused" install nosoname "$R"
reason_is library-unresolved
check "the sentence names the library and what it needs" \
	grep -q "lib/libtbuser.so needs libtbdep.so.1, which this system does not have" "$T/err"
check "one line on stderr" test "$(wc -l <"$T/err")" -eq 1

# --- the same library with its dependency shipped, RUNPATH $ORIGIN from ld-wrappers/ ---
R=$(release runpath 2026.11.03 --drivers opencl --opencl-lib lib/libRusticlOpenCL.so.1 -- \
	libtbdriver.so:lib/libRusticlOpenCL.so.1 libtbuser-runpath.so:lib/libtbuser.so \
	libtbdep.so.1:lib/libtbdep.so.1)
expect_exit 0 "with libtbdep.so.1 in lib/ and RUNPATH \$ORIGIN it installs" install runpath "$R"
ENV=$T/store-runpath/env/2026.11.03.env
check "the version's env file exists" test -f "$ENV"
check "and carries no LD_LIBRARY_PATH" sh -c "grep -q OCL_ICD_VENDORS '$ENV' && ! grep -q LD_LIBRARY_PATH '$ENV'"
check "nor does the current one" sh -c "test -s '$T/store-runpath/env/current.env' && ! grep -q LD_LIBRARY_PATH '$T/store-runpath/env/current.env'"
expect_exit 0 "verify re-checks the installed tree" \
	"$CTL" --store "$T/store-runpath" mesa verify 2026.11.03
# The library really loads from the store without any help.
check "the dynamic linker agrees: libtbdep.so.1 resolves through RUNPATH" sh -c \
	"env -u LD_LIBRARY_PATH ldd '$T/store-runpath/versions/2026.11.03/lib/libtbuser.so' | grep -q 'libtbdep.so.1 => $(cd "$T/store-runpath" && pwd -P)/versions/2026.11.03/lib/libtbdep.so.1'"

# --- without RUNPATH it installs with LD_LIBRARY_PATH ---
R=$(release plain 2026.11.04 --drivers opencl --opencl-lib lib/libRusticlOpenCL.so.1 -- \
	libtbdriver.so:lib/libRusticlOpenCL.so.1 libtbuser-plain.so:lib/libtbuser.so \
	libtbdep.so.1:lib/libtbdep.so.1)
expect_exit 0 "without RUNPATH it installs too" install plain "$R"
ENV=$T/store-plain/env/2026.11.04.env
REAL=$(cd "$T/store-plain" && pwd -P)
check "the env file sets LD_LIBRARY_PATH to the release's lib/" \
	grep -q "^LD_LIBRARY_PATH=$REAL/versions/2026.11.04/lib" "$ENV"

# --- glibc newer than the host's ---
R=$(release future 2026.11.05 --drivers opencl --opencl-lib lib/libRusticlOpenCL.so.1 -- \
	libtbdriver.so:lib/libRusticlOpenCL.so.1 libtbfuture.so:lib/libtbfuture.so)
expect_exit 4 "a library needing glibc 2.99 is refused" install future "$R"
reason_is glibc-too-old
check "the sentence names the glibc it needs and the host's" \
	grep -q "lib/libtbfuture.so needs glibc 2.99 (GLIBC_2.99), this system has $(getconf GNU_LIBC_VERSION | sed 's/^glibc //')" "$T/err"

# --- the drivers' loader entry points ---
R=$(release noentry 2026.11.06 --drivers vulkan --vulkan-lib lib/libvulkan_test.so -- \
	libtbplain.so:lib/libvulkan_test.so)
expect_exit 4 "a Vulkan driver without vk_icdGetInstanceProcAddr is refused" install noentry "$R"
reason_is driver-entry-missing
check "the sentence names the driver and the entry point" \
	grep -q "lib/libvulkan_test.so does not export vk_icdGetInstanceProcAddr" "$T/err"
done_testing
