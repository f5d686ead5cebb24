# shellcheck shell=sh
# What the scripts of build-recipes/ and ci/ (and the opt-in checks of tests/ that drive them)
# share, sourced once `set -eu` holds: how they speak and time their steps, the Debian mirror
# and the chroot of the roots (arm64-root, ci/debian-root), and the CMake steps of the Khronos
# suites' recipes (deqp-vk, opencl-cts). It defines functions and `me`, and runs nothing.
#
#   . "$top/build-recipes/lib.sh"          (a script that knows the checkout's top)
#   . "$(dirname "$0")/lib.sh"             (a script of build-recipes/ that does not)

# me: the script's name, the first word of everything it says.
me=${0##*/}

# say WORDS…: "me: WORDS" on stdout. A script that speaks otherwise (on stderr, or through a
# filter) defines its own say after sourcing this; die speaks through it.
say() { echo "$me: $*"; }
# die WORDS…: says WORDS on stderr and exits 1.
die() {
	say "$*" >&2
	exit 1
}
# elapsed START: seconds since START (a `date +%s`).
elapsed() { echo $(($(date +%s) - $1)); }
# need PROGRAM PACKAGE: dies unless PROGRAM is on PATH, naming the package that has it.
need() { command -v "$1" >/dev/null || die "no $1 (apt-get install $2)"; }

# mirror: the first Debian mirror of this system's apt sources (deb822 or one-line form), or
# $TB_DEBIAN_MIRROR.
mirror() {
	if [ -n "${TB_DEBIAN_MIRROR:-}" ]; then
		echo "$TB_DEBIAN_MIRROR"
		return
	fi
	m=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
		sed -n 's/^URIs: *\([^ ]*\).*/\1/p' | grep -v -e security -e '^$' | grep debian | head -n 1)
	[ -n "$m" ] || m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) .*/\2/p' | grep -v security | grep debian | head -n 1)
	[ -n "$m" ] || die "no Debian mirror in this system's apt sources; set TB_DEBIAN_MIRROR"
	echo "$m"
}

# chrooted ROOT MOUNT… -- CMD…: replaces the shell with CMD chrooted into ROOT, in a private
# mount namespace (nothing stays mounted when it ends), with each MOUNT, DIR or DIR:AT, bound
# (recursively) at AT inside, at DIR itself without one.
chrooted() {
	# shellcheck disable=SC2016 # the script is for the shell in the namespace
	exec unshare --mount --propagation private sh -euc '
		root=$1
		shift
		while [ "$1" != -- ]; do
			mkdir -p "$root${1#*:}"
			mount --rbind "${1%%:*}" "$root${1#*:}"
			shift
		done
		shift
		cd "$root"
		exec chroot "$root" "$@"
	' sh "$@"
}

# unpacked -J|-z ARCHIVE AT: the archive's single top directory as AT (-J for xz, -z for gzip,
# as tar takes them).
unpacked() {
	[ -d "$3" ] && return 0
	rm -rf "$3.tmp"
	mkdir -p "$3.tmp"
	tar -x "$1" -f "$2" -C "$3.tmp" || die "unpacking $2 failed"
	set -- "$2" "$3" "$3.tmp"/*
	{ [ $# -eq 3 ] && [ -d "$3" ]; } || die "$1 does not hold one top directory"
	mv "$3" "$2"
	rmdir "$2.tmp"
}

# The Khronos suites' builds: cmake with ninja in DIR/build (DIR/cmake.log its output), for this
# machine or for aarch64 in the amd64 builder root of arm64-root ($roots, the recipe's command
# for it: sh …/build-recipes/arm64-root).

# file_prefix_map DIR: the cmake options with which the compilers write DIR, the folder that
# holds a build's sources and its build tree, as "." in what they put into a binary (__FILE__ in
# the suites' messages, debug information): a binary then names no folder of the machine that
# built it, and a build in another folder, or on another machine, gives the same bytes. Builds
# in the builder root pass '$PWD' (their folder, as the root's shell sees it).
file_prefix_map() { echo "-DCMAKE_C_FLAGS=-ffile-prefix-map=$1=. -DCMAKE_CXX_FLAGS=-ffile-prefix-map=$1=."; }

# cmake_failed DIR WHAT: the end of DIR/cmake.log, and dies.
cmake_failed() {
	tail -n 20 "$1/cmake.log" >&2
	die "cmake failed to configure $2 (whole log: $1/cmake.log)"
}
# native_configure NAME DIR NEEDS CMAKE-ARG…: cmake run with CMAKE-ARGs here, once cmake, ninja
# and what the command NEEDS checks (the recipe's compiler and libraries) are there.
native_configure() {
	need cmake cmake
	need ninja ninja-build
	"$3"
	_name=$1 _dir=$2
	shift 3
	cmake "$@" >"$_dir/cmake.log" 2>&1 || cmake_failed "$_dir" "$_name"
}
# cross_configure NAME DIR WHAT CMAKE PACKAGE…: in the builder root (needs root), the PACKAGEs
# installed (WHAT names them when that fails), then the command line CMAKE run by the root's
# shell in DIR.
# shellcheck disable=SC2154 # roots is the recipe's
cross_configure() {
	[ "$(id -u)" = 0 ] || die "--arch aarch64 needs root (it builds in the Debian 13 builder root)"
	_name=$1 _dir=$2 _what=$3 _cmake=$4
	shift 4
	$roots --builder >/dev/null
	# shellcheck disable=SC2016 # the script is for the root's shell
	$roots --builder run sh -c 'dpkg --print-foreign-architectures | grep -qx arm64 &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null' sh "$@" ||
		die "installing $_what in the builder root failed"
	$roots --builder run --bind "$_dir" --cd "$_dir" sh -c "$_cmake >cmake.log 2>&1" ||
		cmake_failed "$_dir" "$_name for aarch64"
}
# native_build BUILD JOBS TARGET…: ninja builds TARGETs in BUILD with JOBS jobs, niced.
native_build() {
	_build=$1 _jobs=$2
	shift 2
	nice -n 15 ninja -C "$_build" -j "$_jobs" "$@"
}
# cross_build DIR JOBS TARGET…: the same in the builder root, in DIR/build (DIR/$cross_build_dir
# when the recipe sets it).
cross_build() {
	_dir=$1 _jobs=$2
	shift 2
	$roots --builder run --bind "$_dir" --cd "$_dir" nice -n 15 ninja -C "${cross_build_dir:-build}" -j "$_jobs" "$@"
}

# The Mesa source of the tablet's releases (build-recipes/mesa-source names it once).

# shellcheck disable=SC2154,SC2034 # top is the sourcing script's; the results are its too
# mesa_source WHERE CACHE: the pinned Mesa source, checked by its SHA-256 before anything reads
# it and unpacked once into CACHE/mesa-VERSION-SHA12/tree. WHERE is the folder of the shared
# upstream archives, or `upstream`: Mesa's own tarball downloaded from its archive and checked
# against upstream's published SHA-256, which must be pinned. Sets mesa_source_tree (the tree)
# and mesa_source_record (the `SHA256  NAME` line the build record takes).
mesa_source() {
	# shellcheck source=build-recipes/mesa-source
	. "$top/build-recipes/mesa-source"
	if [ "$1" = upstream ]; then
		[ -n "$mesa_source_upstream_sha256" ] ||
			die "build-recipes/mesa-source pins no upstream SHA-256 for $mesa_source_archive: copy it from Mesa's release announcement into mesa_source_upstream_sha256, or build from the shared archives (--third-party DIR)"
		_want=$mesa_source_upstream_sha256
		_archive=$2/download/$mesa_source_archive
		if [ ! -f "$_archive" ]; then
			need curl curl
			mkdir -p "$2/download"
			curl -fsSL --retry 3 -o "$_archive.part" "$mesa_source_url" || die "cannot download $mesa_source_url"
			mv "$_archive.part" "$_archive"
		fi
	else
		_want=$mesa_source_shared_sha256
		_archive=$1/$mesa_source_archive
		[ -f "$_archive" ] || die "no $_archive (the pinned Mesa source; give the shared archives' folder with --third-party DIR, or --source debian for Debian 13's Mesa)"
	fi
	_got=$(sha256sum "$_archive" | cut -d' ' -f1)
	[ "$_got" = "$_want" ] ||
		die "$_archive has SHA-256 $_got, not the $_want build-recipes/mesa-source pins: it is not the Mesa $mesa_source_version the releases are built from"
	mesa_source_tree=$2/mesa-$mesa_source_version-$(echo "$_want" | cut -c1-12)/tree
	if [ ! -f "$mesa_source_tree/meson.build" ]; then
		rm -rf "$mesa_source_tree"
		unpacked -J "$_archive" "$mesa_source_tree"
	fi
	[ "$(cat "$mesa_source_tree/VERSION")" = "$mesa_source_version" ] ||
		die "$_archive unpacks to Mesa $(cat "$mesa_source_tree/VERSION"), not the $mesa_source_version build-recipes/mesa-source names"
	mesa_source_record="$_got  $mesa_source_archive"
}

# shellcheck disable=SC2154,SC2034 # top is the sourcing script's; shim_patch_name is for it
# shim_patch SRC: gives freedreno's noop DRM shim of the Mesa tree SRC the tablet's Adreno 840
# (FD_GPU_ID=840), with the patch for that Mesa (shim-adreno840.patch for 25.x,
# shim-adreno840-mesa26.patch for 26 and later), once: a shim that knows the 840 is left
# alone. Sets shim_patch_name, the patch the build record names.
shim_patch() {
	case $(cat "$1/VERSION") in
	2[0-5].*) shim_patch_name=shim-adreno840.patch ;;
	*) shim_patch_name=shim-adreno840-mesa26.patch ;;
	esac
	grep -qi '0x44050a31' "$1/src/freedreno/drm-shim/freedreno_noop.c" && return 0
	patch -s -d "$1" -p1 <"$top/build-recipes/$shim_patch_name" ||
		die "the shim's Adreno 840 entry ($shim_patch_name) does not apply to Mesa $(cat "$1/VERSION") in $1"
	say "the noop DRM shim knows the Adreno 840 (build-recipes/$shim_patch_name)"
}
