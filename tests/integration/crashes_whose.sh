#!/bin/sh
# Whose crash evidence counts and whose crash pins whom (docs/design.md §18, "Whose crash
# counts"): a test per line of the policy. Entries a normal user sends through the journal's
# own API (sd_journal_sendv, logger --journald) are written by a real systemd-journald, run in
# a mount namespace of the test's own; the entry systemd-coredump writes from its service is
# sent the same way from a process in a systemd-coredump@….service cgroup; the others are
# journal files written by systemd-journal-remote (tests/tools/crash_journal.py).
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/app-lib.sh"

JR=/usr/lib/systemd/systemd-journal-remote
JD=/usr/lib/systemd/systemd-journald
if [ ! -x "$JR" ]; then
	skip "whose crash evidence counts" "systemd-journal-remote (package systemd-journal-remote) is not installed"
	done_testing
	exit 0
fi
. "$TB_TOP/tests/crash-lib.sh"
session() { "$CTL" --store "$STORE" --json mesa status | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["session"], d["installed"])'; }

mkdir -p "$T/bin"
for p in crasher other; do
	printf '#!/bin/sh\nexit 0\n' >"$T/bin/$p"
	chmod 755 "$T/bin/$p"
done
entry org.example.Crasher.desktop '[Desktop Entry]' 'Type=Application' 'Name=Crasher' "Exec=$T/bin/crasher %f"
entry org.example.Other.desktop '[Desktop Entry]' 'Type=Application' 'Name=Other' "Exec=$T/bin/other"
CRASH="$FIX/store-lvp.coredump.export,COREDUMP_EXE=$T/bin/crasher"
OTHER="$FIX/store-lvp.coredump.export,COREDUMP_EXE=$T/bin/other,COREDUMP_PID=4242"

fresh || { not_ok "install two stand-in releases, switch the session on"; done_testing; exit 1; }

# --- 1. only systemd-coredump's own entries count: the journal's fields, which no sender sets
# a real journald in a namespace of the test's own; senders: nobody through the journal's
# API, and root from a systemd-coredump@….service cgroup (systemd-coredump's own place)
# A private mount namespace of this test's own: not in every root (a chroot may refuse it).
private_ns() { command -v unshare >/dev/null && unshare -m --propagation private true 2>/dev/null; }
# shellcheck disable=SC2046 # pkg-config's flags are words
if [ "$(id -u)" -ne 0 ] || [ ! -x "$JD" ] || ! private_ns || ! reachable_by nobody ||
	! cc -o "$T/journal-send" "$TB_TOP/tests/tools/journal-send.c" $(pkg-config --cflags --libs libsystemd) 2>"$T/cc.err"; then
	skip "entries sent through the journal's API to a real journald" "needs root, systemd-journald, a private mount namespace (unshare -m), runuser and a C compiler"
else
	mkdir -p "$T/sd" "$T/nobody"
	cp "$T/journal-send" "$T/sd/systemd-coredump"
	cp "$T/journal-send" "$T/nobody/systemd-coredump"
	chmod -R a+rX "$T/sd" "$T/nobody" "$T/journal-send"
	CRASH_STORE=$REAL python3 "$TB_TOP/tests/tools/crash_journal.py" --fields "$T/f" "$CRASH" &&
		chmod -R a+rX "$T/f" || not_ok "the recorded crash's fields"
	set --
	for f in "$T"/f/*; do set -- "$@" "$(basename "$f")=@$f"; done
	printf '%s\n' "$@" >"$T/fields"
	# the hierarchy journald reads a process's unit from: the unified one (also beside the
	# legacy ones), else the legacy name=systemd one
	CG=/sys/fs/cgroup/systemd
	for d in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		[ "$(stat -f -c %T "$d" 2>/dev/null)" = cgroup2fs ] && { CG=$d; break; }
	done
	CGU="$CG/system.slice/systemd-coredump@9-$$-0.service"
	made_slice=
	[ -d "$CG/system.slice" ] || made_slice=1
	printf '[Journal]\nStorage=volatile\nReadKMsg=no\n' >"$T/journald.conf"
	cat >"$T/ns.sh" <<-'NS'
		# in a mount namespace of its own: a journald on a /run of its own
		set -u
		T=$1 CGU=$2 REAL=$3
		mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/journal /run/log/journal &&
			mount --bind "$T/journald.conf" /etc/systemd/journald.conf || exit 1
		/usr/lib/systemd/systemd-journald >"$T/journald.log" 2>&1 &
		jd=$!
		i=0
		until [ -S /run/systemd/journal/socket ]; do
			i=$((i + 1)); [ "$i" -lt 300 ] || { echo "journald did not start"; exit 1; }
			sleep 0.1
		done
		# send WHO CMD…: CMD sends and waits; journald has the entry (journalctl --sync) before it ends
		send() {
			rm -f "$T/in" "$T/outp"; mkfifo -m 666 "$T/in" "$T/outp"
			"$@" <"$T/in" >"$T/outp" 2>>"$T/send.err" &
			s=$!
			exec 4>"$T/in"
			read -r line <"$T/outp"
			journalctl --sync
			exec 4>&-
			wait "$s"
			[ "$line" = sent ]
		}
		# the recorded crash's fields as arguments (FIELD=@FILE), the sender's standard input
		# kept open by send
		set --
		while IFS= read -r f; do set -- "$@" "$f"; done <"$T/fields"
		ok=0
		# nobody, as a program named systemd-coredump, claiming root's crash
		send runuser -u nobody -- "$T/nobody/systemd-coredump" "$@" || ok=1
		# …and claiming its own
		n=$#
		for f in "$@"; do
			case $f in COREDUMP_UID=*) set -- "$@" COREDUMP_UID=65534 ;; *) set -- "$@" "$f" ;; esac
		done
		shift "$n"
		send runuser -u nobody -- "$T/nobody/systemd-coredump" "$@" || ok=1
		# nobody with logger --journald
		printf 'MESSAGE_ID=fc2e22bc6ee647b6b90729ab34a250b1\nMESSAGE=Process 1 (crasher) of user 0 dumped core.\nCOREDUMP_UID=0\nCOREDUMP_PID=77\nCOREDUMP_SIGNAL=11\nCOREDUMP_EXE=%s/bin/other\nCOREDUMP_ENVIRON=VK_DRIVER_FILES=%s/icd/versions/2026.10.07/turnip.json\n' "$T" "$REAL" |
			runuser -u nobody -- logger --journald || ok=1
		# root from systemd-coredump's own service, with root's crash
		n=$#
		for f in "$@"; do
			case $f in COREDUMP_UID=*) set -- "$@" COREDUMP_UID=0 ;; *) set -- "$@" "$f" ;; esac
		done
		shift "$n"
		mkdir -p "$CGU" || ok=1
		send sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CGU" "$T/sd/systemd-coredump" "$@" || ok=1
		rmdir "$CGU" 2>/dev/null
		journalctl --sync
		kill "$jd"
		wait "$jd"
		find /run/log/journal -name '*.journal' -exec cp {} "$T/real/" \;
		exit $ok
	NS
	mkdir -p "$T/real"
	if ! unshare -m --propagation private sh "$T/ns.sh" "$T" "$CGU" "$REAL" >"$T/ns.out" 2>&1; then
		not_ok "a real journald takes the entries" "$(cat "$T/ns.out" "$T/send.err" "$T/journald.log" 2>/dev/null | head -20)"
	fi
	rmdir "$CGU" 2>/dev/null
	[ -z "$made_slice" ] || rmdir "$CG/system.slice" 2>/dev/null
	JF=$(find "$T/real" -name '*.journal' | tr '\n' ':')
	journalctl --file "$T/real/*.journal" -o export MESSAGE_ID=fc2e22bc6ee647b6b90729ab34a250b1 2>/dev/null |
		grep -a -E '^(_UID|_COMM|_SYSTEMD_UNIT|COREDUMP_UID)=' >"$T/trusted" || :
	echo "# the journal's own fields of the four entries: $(tr '\n' ' ' <"$T/trusted")"
	# (logger does not wait for journald to look it up: its entry may carry no _UID at all)
	check "journald wrote nobody's entries with nobody's _UID, and one from systemd-coredump's service" \
		test "$(grep -c '^_UID=65534' "$T/trusted" | sed 's/^[23]$/2+/'):$(grep -c '^_SYSTEMD_UNIT=systemd-coredump@' "$T/trusted")" = 2+:1
	TB323FU_MESA_JOURNAL=$JF expect_exit 0 "crashes --apply over the real journal" ctl --json mesa crashes --apply
	check "…nobody's three entries are ignored as not systemd-coredump's (forged 3)" test "$(field 'd["forged"]')" = 3
	check "…the entry from systemd-coredump's service counts: root's crash of Crasher on $V2, pinned to $V1" \
		test "$(field '[(e["app"], e["version"], e["uid"]) for e in d["events"]], [(p["app"], p["choice"]) for p in d["pins"]]')" = "([('org.example.Crasher.desktop', '$V2', 0)], [('org.example.Crasher.desktop', '$V1')])"
	check "…and says what it ignored" grep -q "3 journal entries carried systemd-coredump's message id but were not written by it" "$T/out"
	check "…the trial goes on (nobody's entries named another application)" test "$(session)" = "trial $V2"
	unreachable_again
fi

# the same rule over journal files systemd-journal-remote wrote: each trusted field taken away
# or changed, one at a time, makes the entry count for nothing
fresh
journal "$T/forged.journal" "$CRASH,_SYSTEMD_UNIT=" "$CRASH,_SYSTEMD_UNIT=user@1000.service" \
	"$CRASH,_COMM=sh,_EXE=/usr/bin/sh" "$CRASH,_COMM=,_EXE=" "$CRASH,_UID=1000" "$CRASH,_TRANSPORT=stdout" \
	"$CRASH,COREDUMP_UID=" "$CRASH,COREDUMP_UID=-1,_UID=-1" || not_ok "a journal of entries not systemd-coredump's"
before=$(store_digest | grep -v crash-record)
TB323FU_MESA_JOURNAL="$T/forged.journal" expect_exit 0 "crashes --apply over eight entries that lack or contradict systemd-coredump's fields" ctl --json mesa crashes --apply
check "…all eight ignored, no event, no pin" test "$(field 'd["forged"], len(d["events"]), len(d["pins"])')" = "(8, 0, 0)"
check "…the store as it was but for the record's cursor" test "$(store_digest | grep -v crash-record)" = "$before"
TB323FU_MESA_JOURNAL="$T/forged.journal" expect_exit 0 "crashes (the reader) over them" ctl --json mesa crashes
check "…no event either" test "$(field 'd["forged"], len(d["events"]), len(d["unattributed"])')" = "(8, 0, 0)"

# --- 2. a kernel line counts only from the kernel's transport, and acts on nothing
fresh
journal "$T/klines.journal" "$FIX/store-lvp.kernel.txt,_TRANSPORT=journal,_UID=1000" || not_ok "a kernel line sent by a user"
TB323FU_MESA_JOURNAL="$T/klines.journal" expect_exit 0 "crashes with a kernel line a user sent (transport journal)" ctl --json mesa crashes
check "…not read as the kernel's" test "$(field 'len(d["events"]), len(d["unattributed"])')" = "(0, 0)"
journal "$T/k2.journal" "$FIX/store-lvp.kernel.txt,COMM=x" "$FIX/msm-gpu-hang.kernel.txt" || not_ok "the kernel's lines"
TB323FU_MESA_JOURNAL="$T/k2.journal" expect_exit 0 "crashes --apply with the kernel's own lines (a segfault in the store's lavapipe, a GPU hang)" ctl --json mesa crashes --apply
check "…both attributed to $V2 by the session, neither pins (the kernel does not say whose process it was)" \
	test "$(field 'len(d["events"]), len(d["pins"]), d["rolled_back"]')" = "(2, 0, '')"
check "…the trial goes on" test "$(session)" = "trial $V2"

# --- 3. root's crash pins the application in the system's rules: tests/integration/crashes.sh

# --- 4. a user's crash pins nothing in the system's rules
fresh
journal "$T/user.journal" "$CRASH,COREDUMP_UID=1000" || not_ok "a journal of user 1000's crash"
TB323FU_MESA_JOURNAL="$T/user.journal" expect_exit 0 "crashes --apply with user 1000's crash of Crasher on $V2" ctl --json mesa crashes --apply
check "…the event is user 1000's, nothing pinned" test "$(field '[e["uid"] for e in d["events"]], len(d["pins"])')" = "([1000], 0)"
check "…no system rule" test ! -e "$STORE/app-rules"
check "…says it is pinned in that user's own rules only" grep -q "org.example.Crasher.desktop crashed on Mesa $V2 as user 1000: it is pinned in that user's own rules only" "$T/out"

# …and it pins the application in that user's own rules, when that user runs crashes --apply --user
if [ "$(id -u)" -eq 0 ] && reachable_by nobody; then
	fresh
	journal "$T/nobody.journal" "$CRASH,COREDUMP_UID=65534" "$OTHER,COREDUMP_UID=1000" || not_ok "a journal of nobody's and user 1000's crashes"
	NH="$T/nobody-home"
	mkdir -p "$NH" && chown nobody "$NH"
	chmod -R o+rX "$STORE" "$T/share" "$T/nobody.journal" "$T/bin"
	as_nobody() {
		runuser -u nobody -- env HOME="$NH" XDG_CONFIG_HOME="$NH/.config" XDG_DATA_HOME="$NH/.local/share" \
			XDG_DATA_DIRS="$XDG_DATA_DIRS" TB323FU_MESA_JOURNAL="$T/nobody.journal" TB323FU_MESA_CONFIG="$TB323FU_MESA_CONFIG" \
			"$CTL" --store "$STORE" "$@"
	}
	before=$(store_digest)
	expect_exit 0 "nobody's crashes --apply --user" as_nobody --json mesa crashes --apply --user
	check "…reads nobody's own crash only, and pins Crasher to $V1 in nobody's rules" \
		test "$(field '[e["uid"] for e in d["events"]], [(p["app"], p["choice"]) for p in d["pins"]]')" = "([65534], [('org.example.Crasher.desktop', '$V1')])"
	check "…the rule is in nobody's own rule file" grep -qx "org.example.Crasher.desktop=$V1" "$NH/.config/tb323fu/mesa-apps"
	check "…with its entry in nobody's own applications" grep -q "run --version $V1" "$NH/.local/share/applications/org.example.Crasher.desktop"
	check "…says how nobody undoes it" grep -q "app unset --user org.example.Crasher.desktop" "$T/out"
	check "…the store as it was (no system rule, no record written)" test "$(store_digest)" = "$before"
	expect_exit 0 "again" as_nobody --json mesa crashes --apply --user
	check "…reads nothing new (nobody's cursor, kept beside nobody's rules)" test "$(field 'len(d["events"]), len(d["pins"])')" = "(0, 0)"
	expect_exit 0 "nobody's app list --user" as_nobody --json mesa app list --user
	check "…marks the rule automatic" test "$(field '[(r["app"], r["automatic"]) for r in d["rules"]]')" = "[('org.example.Crasher.desktop', True)]"
	unreachable_again
else
	skip "a user's crash in that user's own rules" "needs root and runuser"
fi

# --- 5. what ends the system's trial: crashes of two applications or more, run by root or by
# the user of seat0's active session
# (each journal written after the trial began: what is dated before it counts for nothing, 6.)
two_user() { journal "$T/two-user.journal" "$CRASH,COREDUMP_UID=1000" "$OTHER,COREDUMP_UID=1000" || not_ok "two crashes of user 1000"; }
fresh
two_user
TB323FU_MESA_JOURNAL="$T/two-user.journal" expect_exit 0 "two applications of user 1000 crashed on $V2, no seat" ctl --json mesa crashes --apply
check "…the system's trial goes on" test "$(session)" = "trial $V2"
check "…not rolled back" test "$(field 'd["rolled_back"]')" = ""
fresh
journal "$T/mixed.journal" "$CRASH,COREDUMP_UID=1000" "$OTHER" || not_ok "a crash of user 1000 and one of root's"
TB323FU_MESA_JOURNAL="$T/mixed.journal" expect_exit 0 "one application of user 1000 and one of root's crashed on $V2" ctl --json mesa crashes --apply
check "…not rolled back (a user's crash is not the system's)" test "$(field 'd["rolled_back"]')" = ""
if [ "$(id -u)" -eq 0 ] && private_ns; then
	printf 'ACTIVE=c7\nACTIVE_UID=1000\n' >"$T/seat0"
	cat >"$T/seat.sh" <<-'NS'
		set -u
		mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/seats && cp "$1" /run/systemd/seats/seat0 || exit 9
		shift
		exec "$@"
	NS
	fresh
	two_user
	TB323FU_MESA_JOURNAL="$T/two-user.journal" expect_exit 0 "two applications of user 1000 crashed on $V2, user 1000 at seat0 (logind's seat file)" \
		unshare -m --propagation private sh "$T/seat.sh" "$T/seat0" "$CTL" --store "$STORE" --json mesa crashes --apply
	check "…the trial ended by the life cycle's rollback" test "$(field 'd["rolled_back"], d["rolled_back_reason"]')" = "('$V2', 'trial-crashed')"
	check "…but pinned nothing in the system's rules" test "$(field 'len(d["pins"])')" = 0
	printf 'ACTIVE=c8\nACTIVE_UID=1001\n' >"$T/seat0"
	fresh
	two_user
	TB323FU_MESA_JOURNAL="$T/two-user.journal" expect_exit 0 "the same with user 1001 at seat0" \
		unshare -m --propagation private sh "$T/seat.sh" "$T/seat0" "$CTL" --store "$STORE" --json mesa crashes --apply
	check "…not rolled back" test "$(field 'd["rolled_back"]')" = ""
else
	skip "the seat's user" "needs root and a private mount namespace (unshare -m)"
fi

# --- 6. crashes dated before the trial began end nothing and pin nothing
CRASH_USEC=$((($(date +%s) - 3600) * 1000000)) journal "$T/old.journal" "$CRASH" "$OTHER" || not_ok "a journal of two crashes an hour ago"
fresh
TB323FU_MESA_JOURNAL="$T/old.journal" expect_exit 0 "crashes --apply with two crashes on $V2 dated before its trial began" ctl --json mesa crashes --apply
check "…read, but nothing pinned and not rolled back" test "$(field 'len(d["events"]), len(d["pins"]), d["rolled_back"]')" = "(2, 0, '')"
check "…the trial goes on" test "$(session)" = "trial $V2"

# --- 7. a damaged crash-record does not make the next read pin again after app unset
fresh
journal "$T/one.journal" "$CRASH" || not_ok "a journal of one crash"
TB323FU_MESA_JOURNAL="$T/one.journal" expect_exit 0 "crashes --apply pins Crasher" ctl --json mesa crashes --apply
check "…pinned" test "$(field 'len(d["pins"])')" = 1
ctl mesa app unset org.example.Crasher >/dev/null
for damage in 'not json' '{"cursor":7,"auto_pins":"x"}' '[]'; do
	printf '%s' "$damage" >"$STORE/crash-record"
	TB323FU_MESA_JOURNAL="$T/one.journal" expect_exit 0 "crashes --apply with the record damaged ($damage)" ctl --json mesa crashes --apply
	check "…reads the event again and pins nothing" test "$(field 'len(d["events"]), len(d["pins"])')" = "(1, 0)"
	check "…says the record was damaged" grep -q "the crash record was damaged" "$T/out"
	check "…no rule came back" sh -c "! grep -q Crasher '$STORE/app-rules'"
done
check "…and the record is whole again" json_strict "$STORE/crash-record" 'isinstance(d["cursor"], str) or exit(1)'

# --- 8. --since refuses what overflows and what is negative
for bad in @-1 @18446744073709551616 @99999999999999999999 @253402300800 -99999999999999999999d --5d "@ 5" @+5 "+2026-10-06" "-2026-10-06" "99999-01-01" 0000-01-01; do
	expect_exit 2 "crashes --since '$bad' is refused" ctl --json mesa crashes --since "$bad"
	reason_is usage
done
check "…one sentence that says what to give" grep -q "is not a time between 1970 and 9999: give @SECONDS" "$T/out"
TB323FU_MESA_JOURNAL="$T/one.journal" expect_exit 0 "crashes --since @253402300799 (the last second of 9999) is taken" ctl --json mesa crashes --since @253402300799
done_testing
