#!/bin/sh
# Every error says what to do next (docs/design.md §9, §12), with its own reason id; for each
# sentence the next step it names is taken and does what it says: a download that does not
# match its SHA256SUMS (download it again), a tarball whose MANIFEST names another version
# (fetch that release), install-local of a file that is not a release (pass the tarball), a
# file that is not there (not-found), rollback with no previous version (off, or install
# another), an unknown mesa.conf key (the nearest key), a rule file or lock of the caller's
# that another user owns (permission, not damage: chown it back); and a sweep of failures, each
# command they name run in the state they left (a version name's failures point at
# `list --available`).
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"
. "$TB_TOP/tests/app-lib.sh"

V1=2026.10.01
V2=2026.10.02
R1=$(tiny_release $V1 "$T/r1") && R2=$(tiny_release $V2 "$T/r2") ||
	{ not_ok "the releases"; done_testing; exit 1; }
WWW="$T/www"
mkdir -p "$WWW" "$T/keys"
: >"$T/token"
start_httpd "$WWW" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="http://127.0.0.1:$PORT"
serve() { python3 "$TB_TOP/tests/doubles/fake-github" "$WWW" "$API"; }
net_config "smoke = off"
# said TEXT: the sentence (stderr) has TEXT (a fixed string)
said() { grep -qF -- "$1" "$T/err"; }
# next_step CMD: the command the sentence names, between backquotes or parentheses as
# `tb323fu-ctl mesa …`, is CMD exactly
names() { grep -qF -- "$1" "$T/err"; }

# --- a download damaged on the way: download it again
printf 'mesa-%s flip-byte %s\n' $V2 "$R2" | serve
expect_exit 4 "a download that does not match its SHA256SUMS" ctl --json mesa download $V2
reason_is hash-mismatch
check "  says to download it again, with the command" names "download it again (tb323fu-ctl --store $STORE mesa download $V2)"
check "  and what to do if it repeats" said "if it fails the same way again, the release itself is wrong: choose another version and tell the release's publisher"
check "  kept nothing" test ! -e "$STORE/versions/$V2"
rm -rf "$WWW/repos" "$WWW/download"
printf 'mesa-%s - %s\n' $V2 "$R2" | serve
expect_exit 0 "  the next step: tb323fu-ctl mesa download $V2 (the server's copy is whole again)" ctl mesa download $V2
rm -rf "$STORE"

# --- a local tarball that does not match: fetch it again
cp "$R1" "$T/damaged.tar.gz"
printf '%s  %s\n' "$(sha256sum <"$R1" | cut -c1-64)" "$(basename "$R1")" >"$T/sums"
mkdir -p "$T/damaged"
cp "$R1" "$T/damaged/"
cp "$T/sums" "$T/damaged/SHA256SUMS"
printf 'X' >>"$T/damaged/$(basename "$R1")" # a byte more after the compressed stream
expect_exit 4 "install-local of a tarball that does not match its SHA256SUMS" ctl --json mesa install-local "$T/damaged" --no-smoke
reason_is hash-mismatch
check "  says to fetch it again with its SHA256SUMS, and what to do if it repeats" \
	said "nothing was changed: fetch the tarball again, with the SHA256SUMS of the same release; if it fails the same way again, the release itself is wrong"
expect_exit 0 "  the next step: the tarball fetched again" ctl mesa install-local "$(dirname "$R1")" --no-smoke
rm -rf "$STORE"

# --- a tarball whose MANIFEST names another version: fetch the release it names
mkdir -p "$T/renamed"
cp "$R2" "$T/renamed/tb323fu-mesa-2026.10.09-$(uname -m).tar.gz"
(cd "$T/renamed" && sha256sum -- *.tar.gz >SHA256SUMS)
expect_exit 4 "install-local of $V2's tarball named 2026.10.09" ctl --json mesa install-local "$T/renamed" --no-smoke
reason_is tag-mismatch
check "  says it is another release's tarball" said "its MANIFEST says version $V2, the release (its name or signed tag) is 2026.10.09, so it is another release's tarball"
check "  names the release to fetch for each" said "for $V2, fetch release $V2 (tb323fu-ctl --store $STORE mesa download $V2)"
expect_exit 0 "  the next step: tb323fu-ctl mesa download $V2" ctl mesa download $V2
rm -rf "$STORE"

# --- install-local of a file that is not a release
expect_exit 4 "install-local of a SHA256SUMS" ctl --json mesa install-local "$(dirname "$R1")/SHA256SUMS" --no-smoke
reason_is not-a-release
check "  says it is not a release tarball, and what one is" \
	said "$(dirname "$R1")/SHA256SUMS is not a release tarball (a Mesa release is tb323fu-mesa-VERSION-$(uname -m).tar.gz"
check "  not that SHA256SUMS has no line for itself" sh -c "! grep -q 'has no line for' '$T/err'"
expect_exit 4 "install-local of a key file" ctl --json mesa install-local /etc/hostname --no-smoke
reason_is not-a-release
expect_exit 0 "  the next step: the tarball, or the directory that holds both" ctl mesa install-local "$(dirname "$R1")" --no-smoke

# --- a file that is not there
expect_exit 1 "install-local of a file that is not there" ctl --json mesa install-local "$T/nothing.tar.gz"
reason_is not-found
mkdir -p "$T/empty-dir"
expect_exit 1 "install-local of a directory without a release" ctl --json mesa install-local "$T/empty-dir"
reason_is not-found
check "  says to name a release's directory or its tarball" said "name the directory of a release, or the tarball itself"

# --- rollback with no previous version
expect_exit 1 "rollback with one version installed" ctl --json mesa rollback
reason_is no-previous
check "  names the only version and the ways on" \
	said "there is no previous version to go back to (Mesa $V1 is the only version installed that rollback knows); nothing was changed: \`tb323fu-ctl --store $STORE mesa off\` switches to the distribution's Mesa"
check "  and how to have one" said "to have a version to go back to, install another one: \`tb323fu-ctl --store $STORE mesa list --available\` shows the versions on offer"
expect_exit 0 "  the next step: tb323fu-ctl mesa off" ctl mesa off
expect_exit 0 "  the next step: tb323fu-ctl mesa download $V2" ctl mesa download $V2
expect_exit 0 "  then tb323fu-ctl mesa install $V2" ctl mesa install $V2 --no-smoke
expect_exit 0 "  after which rollback goes back" ctl mesa rollback

# --- an unknown mesa.conf key
cp "$TB323FU_MESA_CONFIG" "$T/good.conf"
printf 'chanel = testing\n' >>"$TB323FU_MESA_CONFIG"
expect_exit 2 "mesa.conf with a mistyped key" ctl --json mesa status
reason_is usage
check "  suggests the nearest known key" said "unknown key \"chanel\"; did you mean \"channel\"?"
check "  and points at the keys' page, not at a command's help" sh -c "grep -q 'man tb323fu-mesa.conf' '$T/err' && ! grep -q 'mesa help status' '$T/err'"
sed -i 's/^chanel/channel/' "$TB323FU_MESA_CONFIG"
expect_exit 0 "  the next step: the key as suggested" ctl mesa status
cp "$T/good.conf" "$TB323FU_MESA_CONFIG"

# --- a user's rule file and lock that another user owns (written by a command run with sudo)
entry org.example.Mine.desktop '[Desktop Entry]' 'Type=Application' 'Name=Mine' 'Exec=mine'
if reachable_by nobody; then
	NH="$T/nobody"
	mkdir -p "$NH/.config/tb323fu"
	printf 'org.example.Mine.desktop=distro\n' >"$NH/.config/tb323fu/mesa-apps"
	: >"$NH/.config/tb323fu/.mesa-apps.lock"
	chmod 600 "$NH/.config/tb323fu/.mesa-apps.lock"
	chown -R nobody "$NH"
	chown root "$NH/.config/tb323fu/mesa-apps" "$NH/.config/tb323fu/.mesa-apps.lock"
	as_nobody() {
		run_cmd runuser -u nobody -- env HOME="$NH" XDG_CONFIG_HOME= XDG_DATA_HOME= \
			XDG_DATA_DIRS="$XDG_DATA_DIRS" TB323FU_MESA_APPS_DIR="$LOCAL_APPS" \
			TB323FU_MESA_CONFIG="$TB323FU_MESA_CONFIG" "$CTL" --store "$STORE" "$@"
	}
	uid=$(id -u nobody)
	as_nobody --json mesa app set --user org.example.Mine "$V1"
	check "a lock the user may not open: exit 1" test "$rc" = 1
	reason_is permission
	check "  says whose it is and how to give it back" \
		said "you may not open your rules' lock $NH/.config/tb323fu/.mesa-apps.lock (it belongs to uid 0: written by a command run with sudo?); nothing was changed: give it back with \`sudo chown $uid $NH/.config/tb323fu/.mesa-apps.lock\`"
	chown "$uid" "$NH/.config/tb323fu/.mesa-apps.lock"
	as_nobody --json mesa app list --user
	check "a rule file another user owns is not said to be damaged" sh -c "test $rc = 0 && ! grep -q rules-corrupt '$T/out'"
	check "  but a permission problem with its next step" \
		json_strict "$T/out" '"belongs to another user (uid 0; written by a command run with sudo?), so it is not read and nothing was changed: give it back with `sudo chown '"$uid $NH"'/.config/tb323fu/mesa-apps`" in d["message"] or exit(1)'
	as_nobody --json mesa app set --user org.example.Mine "$V1"
	check "  a writer stops there too: exit 1" test "$rc" = 1
	reason_is permission
	chown "$uid" "$NH/.config/tb323fu/mesa-apps"
	as_nobody mesa app set --user org.example.Mine "$V1"
	check "  the next step: chown, then the command works" test "$rc" = 0
	unreachable_again
else
	skip "a rule file another user owns" "needs root and runuser"
fi

# --- crashes with no journal to read: said so, never "no crash is in the journal"
(
	unset TB323FU_MESA_JOURNAL
	if journalctl -n 0 2>&1 | grep -q "No journal files were found"; then
		expect_exit 1 "crashes on a system that keeps no journal" ctl --json mesa crashes
		reason_is not-found
		check "  says no crash can be seen, and why" \
			json_strict "$T/out" '"no journal file could be read" in d["message"] and "so no crash can be seen" in d["message"] or exit(1)' >/dev/null
		check "  not that no crash is in the journal" sh -c "! grep -q 'no crash of a program' '$T/out'"
		expect_exit 0 "doctor on that system" ctl --json mesa doctor
		check "  lists it (journal_readable false, and the sentence)" \
			json_strict "$T/out" 'd["crashes"]["journal_readable"] is False and "no journal file could be read" in d["message"] or exit(1)' >/dev/null
	else
		expect_exit 0 "crashes on a system that keeps a journal" ctl --json mesa crashes
		expect_exit 0 "doctor on that system" ctl --json mesa doctor
		check "  says the journal can be read" json_strict "$T/out" 'd["crashes"]["journal_readable"] is True or exit(1)' >/dev/null
	fi
	echo "$_tb_n" >"$T/n"
)
_tb_n=$(cat "$T/n")
export TB323FU_MESA_JOURNAL="$T/no-such.journal"
expect_exit 1 "crashes with \$TB323FU_MESA_JOURNAL naming no file" ctl --json mesa crashes
reason_is not-found
# --- the sweep: every command a failure names, run in the state the failure left -------------
# A failure that needs a version name points at `list --available`; each command a sentence
# names (between backquotes, or in parentheses) runs and exits 0, and none is a pattern to fill
# in (VERSION, FILE). Over: versions not installed or not offered, with the list cached and
# without it, bisect's ends, notes, and the store's own not-installed answers.
# named_commands FILE: the tb323fu-ctl commands the sentence in FILE names, one a line
named_commands() {
	python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
for cmd in re.findall(r"`(tb323fu-ctl [^`]*)`", text) + re.findall(r"\((tb323fu-ctl [^()]*)\)", text):
    print(cmd)
PY
}
# sweep NAME CMD…: CMD fails (exit 1 to 5) and each command its sentence names runs, exit 0
sweep() {
	_name=$1
	shift
	run_cmd "$@"
	check "sweep: $_name fails" test "$rc" -ge 1 -a "$rc" -le 5
	named_commands "$T/err" >"$T/named"
	check "sweep: $_name names a next step" test -s "$T/named"
	while IFS= read -r _cmd; do
		case $_cmd in
		*VERSION* | *FILE* | *…*) not_ok "sweep: $_name names a pattern, not a command: $_cmd" ;;
		*)
			eval "set -- $_cmd"
			shift
			run_cmd "$CTL" "$@"
			check "sweep: $_name → \`$_cmd\` works (exit $rc)" test "$rc" = 0
			;;
		esac
	done <"$T/named"
}
rm -rf "$STORE" "$WWW/repos" "$WWW/download"
printf 'mesa-%s - %s\nmesa-%s - %s\n' $V2 "$R2" $V1 "$R1" | serve
expect_exit 0 "the sweep's store: $V1 installed from its file, no list cached" ctl mesa install-local "$(dirname "$R1")" --no-smoke
sweep "install of a version not installed, no list cached" ctl --json mesa install 2026.99.99
sweep "bisect with no installed version older than the bad one" ctl --json mesa bisect --command true
sweep "bisect from a version no list offers" ctl --json mesa bisect --good 2026.99.98 --bad $V1 --command true
sweep "notes of a version not offered, no list cached" ctl --json mesa notes 2026.99.99
sweep "download of a version not offered" ctl --json mesa download 2026.99.99
sweep "install of a version not offered, the list cached" ctl --json mesa install 2026.99.99
sweep "update --to a version not offered" ctl --json mesa update --to 2026.99.99
sweep "notes of a version not offered" ctl --json mesa notes 2026.99.99
sweep "remove of a version not installed" ctl --json mesa remove 2026.99.99
sweep "smoke of a version not installed" ctl --json mesa smoke 2026.99.99
sweep "verify of a version not installed" ctl --json mesa verify 2026.99.99
sweep "rollback with one version" ctl --json mesa rollback
sweep "install of $V2, offered but not downloaded" ctl --json mesa install $V2 --no-smoke
check "…whose next step downloaded it" test -d "$STORE/versions/$V2"
expect_exit 1 "cts update with no CTS release offered" ctl --json mesa cts update
reason_is not-offered
check "  says so, with no version named, and where a CTS built here goes" \
	said "no CTS release for $(uname -m) is offered on stable by github:o/r; nothing was changed; the suites take a CTS built here instead: cts_dir (OpenCL-CTS) or deqp_dir (dEQP-VK) in mesa.conf (man tb323fu-mesa.conf)"
check "  the page it names documents both keys" sh -c "grep -q '^\*cts_dir\*' '$TB_TOP/docs/man/tb323fu-mesa.conf.5.scd' && grep -q '^\*deqp_dir\*' '$TB_TOP/docs/man/tb323fu-mesa.conf.5.scd'"
done_testing
