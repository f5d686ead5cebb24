# shellcheck shell=sh
# Sourced by every integration test: a private work directory, TAP output, and the
# stand-in releases that the tests share.
set -u
: "${TB_TOP:?run through tests/run}" "${TB_BIN:?}" "${TB_BUILD:?}"
CTL="$TB_BIN/tb323fu-ctl"
MESA="$TB_BIN/tb323fu-mesa"
SMOKE="$TB_BIN/tb323fu-mesa-smoke"
T=$(mktemp -d "${TMPDIR:-/tmp}/tb323fu-test.XXXXXX")
STORE="$T/store"
RELEASES="$TB_BUILD/test-releases"
export TB323FU_MESA_CONFIG="$T/mesa.conf"
# the Open Device Helper's settings, which apply where mesa.conf is silent: none unless a test writes them
export TB323FU_CONFIG="$T/helper.toml"
: >"$TB323FU_MESA_CONFIG"
unset TB323FU_MESA_DIR VK_DRIVER_FILES VK_ICD_FILENAMES OCL_ICD_VENDORS RUSTICL_ENABLE \
	__EGL_VENDOR_LIBRARY_FILENAMES __GLX_VENDOR_LIBRARY_NAME LIBGL_DRIVERS_PATH GBM_BACKENDS_PATH \
	MESA_LOADER_DRIVER_OVERRIDE LIBGL_ALWAYS_SOFTWARE
# Flatpak installations of the test's own (none there unless a test makes them): `on` edits
# the installations' overrides, and no test may touch the machine's (docs/design.md §17)
export FLATPAK_SYSTEM_DIR="$T/flatpak-system" FLATPAK_USER_DIR="$T/flatpak-user"
_tb_n=0
# Everything the test made goes with it, also when it fails or is interrupted: the processes
# it left running (TB_KILL_ON_EXIT), file systems mounted under $T, then $T itself (made
# writable first: a test may have taken the write bit away).
_tb_cleanup() {
	for pid in ${TB_KILL_ON_EXIT:-}; do kill "$pid" 2>/dev/null; done
	for pid in ${TB_KILL_ON_EXIT:-}; do wait "$pid" 2>/dev/null || :; done
	awk -v t="$T/" 'index($2, t) == 1 { print $2 }' /proc/mounts 2>/dev/null | sort -r |
		while read -r m; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
	chmod -R u+w "$T" 2>/dev/null
	rm -rf "$T"
}
trap _tb_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

ok() { _tb_n=$((_tb_n + 1)); echo "ok $_tb_n - $1"; }
not_ok() {
	_tb_n=$((_tb_n + 1))
	echo "not ok $_tb_n - $1"
	shift
	[ $# -gt 0 ] && printf '#   %s\n' "$@"
	return 0
}
# skip NAME REASON: a test that cannot run on this machine, counted as skipped.
skip() {
	_tb_n=$((_tb_n + 1))
	echo "ok $_tb_n - $1 # SKIP $2"
}
# json_strict [--lines] FILE|- [EXPR]: fails unless FILE (- for stdin) is JSON as D-Bus and
# strict parsers take it (valid UTF-8, no NaN/Infinity, no lone surrogate; --lines: each line
# is); with EXPR prints eval(EXPR) over the document d.
json_strict() { python3 "$TB_TOP/tests/tools/json_strict.py" "$@"; }
# json EXPR: eval(EXPR) over d, the JSON document on stdin, read as json_strict reads it (a
# command's output: `ctl --json mesa status | json 'd["installed"]'`, or `<"$T/out"`).
json() { json_strict - "$1"; }
# field EXPR: the same over the document a test kept in $T/out.
field() { json_strict "$T/out" "$1"; }

# check NAME CMD…: passes when CMD succeeds.
check() {
	name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# wait_until SECONDS CMD…: runs CMD every tenth of a second until it succeeds; fails when
# SECONDS passed first (a bound for a condition, never a guess at how long something takes).
wait_until() {
	_w=$(($1 * 10))
	shift
	until "$@"; do
		_w=$((_w - 1))
		[ "$_w" -gt 0 ] || return 1
		sleep 0.1
	done
}

# run_cmd CMD…: runs CMD, keeps its status in $rc, stdout in $T/out, stderr in $T/err.
run_cmd() {
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
}
# expect_exit CODE NAME CMD…: passes when CMD exits with CODE (output kept as run_cmd does).
expect_exit() {
	want=$1
	name=$2
	shift 2
	run_cmd "$@"
	if [ "$rc" -eq "$want" ]; then
		ok "$name"
	else
		not_ok "$name" "exit $rc, wanted $want" "stdout: $(head -c 600 "$T/out")" \
			"stderr: $(head -c 600 "$T/err")"
	fi
}
# ctl ARGS…: the control tool on the test's store.
ctl() { "$CTL" --store "$STORE" "$@"; }
mesa() { "$MESA" --store "$STORE" "$@"; }

# standin VERSION [PACK-ARGS…]: path of a stand-in release tarball of VERSION, built once and
# shared by all tests (its SHA256SUMS sits beside it), packed at gzip's level 1. Extra pack arguments make a variant, and
# so does a change of the recipe (a release of an older one is not reused).
# Tests running at once may ask for the same one: it is built under a lock of its own
# ($dir.lock, flock), in $dir.tmp, and renamed into place complete; whoever waited for the
# lock finds it there.
standin() {
	v=$1
	shift
	key=$( (printf '%s\n' "$*" gzip-1; cat "$TB_TOP/build-recipes/stand-in") | sha256sum | cut -c1-12)
	dir="$RELEASES/$v-$key"
	if [ ! -f "$dir/SHA256SUMS" ]; then
		mkdir -p "$RELEASES" && _standin_locked "$dir" "$v" "$@" 9>>"$dir.lock" || return 1
	fi
	echo "$dir/$(cd "$dir" && ls tb323fu-mesa-"$v"-*.tar.* | head -n 1)"
}
# _standin_locked DIR VERSION [PACK-ARGS…]: builds DIR holding the lock on fd 9.
_standin_locked() {
	_d=$1
	_v=$2
	shift 2
	flock 9 || return 1
	[ ! -f "$_d/SHA256SUMS" ] || return 0
	rm -rf "$_d.tmp" "$_d"
	mkdir -p "$_d.tmp"
	# gzip's level 1: a third of the build's time (docs/design.md §14, TB323FU_TEST_GZIP_LEVEL)
	TB323FU_TEST_GZIP_LEVEL=1 TB323FU_CTL="$CTL" "$TB_TOP/build-recipes/stand-in" "$_v" "$_d.tmp" "$@" 9>&- >/dev/null ||
		{ echo "stand-in $_v failed" >&2; rm -rf "$_d.tmp"; return 1; }
	mv "$_d.tmp" "$_d"
}

done_testing() {
	echo "1..$_tb_n"
}

# paused POINT CMD…: starts CMD (a writer) in the background stopped at its named point POINT
# (TB323FU_TEST_PAUSE, docs/design.md §14) and returns once it is there (status 0), or once
# it ended without getting there (status 1). Then $paused_pid is the writer: kill_paused ends
# it at the point; resume lets it go on. `wait "$paused_job"` gives its exit status.
# No time is guessed: the FIFO says which came first.
paused() {
	_point=$1
	shift
	_fifo="$T/pause.fifo"
	rm -f "$_fifo" "$T/paused.pid"
	mkfifo -m 600 "$_fifo" || return 1
	exec 8<>"$_fifo" # read-write: opening it never waits
	# The writer stays at its point while anything holds the FIFO's reading end: a sleep that
	# only holds it (no other command started meanwhile inherits it).
	sleep 86400 0<&8 8<&- &
	paused_holder=$!
	(
		exec 8<&-
		TB323FU_TEST_PAUSE="$_point:$_fifo" sh -c 'echo $$ >"$0"; exec "$@"' "$T/paused.pid" "$@" \
			>"$T/paused.out" 2>"$T/paused.err"
		_rc=$?
		echo "ended $_rc" 1<>"$_fifo" # read-write: never waits, whoever still reads
		exit $_rc
	) &
	paused_job=$!
	TB_KILL_ON_EXIT="${TB_KILL_ON_EXIT:-} $paused_holder $paused_job"
	read -r _said <&8
	exec 8<&-
	paused_pid=$(cat "$T/paused.pid")
	[ "$_said" = "$_point" ]
}
# resume: the paused writer goes on (nothing holds its FIFO's reading end any more).
resume() {
	kill "$paused_holder" 2>/dev/null
	wait "$paused_holder" 2>/dev/null
	return 0
}
# kill_paused: SIGKILL for the paused writer where it stands; waits for it.
kill_paused() {
	kill -9 "$paused_pid" 2>/dev/null
	wait "$paused_job" 2>/dev/null
	resume
}
# wait_for NAME CMD…: passes once CMD succeeds; a bound of a minute (not a guess at how long
# anything takes) keeps a condition that never comes from hanging the test.
wait_for() {
	_name=$1
	shift
	_i=0
	until "$@"; do
		_i=$((_i + 1))
		[ $_i -ge 1200 ] && { not_ok "$_name" "not so after a minute"; return 1; }
		sleep 0.05
	done
	ok "$_name"
}

# tiny_release VERSION DIR: a release of VERSION in DIR made of two tiny driver libraries with
# the loaders' entry points (fast to install thousands of times; no real driver in it).
# Prints the tarball's path; its SHA256SUMS sits beside it.
tiny_release() {
	_v=$1
	_d=$2
	_s="$T/tiny-stage"
	if [ ! -f "$_s/lib/libvk.so" ]; then
		mkdir -p "$_s/lib"
		printf '%s\n' \
			'void *vk_icdGetInstanceProcAddr(void *i, const char *n) { (void)i; (void)n; return 0; }' \
			'int vk_icdNegotiateLoaderICDInterfaceVersion(unsigned *v) { (void)v; return 0; }' \
			'int clIcdGetPlatformIDsKHR(unsigned n, void *p, unsigned *np) { (void)n; (void)p; (void)np; return 0; }' \
			>"$T/tiny-drv.c"
		cc -shared -fPIC -o "$_s/lib/libvk.so" "$T/tiny-drv.c" || return 1
		cp "$_s/lib/libvk.so" "$_s/lib/libcl.so.1" && chmod 644 "$_s/lib/"* || return 1
	fi
	mkdir -p "$_d"
	"$CTL" mesa pack --stage "$_s" --version "$_v" --commit "c$_v" --base "b$_v" --mesa-version "m$_v" \
		--drivers vulkan,opencl --vulkan-lib lib/libvk.so --opencl-lib lib/libcl.so.1 \
		--rusticl-enable llvmpipe "$_d" >/dev/null || return 1
	ls "$_d"/tb323fu-mesa-"$_v"-*.tar.*
}

# cts_stand_in OUTDIR VERSION [ARCH]: a CTS release of VERSION for ARCH (x86_64 or aarch64;
# default this machine's) made by build-recipes/cts-release from the doubles: fake-deqp-vk as
# dEQP-VK with caselists/info.txt and api.smoke.txt of fake-deqp-vk.cases' names, fake-cts as
# test_basic and other/test_other.
# Prints the tarball's path; SHA256SUMS and the build record sit beside it in OUTDIR.
cts_stand_in() {
	_c=$T/cts-doubles
	if [ ! -f "$_c/ocl/other/test_other" ]; then
		mkdir -p "$_c/deqp/caselists" "$_c/ocl/other" &&
			cp "$TB_TOP/tests/doubles/fake-deqp-vk" "$_c/deqp/deqp-vk" &&
			grep '^dEQP-VK\.info\.' "$TB_TOP/tests/doubles/fake-deqp-vk.cases" >"$_c/deqp/caselists/info.txt" &&
			grep '^dEQP-VK\.api\.smoke\.' "$TB_TOP/tests/doubles/fake-deqp-vk.cases" >"$_c/deqp/caselists/api.smoke.txt" &&
			cp "$TB_TOP/tests/doubles/fake-cts" "$_c/ocl/test_basic" &&
			cp "$TB_TOP/tests/doubles/fake-cts" "$_c/ocl/other/test_other" || return 1
	fi
	_a=${3:-$(uname -m)}
	SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1767225600} TB323FU_CTL="$CTL" "$TB_TOP/build-recipes/cts-release" \
		--arch "$_a" --version "$2" --deqp "$_c/deqp" --opencl-cts "$_c/ocl" --out "$1" >/dev/null ||
		{ echo "cts-release $2 failed" >&2; return 1; }
	ls "$1/tb323fu-cts-$2-$_a.tar.gz"
}

# reason_is ID|ID…: the JSON failure in $T/out carries one of these reason ids (docs/design.md §9).
reason_is() {
	got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("reason", ""))' "$T/out" 2>/dev/null)
	case "|$1|" in
	*"|$got|"*) [ -n "$got" ] && ok "…reason $got" || not_ok "…reason $1" "no reason in: $(head -c 300 "$T/out")" ;;
	*) not_ok "…reason $1" "reason \"$got\" in: $(head -c 300 "$T/out")" ;;
	esac
}

# reachable_by USER: USER may pass $T and every directory above it (o+x where it could not,
# undone by unreachable_again: those are the run's own temporary directories), and may run
# the programs under test: where the checkout is out of USER's reach (a clone in root's 0700
# home), $CTL, $MESA and $SMOKE become copies in $T/programs, side by side as the build (and
# make install's libexec) lays them out; the folders above the checkout keep their modes.
# 1 when runuser is missing or this is not root.
reachable_by() {
	[ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null || return 1
	chmod 0755 "$T"
	_opened=
	_d=$(dirname "$T")
	while [ "$_d" != / ]; do
		if ! runuser -u "$1" -- test -x "$_d" 2>/dev/null; then
			chmod o+x "$_d" && _opened="$_opened $_d"
		fi
		_d=$(dirname "$_d")
	done
	if ! runuser -u "$1" -- test -x "$CTL" 2>/dev/null; then
		mkdir -p "$T/programs" && chmod 0755 "$T/programs" &&
			cp "$CTL" "$MESA" "$SMOKE" "$T/programs/" && chmod 0755 "$T/programs/"* || return 1
		CTL="$T/programs/tb323fu-ctl" MESA="$T/programs/tb323fu-mesa" SMOKE="$T/programs/tb323fu-mesa-smoke"
	fi
}
unreachable_again() { for _d in ${_opened:-}; do chmod o-x "$_d"; done; }

# third_party: the directory of the shared upstream source archives ($TB323FU_THIRD_PARTY, else
# ../shared/third_party beside the repository); fails when there is none.
third_party() {
	for _d in "${TB323FU_THIRD_PARTY:-}" "$TB_TOP/../shared/third_party"; do
		[ -n "$_d" ] && [ -d "$_d" ] && { (cd "$_d" && pwd); return 0; }
	done
	return 1
}

# store_digest: every file of the store with its SHA-256, and every link with its target (what
# a command that changes nothing must leave as it was). The readers' pins (.pins/, flock files
# kept between readers as .lock is between writers) are no state of the store.
store_digest() {
	(cd "$STORE" && find . -path ./.pins -prune -o -type f -print0 | sort -z | xargs -0 -r sha256sum &&
		find . -path ./.pins -prune -o -type l -printf '%p -> %l\n' | sort)
}
