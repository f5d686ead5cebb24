#!/bin/sh
# Crash evidence (docs/design.md §18): journal files written by systemd's own writer
# (systemd-journal-remote, tests/tools/crash_journal.py) from the crash recorded on a real
# machine (tests/fixtures/crashes/: a program faulting inside the store's lavapipe under
# `tb323fu-mesa run`, its systemd-coredump fields and the kernel's line, and the same program
# on the distribution's lavapipe), read by the tool through $TB323FU_MESA_JOURNAL.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/app-lib.sh"

JR=/usr/lib/systemd/systemd-journal-remote
if [ ! -x "$JR" ]; then
	skip "crash evidence from journal files" "systemd-journal-remote (package systemd-journal-remote) is not installed"
	done_testing
	exit 0
fi
. "$TB_TOP/tests/crash-lib.sh"

# The applications: two entries whose programs are in the test's own directory.
mkdir -p "$T/bin"
for p in crasher other; do
	printf '#!/bin/sh\necho "$VK_DRIVER_FILES" >"%s/launched.%s"\n' "$T" "$p" >"$T/bin/$p"
	chmod 755 "$T/bin/$p"
done
entry org.example.Crasher.desktop '[Desktop Entry]' 'Type=Application' 'Name=Crasher' "Exec=$T/bin/crasher %f"
entry org.example.Other.desktop '[Desktop Entry]' 'Type=Application' 'Name=Other' "Exec=$T/bin/other"
CRASH="$FIX/store-lvp.coredump.export,COREDUMP_EXE=$T/bin/crasher"

fresh || { not_ok "install two stand-in releases, switch the session on"; done_testing; exit 1; }
check "$V2 is on trial" sh -c "\"$CTL\" --store \"$STORE\" --json mesa status | grep -q '\"session\":\"trial\"'"

# --- reading: one real crash, attributed by its maps
journal "$T/one.journal" "$CRASH" || not_ok "systemd-journal-remote writes the recorded crash"
export TB323FU_MESA_JOURNAL="$T/one.journal"
expect_exit 0 "crashes --json reads the recorded crash" ctl --json mesa crashes
check "…one event, attributed to $V2 (current, on trial) by its maps" \
	test "$(field '[(e["version"], e["how"], e["kind"], e["source"]) for e in d["events"]]')" = "[('$V2', 'maps', 'SIGSEGV', 'coredump')]"
check "…the application found by its executable" test "$(field 'd["events"][0]["app"]')" = org.example.Crasher.desktop
check "…its executable, time and journal cursor" \
	field 'd["events"][0]["executable"] == "'"$T"'/bin/crasher" and d["events"][0]["time"].endswith("Z") and d["events"][0]["cursor"].startswith("s=")'
cp "$T/out" "$T/one-event.json"
expect_exit 0 "crashes for people" ctl mesa crashes
check "…names the version and the application" grep -q "$V2: org.example.Crasher.desktop SIGSEGV" "$T/out"
check "crashes alone pins nothing (a reader)" test ! -e "$STORE/app-rules"

# --- one crash on trial pins that application to previous
expect_exit 0 "crashes --apply" ctl --json mesa crashes --apply
check "…pinned org.example.Crasher to $V1 (previous), automatic, with its reason id" \
	test "$(field '[(p["app"], p["choice"], p["reason"]) for p in d["pins"]]')" = "[('org.example.Crasher.desktop', '$V1', 'crash-pinned')]"
check "…the rule is in the system's rules" grep -qx "org.example.Crasher.desktop=$V1" "$STORE/app-rules"
check "…and the trial goes on (one application only)" sh -c "\"$CTL\" --store \"$STORE\" --json mesa status | grep -q '\"session\":\"trial\"'"
ctl mesa status >"$T/status" 2>&1
check "status says the automatic pin" grep -q "org.example.Crasher.desktop is pinned to Mesa $V1 after it crashed on Mesa $V2 (automatic" "$T/status"
ctl --json mesa status >"$T/out"
check "status --json keeps exactly its keys" field 'sorted(d) == sorted(["installed","previous","available","downloaded","ready","enabled","session","session_gl","session_gl_asked","trial","tries","max_tries","failed","failed_reason","failed_reason_id","drivers","base","mesa_version","state","store","op","progress","stalled_s","message","takeover_needed","ok","marked"])'
ctl --json mesa doctor >"$T/out" 2>/dev/null
check "doctor's JSON has the automatic pin" test "$(field '[p["app"] for p in d["crashes"]["auto_pins"]]')" = "['org.example.Crasher.desktop']"
ctl mesa app list >"$T/list" 2>&1
check "app list says the rule was made after a crash" grep -q "org.example.Crasher.desktop starts with Mesa $V1 (pinned) (system rule, made after a crash on the build on trial; app unset undoes it" "$T/list"
ctl --json mesa app list >"$T/out"
check "…and its JSON marks it automatic" test "$(field '[r["automatic"] for r in d["rules"]]')" = "[True]"

if command -v gio >/dev/null; then
	rm -f "$T/launched.crasher"
	(set -a && . "$STORE/env.conf" && gio launch "$LOCAL_APPS/org.example.Crasher.desktop") >"$T/gio.out" 2>&1
	check "the next launch through its desktop entry (gio launch) gets $V1" \
		wait_until 60 grep -qx "$REAL/icd/versions/$V1/turnip.json" "$T/launched.crasher"
else
	skip "the next launch through its desktop entry gets $V1" "gio (libglib2.0-bin) is not installed"
fi

# --- the same event read twice pins once
expect_exit 0 "crashes --apply again" ctl --json mesa crashes --apply
check "…reads nothing new (the cursor is kept in the store)" test "$(field 'len(d["events"]), len(d["pins"])')" = "(0, 0)"
expect_exit 0 "app unset takes the automatic pin away" ctl mesa app unset org.example.Crasher
python3 -c 'import json,sys; p=sys.argv[1]; r=json.load(open(p)); r.pop("cursor"); json.dump(r, open(p, "w"))' "$STORE/crash-record"
expect_exit 0 "crashes --apply with the cursor lost reads the event again" ctl --json mesa crashes --apply
check "…and does not pin it a second time" test "$(field 'len(d["events"]), len(d["pins"])')" = "(1, 0)"
check "…no rule came back" sh -c "! grep -q Crasher '$STORE/app-rules'"

# --- two applications crashing on trial roll it back
fresh
journal "$T/two.journal" "$CRASH" "$FIX/store-lvp.coredump.export,COREDUMP_EXE=$T/bin/other,COREDUMP_PID=4242" ||
	not_ok "a journal of two crashes"
export TB323FU_MESA_JOURNAL="$T/two.journal"
expect_exit 0 "crashes --apply with two applications crashed on $V2" ctl --json mesa crashes --apply
check "…the trial ended by the life cycle's rollback" test "$(field 'd["rolled_back"], d["rolled_back_reason"]')" = "('$V2', 'trial-crashed')"
ctl --json mesa status >"$T/out"
check "…$V1 is current again, $V2 previous" test "$(field 'd["installed"], d["previous"]')" = "('$V1', '$V2')"

# --- a crash of a program on the distribution's Mesa changes nothing
fresh
journal "$T/distro.journal" "$FIX/distro-lvp.kernel.txt" "$FIX/distro-lvp.coredump.export,COREDUMP_EXE=$T/bin/crasher" ||
	not_ok "a journal of the crash on the distribution's lavapipe"
export TB323FU_MESA_JOURNAL="$T/distro.journal"
before=$(cd "$STORE" && cat state; readlink current previous)
expect_exit 0 "crashes --apply with a crash on the distribution's Mesa" ctl --json mesa crashes --apply
check "…no event of ours (the kernel's line goes with its coredump)" test "$(field 'len(d["events"]), len(d["pins"]), d["rolled_back"]')" = "(0, 0, '')"
check "…the state and links as they were, no rule" sh -c "test \"\$(cd '$STORE' && cat state; readlink current previous)\" = '$before' && test ! -e '$STORE/app-rules'"

# --- kernel lines alone: the session decides, else unattributed
journal "$T/kernel.journal" "$FIX/store-lvp.kernel.txt" || not_ok "a journal of a kernel line"
export TB323FU_MESA_JOURNAL="$T/kernel.journal"
expect_exit 0 "crashes with the kernel's line alone, the session on $V2" ctl --json mesa crashes
check "…attributed to $V2 by the session" test "$(field '[(e["version"], e["how"], e["object"]) for e in d["events"]]')" = "[('$V2', 'session', 'libvulkan_lvp.so')]"
ctl mesa off >/dev/null
journal "$T/kernel2.journal" "$FIX/store-lvp.kernel.txt" || not_ok "a journal of a kernel line"
export TB323FU_MESA_JOURNAL="$T/kernel2.journal"
expect_exit 0 "crashes with the kernel's line alone, the session off" ctl --json mesa crashes
check "…unattributed, never guessed" test "$(field 'len(d["events"]), [e["version"] for e in d["unattributed"]]')" = "(0, [''])"

# --- a GPU hang the msm driver names a task of: the session decides
fresh
journal "$T/gpu.journal" "$FIX/msm-gpu-hang.kernel.txt" || not_ok "a journal of a GPU hang"
export TB323FU_MESA_JOURNAL="$T/gpu.journal"
expect_exit 0 "crashes with an msm GPU hang, the session on $V2" ctl --json mesa crashes
check "…a gpu-hang of /usr/bin/crasher on $V2" test "$(field '[(e["version"], e["kind"], e["executable"]) for e in d["events"]]')" = "[('$V2', 'gpu-hang', '/usr/bin/crasher')]"

# --- --since
export TB323FU_MESA_JOURNAL="$T/one.journal"
expect_exit 0 "crashes --since -1d" ctl --json mesa crashes --since -1d
check "…has the crash" test "$(field 'len(d["events"])')" = 1
expect_exit 0 "crashes --since a time after it" ctl --json mesa crashes --since "@$(($(date +%s) + 3600))"
check "…has none" test "$(field 'len(d["events"])')" = 0

# --- outside a trial: recorded, nothing pinned, unless crash_policy = pin-always
ctl mesa keep >/dev/null
expect_exit 0 "crashes --apply outside a trial" ctl --json mesa crashes --apply
check "…reads the crash and pins nothing" test "$(field 'len(d["events"]), len(d["pins"])')" = "(1, 0)"
fresh
ctl mesa keep >/dev/null
# a crash dated after the version became current (one before counts for nothing, §18)
journal "$T/one.journal" "$CRASH" || not_ok "systemd-journal-remote writes the recorded crash"
echo 'crash_policy = pin-always' >"$TB323FU_MESA_CONFIG"
expect_exit 0 "crashes --apply outside a trial with crash_policy = pin-always" ctl --json mesa crashes --apply
check "…pins it" test "$(field '[p["app"] for p in d["pins"]]')" = "['org.example.Crasher.desktop']"
echo 'crash_policy = report' >"$TB323FU_MESA_CONFIG"
fresh
journal "$T/one.journal" "$CRASH" || not_ok "systemd-journal-remote writes the recorded crash"
expect_exit 0 "crashes --apply on trial with crash_policy = report" ctl --json mesa crashes --apply
check "…pins nothing" test "$(field 'len(d["events"]), len(d["pins"])')" = "(1, 0)"
: >"$TB323FU_MESA_CONFIG"

# --- keep_after_clean_boots: never by default, kept when set
fresh
journal "$T/empty.journal" "$FIX/distro-lvp.coredump.export" || not_ok "a journal with nothing of ours"
export TB323FU_MESA_JOURNAL="$T/empty.journal"
TB323FU_BOOT_ID=clean-1 ctl mesa boot-tick >/dev/null
check "without keep_after_clean_boots a clean start keeps nothing" sh -c "\"$CTL\" --store \"$STORE\" --json mesa status | grep -q '\"session\":\"trial\"'"
echo 'keep_after_clean_boots = 2' >"$TB323FU_MESA_CONFIG"
TB323FU_BOOT_ID=clean-2 expect_exit 0 "boot-tick of the second start with keep_after_clean_boots = 2 (max_tries is 2 too)" ctl --json mesa boot-tick
check "…the trial with no crash is kept, not ended" test "$(field 'd["crashes"]["kept"]')" = "$V2"
ctl --json mesa status >"$T/out"
check "…the session is on, not on trial" test "$(field 'd["session"]')" = on
: >"$TB323FU_MESA_CONFIG"

# --- boot-tick and auto-check read from the last cursor too
fresh
journal "$T/one.journal" "$CRASH" || not_ok "systemd-journal-remote writes the recorded crash"
export TB323FU_MESA_JOURNAL="$T/one.journal"
TB323FU_BOOT_ID=tick-1 expect_exit 0 "boot-tick reads the journal" ctl --json mesa boot-tick
check "…and pins the application that crashed on trial" test "$(field '[p["app"] for p in d["crashes"]["pins"]]')" = "['org.example.Crasher.desktop']"

# --- a hostile journal
fresh
head -c 3000000 /dev/zero | tr '\0' 'A' >"$T/huge"
printf 'bad\377\376exe' >"$T/badutf"
printf '7f0000000000-7f0000001000 r-xp 00000000 fe:00 1 /elsewhere/versions/%s/lib/libvulkan_lvp.so\n7f0000001000-7f0000002000 r-xp 00000000 fe:00 1 %s/versions/../../%s/lib/libvulkan_lvp.so\n' "$V2" "$REAL" "$V2" >"$T/forged"
journal "$T/hostile.journal" \
	"$FIX/store-lvp.coredump.export,COREDUMP_ENVIRON=@$T/huge,COREDUMP_PROC_MAPS=@$T/huge" \
	"$FIX/store-lvp.coredump.export,COREDUMP_EXE=@$T/badutf,COREDUMP_CGROUP=/user.slice/app-gnome-\\x2e\\x2e-1.scope" \
	"$FIX/distro-lvp.coredump.export,COREDUMP_PROC_MAPS=@$T/forged,COREDUMP_PID=77" \
	"$FIX/store-lvp.kernel.txt,MESSAGE=@$T/huge" || not_ok "a hostile journal"
export TB323FU_MESA_JOURNAL="$T/hostile.journal"
expect_exit 0 "crashes --json over a hostile journal (huge fields, invalid UTF-8, forged paths)" ctl --json mesa crashes
check "…valid, strict JSON" json_strict "$T/out"
check "…the forged paths outside the store attribute nothing" \
	field 'all(e["pid"] != 77 for e in d["events"] + d["unattributed"])'
check "…the invalid UTF-8 executable is attributed by its maps, its name repaired" \
	field 'any("\ufffd" in e["executable"] and e["version"] == "'"$V2"'" for e in d["events"])'
expect_exit 0 "crashes for people over it" ctl mesa crashes
check "…no raw control byte or invalid UTF-8 on the terminal" sh -c "! LC_ALL=C grep -qP '[\x80-\xff]' '$T/out' || iconv -f UTF-8 -t UTF-8 '$T/out' >/dev/null"
before=$(store_digest)
echo "not a journal" >"$T/notajournal"
TB323FU_MESA_JOURNAL="$T/notajournal" expect_exit 1 "crashes --apply over a file that is not a journal" ctl --json mesa crashes --apply
check "…says what failed" grep -qi "journal" "$T/out"
check "…the store as it was" test "$(store_digest)" = "$before"
expect_exit 2 "crashes --since with a word that is not a time" ctl --json mesa crashes --since yesterday-ish
reason_is usage

# the event of the recorded crash, as crashes --json prints it (for the record)
echo "# one real crash's event: $(json_strict "$T/one-event.json" 'json.dumps(d["events"][0])' 2>/dev/null || head -c 800 "$T/one-event.json")"
done_testing
