#!/bin/sh
# build-recipes/stand-in --root DIR packs the drivers of the system installed in DIR. Its GL
# needs libgallium by the name the package gave it, which holds the package's version; Debian's
# backports (the tablet's Mesa) name it libgallium-26.1.6-1~bpo13+1.so, and `~` is no character
# of a release's paths (docs/design.md §4, §8). Such a system gives a release of Vulkan and OpenCL
# alone, said in one sentence; one whose libgallium has a plain name gives its GL as well.
# The root is made of this machine's own libraries under the names a Mesa 26 system has.
. "$TB_TOP/tests/lib.sh"

SYS=/usr/lib/$(gcc -print-multiarch)
# root DIR GALLIUM-NAME: a system in DIR with lavapipe, rusticl, EGL, GBM and a libgallium of
# that name (this machine's lavapipe stands in for it: a shared library of this architecture).
root() {
	_l=$1/usr/lib/$(gcc -print-multiarch)
	mkdir -p "$_l" || return 1
	for _f in libvulkan_lvp.so libRusticlOpenCL.so.1 libEGL_mesa.so.0 libgbm.so.1; do
		cp -L "$SYS/$_f" "$_l/$_f" || return 1
	done
	cp -L "$SYS/libvulkan_lvp.so" "$_l/$2"
}

root "$T/bpo" 'libgallium-26.1.6-1~bpo13+1.so' && root "$T/plain" libgallium-26.1.6.so ||
	{ not_ok "a system root from this machine's libraries"; done_testing; exit 1; }

TB323FU_CTL=$CTL "$TB_TOP/build-recipes/stand-in" --root "$T/bpo" 2026.12.01 "$T/out-bpo" >"$T/bpo.out" 2>"$T/bpo.err"
rc=$?
check "stand-in --root of a system with libgallium-26.1.6-1~bpo13+1.so packs a release (exit $rc)" test "$rc" -eq 0
check "…and says in one sentence that GL stays out and why" test "$(cat "$T/bpo.err")" = \
	"stand-in: the system's libgallium-26.1.6-1~bpo13+1.so cannot be in a release (a release's paths are of [A-Za-z0-9._@+-]) and its GL libraries need it by that name; packing Vulkan and OpenCL alone, as --no-gl does"
set -- "$T"/out-bpo/tb323fu-mesa-2026.12.01-*.tar.gz
tar -xOzf "$1" MANIFEST >"$T/bpo.manifest" 2>/dev/null
check "…its MANIFEST has the drivers vulkan,opencl and no file of lib/gl" sh -c "
	grep -qx 'drivers=vulkan,opencl' '$T/bpo.manifest' && ! grep -q ' lib/gl/' '$T/bpo.manifest'"
expect_exit 0 "…and it installs" ctl mesa install-local "$1"

TB323FU_CTL=$CTL "$TB_TOP/build-recipes/stand-in" --root "$T/plain" 2026.12.02 "$T/out-plain" >"$T/plain.out" 2>"$T/plain.err"
rc=$?
check "stand-in --root of a system with libgallium-26.1.6.so packs a release (exit $rc) and says nothing on stderr" \
	sh -c "test $rc -eq 0 && ! test -s '$T/plain.err'"
set -- "$T"/out-plain/tb323fu-mesa-2026.12.02-*.tar.gz
tar -xOzf "$1" MANIFEST >"$T/plain.manifest" 2>/dev/null
check "…with its GL: drivers vulkan,opencl,gl and libgallium-26.1.6.so in lib/gl" sh -c "
	grep -qx 'drivers=vulkan,opencl,gl' '$T/plain.manifest' &&
	grep -q ' 644 [0-9]* lib/gl/libgallium-26.1.6.so\$' '$T/plain.manifest'"
done_testing
