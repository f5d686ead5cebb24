#!/bin/sh
# Every writer meets a link planted at each of its temporaries (docs/design.md §3): each
# command runs once to show which files it writes, then again with a link to a file outside
# the store planted at every name a temporary of those files has had or could be guessed to
# have (NAME.tmp, .NAME.tmp, .NAME.tmp.PID with the writer's own PID, .NAME.tmp.txn); the
# targets stay byte for byte as they were and the command succeeds. A second part sweeps the
# source: every open(2)-family call that creates a file either makes a fresh one
# (O_CREAT|O_EXCL|O_NOFOLLOW: the atomic writer of ctl/base/fs.c and the staging trees) or is
# one of the few named below, each with why it may open an existing file.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/app-lib.sh"

R1=$(tiny_release 2026.1.1 "$T/r1") && R2=$(tiny_release 2026.2.1 "$T/r2") ||
	{ not_ok "tiny releases"; done_testing; exit 1; }
printf 'keep_versions = 3\n' >"$TB323FU_MESA_CONFIG"
export TB323FU_BOOT_ID=boot-1
mkdir -p "$T/victims"

# written DIR MARK: the files and links under DIR changed since MARK (a file's mtime), but for
# a version's tree (unpacked into a staging tree of its own, never rewritten).
written() { find "$1" -path "$1/versions" -prune -o -newer "$2" \( -type f -o -type l \) ! -name '.lock' -print 2>/dev/null; }

# sweep NAME DIR CMD…: runs CMD (a writer of files under DIR), learns what it wrote, plants a
# link at every temporary name of each of those files, runs CMD again through a shell that
# plants the PID-named ones with its own PID (exec keeps it) and checks every target.
sweep() {
	_name=$1
	_dir=$2
	shift 2
	: >"$T/mark"
	if ! "$@" >"$T/out" 2>"$T/err"; then
		not_ok "$_name runs" "$(head -c 400 "$T/err")"
		return
	fi
	written "$_dir" "$T/mark" >"$T/names"
	[ -s "$T/names" ] || { not_ok "$_name writes something under $_dir"; return; }
	_n=0
	: >"$T/planted"
	while read -r _f; do
		_d=$(dirname "$_f")
		_b=$(basename "$_f")
		# NAME.tmp, pack's old temporary, only outside the store (in it, a writer refuses a link
		# that stands where no file of its own is, naming it)
		_names=".$_b.tmp .$_b.tmp.txn .$_b.tmp.PID"
		[ "$_dir" = "$STORE" ] || _names="$_b.tmp $_names"
		for _t in $_names; do
			_n=$((_n + 1))
			printf 'precious %s\n' "$_n" >"$T/victims/$_n"
			printf '%s\t%s\n' "$_d/$_t" "$_n" >>"$T/planted"
		done
	done <"$T/names"
	# the writer itself plants the PID-named links: exec keeps the shell's PID
	cat >"$T/plant.sh" <<'EOF'
while IFS='	' read -r p n; do
	p=$(printf '%s' "$p" | sed "s/\.tmp\.PID\$/.tmp.$$/")
	rm -f "$p"
	ln -s "$VICTIMS/$n" "$p"
done <"$PLANTED"
exec "$@"
EOF
	if VICTIMS="$T/victims" PLANTED="$T/planted" sh "$T/plant.sh" "$@" >"$T/out" 2>"$T/err"; then
		ok "$_name with links at the temporaries of its $(wc -l <"$T/names") files"
	else
		not_ok "$_name with links at the temporaries of its files" "$(head -c 400 "$T/err")"
	fi
	_bad=
	_i=1
	while [ "$_i" -le "$_n" ]; do
		[ "$(cat "$T/victims/$_i")" = "precious $_i" ] || _bad="$_bad $(sed -n "${_i}p" "$T/planted" | cut -f1)"
		_i=$((_i + 1))
	done
	check "…no target was written through ($_n links)" test -z "$_bad" || printf '#   written through:%s\n' "$_bad"
	# our own links: the planted ones that are not ours go when the next writer cleans up
	while IFS='	' read -r _p _k; do rm -f "$_p" "$(dirname "$_p")/$(basename "$_p" .PID)".[0-9]*; done <"$T/planted"
}

OUT="$T/packed"
mkdir -p "$OUT"
sweep "pack" "$OUT" "$CTL" mesa pack --stage "$T/tiny-stage" --version 2026.3.1 --drivers vulkan,opencl \
	--vulkan-lib lib/libvk.so --opencl-lib lib/libcl.so.1 --rusticl-enable llvmpipe "$OUT"
check "…the tarball it wrote is whole" sh -c "tar tzf '$OUT'/tb323fu-mesa-2026.3.1-*.tar.gz | grep -q MANIFEST"

sweep "install-local" "$STORE" "$CTL" --store "$STORE" mesa install-local "$R1" --no-smoke
sweep "install-local of a second version" "$STORE" "$CTL" --store "$STORE" mesa install-local "$R2" --no-smoke
sweep "on" "$STORE" "$CTL" --store "$STORE" mesa on
sweep "off" "$STORE" "$CTL" --store "$STORE" mesa off
sweep "rollback" "$STORE" "$CTL" --store "$STORE" mesa rollback
sweep "on again" "$STORE" "$CTL" --store "$STORE" mesa on
export TB323FU_BOOT_ID=boot-2
sweep "boot-tick" "$STORE" "$CTL" --store "$STORE" mesa boot-tick
entry demo.desktop '[Desktop Entry]' 'Type=Application' 'Name=Demo' 'Exec=demo %U'
sweep "app set" "$LOCAL_APPS" "$CTL" --store "$STORE" mesa app set demo.desktop distro
expect_exit 0 "the store is whole after all of it" ctl mesa verify --all

# ---- the source: every file-creating open ----
# allowed FILE:PATTERN: opens that may meet an existing file, with why
cat >"$T/allowed" <<'EOF'
ctl/store/store.c:O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK	the store's .lock: kept between writers (flock), never a link, never waited on
ctl/scope/app_scope.c:O_RDWR | O_CREAT | O_NOFOLLOW	a rule scope's lock file: kept between writers (flock), never a link
ctl/release/fetch.c:O_RDWR | O_CREAT | O_NOFOLLOW	a partial download in the store's cache/, resumed by Range: never a link, under the lock
ctl/store/pins.c:O_RDWR | O_CREAT : O_RDONLY) | O_NOFOLLOW | O_NONBLOCK	a version's pin in .pins/: kept between readers (flock), never a link, never waited on
EOF
cd "$TB_TOP" || exit 1
grep -rnE '\b(open|openat|creat|fopen|mkostemp|mkstemp)\(' ctl tb323fu-mesa --include='*.c' --include='*.cpp' |
	grep -E 'O_CREAT|creat\(|fopen\([^)]*"[wa]|mkstemp|mkostemp' >"$T/creating"
_bad=
while IFS= read -r line; do
	f=${line%%:*}
	case $line in
	*O_CREAT*O_EXCL*O_NOFOLLOW* | *O_CREAT*O_NOFOLLOW*O_EXCL* | *mkostemp*O_NOFOLLOW*) continue ;;
	esac
	found=
	while IFS='	' read -r spec _; do
		[ "${spec%%:*}" = "$f" ] && case $line in *"${spec#*:}"*) found=1 ;; esac
	done <"$T/allowed"
	[ -n "$found" ] || _bad="$_bad
$line"
done <"$T/creating"
check "every file-creating open makes a fresh file or is one of $(wc -l <"$T/allowed") named ($(wc -l <"$T/creating") opens)" test -z "$_bad" ||
	printf '#   %s\n' "$_bad"
check "no writer names a fixed temporary beside its file (NAME.tmp)" \
	sh -c "! grep -rnE 'xasprintf\(\"%s\\.tmp\"' ctl tb323fu-mesa --include='*.c'"

done_testing
