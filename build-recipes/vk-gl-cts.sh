# shellcheck shell=sh
# What the recipes of VK-GL-CTS's binaries share (deqp-vk, deqp-gl), sourced after lib.sh once
# the recipe has set cache (TB_CACHE's folder), arch (x86_64 or aarch64), third (the folder of
# the shared archives, or '') and source (--source, or ''): the pinned sources, checked and
# unpacked, the key of a build, the case lists written by a binary, and the link where the suite
# looks. It defines functions and variables, and runs nothing.
#
# VK-GL-CTS is at tag vulkan-cts-1.4.6.1; third holds it (when source is not given) and the
# archives of the five sources it pins in external/fetch_sources.py (SPIRV-Tools, glslang,
# SPIRV-Headers, amber, jsoncpp), named NAME-<commit>.tar.xz. Each archive is checked against
# the SHA-256 pinned below before anything is unpacked. Without such a folder each is cloned
# from upstream instead (into $cache/vk-gl-cts/dl): VK-GL-CTS at its tag (the tag's commit
# checked against the pinned one), the five others at the full commits that VK-GL-CTS's own
# fetch_sources.py names (git checks every object by its hash).

cts_tag=vulkan-cts-1.4.6.1 cts_commit=5c8aae228854
# NAME:SHA-256 of the shared archives, VK-GL-CTS first; the five others are external/NAME/src.
cts_pins="VK-GL-CTS-vulkan-cts-1.4.6.1:dc5c1f488fcdd0f33f1b49832d2f08c40af5472e92a8e08909cd31535a537a26
SPIRV-Tools-2d14d2e76aa7:0aa2c005b33c7b7658c70a1936847eb6561960fc33a4593fd63097dccb53c0a7
glslang-715c8500e7cd:387d7146f12cf5b838e6a51b2324990db633d230807e60f91fe39638bb988713
SPIRV-Headers-6dd7ba990830:6a314e30a1af4287197b8fa0b9ea48ccee9f5f5a11289b98eee58d7aa133327b
amber-53a4c8934bf7:9e9ee323e698aa7400eac36d6ba52663a662ff6493b51939dfeaefa78da90f10
jsoncpp-9059f5cad030:a828d2bed524a5c430b5007e80dd653b7caab6bc090cecc6b661c9021651676d"
# The options every build configures with: video tests out (they need sources that configure
# downloads).
# shellcheck disable=SC2034 # the recipes'
cts_cmake_args="-G Ninja -DCMAKE_BUILD_TYPE=Release -DDEQP_DISABLE_VK_VIDEO_TESTS=ON"
# shellcheck disable=SC2154 # top is the recipe's
roots="sh $top/build-recipes/arm64-root"

# cts_arch ARCH: x86_64 or aarch64 (amd64 and arm64 too), or dies.
cts_arch() {
	case $1 in
	x86_64 | amd64) echo x86_64 ;;
	aarch64 | arm64) echo aarch64 ;;
	*) die "--arch is x86_64 or aarch64, not $1" ;;
	esac
}

# cts_de_cpu: the option that tells VK-GL-CTS the CPU it builds for (arch's): its CMake takes
# every 64-bit target for x86_64 otherwise, an aarch64 build included, and the binary says so
# (dEQP-VK.info.build).
# shellcheck disable=SC2154 # arch is the recipe's
cts_de_cpu() {
	case $arch in
	aarch64) echo -DDE_CPU=DE_CPU_ARM_64 ;;
	*) echo -DDE_CPU=DE_CPU_X86_64 ;;
	esac
}

cts_pinned_sha() { printf '%s\n' "$cts_pins" | sed -n "s/^$1:\(.*\)/\1/p"; }

# cts_checked FILE NAME: FILE as an absolute path, refused when missing or when it is not the
# pinned archive NAME.tar.xz (its SHA-256); a downloaded archive has no pin and is taken.
# shellcheck disable=SC2154 # cache is the recipe's
cts_checked() {
	[ -f "$1" ] || die "no $1 (the $2 archive)"
	f=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	want=$(cts_pinned_sha "$2")
	sum=$(sha256sum "$f" | cut -d' ' -f1)
	case $f in "$cache/vk-gl-cts/dl/"*) ;; *)
		[ "$sum" = "$want" ] || die "$f has SHA-256 $sum, not the pinned $want of $2: a damaged or other copy, refused" ;;
	esac
	echo "$f"
}

# cts_cloned NAME URL REF WANT: an archive NAME.tar.xz of URL at REF (a tag, or a full commit),
# whose commit must begin with WANT.
cts_cloned() {
	out=$cache/vk-gl-cts/dl/$1.tar.xz
	if [ ! -f "$out" ]; then
		need git git
		rm -rf "$out.git"
		say "fetching $2 at $3" >&2
		git init -q "$out.git" && git -C "$out.git" fetch -q --depth 1 "$2" "$3" ||
			{ rm -rf "$out.git"; die "fetching $2 at $3 failed (no network? pass --third-party DIR)"; }
		got=$(git -C "$out.git" rev-parse FETCH_HEAD)
		case $got in "$4"*) ;; *) rm -rf "$out.git"; die "$2 $3 is commit $got, not the pinned $4: refused" ;; esac
		git -C "$out.git" archive --prefix="$1/" FETCH_HEAD | xz -T1 -3 >"$out.tmp"
		rm -rf "$out.git"
		mv "$out.tmp" "$out"
	fi
	echo "$out"
}

# cts_sources: sets source (VK-GL-CTS's archive) and deps (the five others), every archive
# checked before any is unpacked or downloaded.
# shellcheck disable=SC2154 # third and source are the recipe's
cts_sources() {
	need xz xz-utils
	need sha256sum coreutils
	if [ -z "$third" ]; then
		third=${TB323FU_THIRD_PARTY:-$top/../shared/third_party}
		[ -d "$third" ] || third=''
	fi
	[ -z "$third" ] || [ -d "$third" ] || die "--third-party $third is not a directory"
	mkdir -p "$cache/vk-gl-cts/dl"
	cts_name=VK-GL-CTS-$cts_tag
	if [ -n "$source" ]; then
		source=$(cts_checked "$source" "$cts_name")
	elif [ -n "$third" ]; then
		source=$(cts_checked "$third/$cts_name.tar.xz" "$cts_name")
	fi
	deps=''
	if [ -n "$third" ]; then
		for name in $(printf '%s\n' "$cts_pins" | sed '1d;s/:.*//'); do
			deps="$deps $(cts_checked "$third/$name.tar.xz" "$name")"
		done
	fi
	[ -n "$source" ] || source=$(cts_cloned "$cts_name" https://github.com/KhronosGroup/VK-GL-CTS.git "refs/tags/$cts_tag" $cts_commit)

	# Without the shared archives the five sources come from the commits VK-GL-CTS pins.
	if [ -z "$deps" ]; then
		peek=$cache/vk-gl-cts/dl/peek
		rm -rf "$peek" && mkdir -p "$peek"
		tar -xJf "$source" -C "$peek" --wildcards '*/external/fetch_sources.py' ||
			die "$source holds no external/fetch_sources.py: not a VK-GL-CTS source"
		pinned() { grep -A3 "github.com/$1.git" "$peek"/*/external/fetch_sources.py | grep -o '[0-9a-f]\{40\}' | head -n1; }
		for repo in KhronosGroup/SPIRV-Tools KhronosGroup/glslang KhronosGroup/SPIRV-Headers google/amber open-source-parsers/jsoncpp; do
			full=$(pinned "$repo")
			[ -n "$full" ] || die "VK-GL-CTS's fetch_sources.py pins no commit of $repo"
			name=${repo#*/}-$(echo "$full" | cut -c1-12)
			deps="$deps $(cts_cloned "$name" "https://github.com/$repo.git" "$full" "$full")"
		done
		rm -rf "$peek"
	fi
}

# cts_key WORD…: the key of a build, from the SHA-256 of the six archives, the architecture,
# the options it is configured with (those of every build, file_prefix_map's, and for aarch64
# the cross build's) and the WORDs (what else sets the build apart), so other options build in
# another folder.
# shellcheck disable=SC2154 # arch is the recipe's
cts_key() {
	for f in "$source" $deps; do sha256sum "$f" | cut -d' ' -f1; done |
		{
			cat
			echo "$arch"
			echo "$cts_cmake_args"
			cts_de_cpu
			file_prefix_map DIR
			[ "$arch" = "$(uname -m)" ] || echo "$cts_cross_cmake"
			for w in "$@"; do echo "$w"; done
		} | sha256sum | cut -c1-16
}

# cts_unpacked DIR: the six sources in DIR/src, as fetch_sources.py would place them.
cts_unpacked() {
	unpacked -J "$source" "$1/src"
	[ -f "$1/src/external/vulkancts/modules/vulkan/vktTestPackage.cpp" ] ||
		die "$source is not a VK-GL-CTS source (no external/vulkancts/modules/vulkan/vktTestPackage.cpp)"
	for f in $deps; do
		base=$(basename "$f" .tar.xz)
		case $base in
		SPIRV-Tools-*) at=spirv-tools ;;
		glslang-*) at=glslang ;;
		SPIRV-Headers-*) at=spirv-headers ;;
		amber-*) at=amber ;;
		jsoncpp-*) at=jsoncpp ;;
		*) die "$f is none of the five sources VK-GL-CTS pins" ;;
		esac
		unpacked -J "$f" "$1/src/external/$at/src"
	done
}

# cts_build_needs: what a native build needs besides cmake, ninja and the recipe's own.
cts_build_needs() {
	need g++ g++
	for h in zlib.h png.h; do
		[ -e "/usr/include/$h" ] || [ -e "/usr/include/libpng16/$h" ] ||
			die "no /usr/include/$h (apt-get install zlib1g-dev libpng-dev)"
	done
}

# cts_cross_cmake: the cmake command line that cross-configures src into build in the builder
# root (run in the build's folder), before the options of cts_cmake_args and the recipe's (a
# recipe that configures another folder adds its own -B, which wins). pkg-config reads the
# arm64 packages' files, not the builder's own.
# shellcheck disable=SC2034,SC2016 # the recipes'; $PWD is the root shell's
cts_cross_cmake="PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig cmake src -B build \\
	-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 \\
	-DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc -DCMAKE_CXX_COMPILER=aarch64-linux-gnu-g++ \\
	-DCMAKE_FIND_ROOT_PATH=/usr/lib/aarch64-linux-gnu \\
	-DCMAKE_LIBRARY_ARCHITECTURE=aarch64-linux-gnu $(file_prefix_map '$PWD')"
# The builder root's packages every cross build needs.
# shellcheck disable=SC2034 # the recipes'
cts_cross_packages="cmake ninja-build python3 g++-aarch64-linux-gnu libstdc++-14-dev:arm64
	zlib1g-dev:arm64 libpng-dev:arm64 libglx-dev:arm64 libgl-dev:arm64"

# cts_run DIR BINDIR BINARY ARG…: BINARY of BINDIR (in the build DIR) run in BINDIR, here or,
# for aarch64, in the arm64 root (qemu-user).
cts_run() {
	_dir=$1 _bindir=$2 _bin=$3
	shift 3
	if [ "$arch" = "$(uname -m)" ]; then
		(cd "$_bindir" && "./$_bin" "$@")
	else
		$roots run --bind "$_dir" --cd "$_bindir" "./$_bin" "$@"
	fi
}

# cts_caselists DIR BINDIR BINARY PREFIX OPTIONS GROUP…: BINDIR/caselists/GROUP.txt for each
# GROUP, the cases of PREFIX.GROUP from the binary's own txt-caselist run mode (it writes
# PREFIX-cases.txt into its working directory), given the OPTIONS (words, or ''; the GL
# modules make their context even to list their cases).
cts_caselists() {
	_dir=$1 _bindir=$2 _bin=$3 _prefix=$4 _options=$5
	shift 5
	rm -rf "$_bindir/caselists.tmp"
	mkdir -p "$_bindir/caselists.tmp"
	for g in "$@"; do
		rm -f "$_bindir/$_prefix-cases.txt"
		# shellcheck disable=SC2086 # the options: one word each
		cts_run "$_dir" "$_bindir" "$_bin" --deqp-runmode=txt-caselist "--deqp-case=$_prefix.$g.*" $_options \
			>"$_dir/caselist.log" 2>&1 ||
			{ tail -n 5 "$_dir/caselist.log" >&2; die "$_bin could not list $_prefix.$g (log: $_dir/caselist.log)"; }
		sed -n 's/^TEST: //p' "$_bindir/$_prefix-cases.txt" >"$_bindir/caselists.tmp/$g.txt"
		[ -s "$_bindir/caselists.tmp/$g.txt" ] || die "$_bin lists no case of $_prefix.$g"
		say "$_prefix.$g: $(wc -l <"$_bindir/caselists.tmp/$g.txt") cases"
	done
	rm -f "$_bindir/$_prefix-cases.txt"
	rm -rf "$_bindir/caselists"
	mv "$_bindir/caselists.tmp" "$_bindir/caselists"
}

# cts_published AT LINK: LINK made a link to AT, atomically.
cts_published() {
	ln -sfn "$1" "$2.tmp"
	mv -T "$2.tmp" "$2"
}
