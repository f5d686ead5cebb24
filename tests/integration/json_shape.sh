#!/bin/sh
# One JSON shape (docs/design.md §12): every command and subcommand of both programs, with
# --json, prints exactly one JSON object on stdout: "ok" (true exactly when it exits 0),
# "message", and "reason" (an id of docs/design.md §9) when it failed; status and list keep
# their keys of §5 beside them. Each command once succeeding and once failing (run and distro
# print nothing of their own: their --json is always a refusal). The commands are taken from
# the help, so a new command without a case here fails this test.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"
. "$TB_TOP/tests/app-lib.sh"

V1=2026.10.01
V2=2026.10.02
V3=2026.10.03
R1=$(tiny_release $V1 "$T/r1") && R2=$(tiny_release $V2 "$T/r2") && R3=$(tiny_release $V3 "$T/r3") &&
	LVP=$(standin 2026.10.04) && CTSR=$(cts_stand_in "$T/cts" 2026.12.01) ||
	{ not_ok "the releases"; done_testing; exit 1; }
WWW="$T/www"
mkdir -p "$WWW" "$T/keys"
: >"$T/token"
start_httpd "$WWW" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="http://127.0.0.1:$PORT"
python3 "$TB_TOP/tests/doubles/fake-github" "$WWW" "$API" <<EOF2
mesa-$V3 - $R3
cts-2026.12.01 - $CTSR
EOF2
net_config "smoke = off
keep_versions = 3"
# a configuration whose release source is a port nothing listens on
sed "s|^api_url = .*|api_url = http://127.0.0.1:1|" "$TB323FU_MESA_CONFIG" >"$T/offline.conf"
: >"$T/a-file"
FILESTORE="$T/a-file" # a store path that is a regular file: no command can use it

covered=" "
mkdir "$T/shapes"
shapes=0
# shape NAME STATUS CMD…: CMD exits STATUS (ok for 0, any failure for "fail") and prints one
# object of the shape (its output kept for shapes_checked, which checks them all in one
# json_shape.py: one a command took half the file's time).
shape() {
	_name=$1
	_want=$2
	shift 2
	covered="$covered$_name "
	run_cmd "$@"
	case $_want in
	fail) [ "$rc" -ne 0 ] || { not_ok "$_name: a failure" "exit 0" "stdout: $(head -c 300 "$T/out")"; return; } ;;
	*) [ "$rc" -eq "$_want" ] || { not_ok "$_name: exit $_want" "exit $rc" "stdout: $(head -c 300 "$T/out")" "stderr: $(head -c 300 "$T/err")"; return; } ;;
	esac
	shapes=$((shapes + 1))
	cp "$T/out" "$T/shapes/$shapes.out"
	echo "$_name: exit $rc, one object of the shape" >"$T/shapes/$shapes.name"
	echo "$T/shapes/$shapes.out $rc" >>"$T/shapes/list"
}
# shapes_checked: an assertion for each output shape kept, in their order.
shapes_checked() {
	# shellcheck disable=SC2046 # "FILE STATUS" pairs: the paths hold no blanks
	python3 "$TB_TOP/tests/tools/json_shape.py" "$TB_TOP" $(cat "$T/shapes/list") >"$T/shapes/said"
	_k=0
	while [ $_k -lt $shapes ]; do
		_k=$((_k + 1))
		_said=$(sed -n "s/^$_k //p" "$T/shapes/said")
		if [ "$_said" = ok ]; then ok "$(cat "$T/shapes/$_k.name")"; else
			not_ok "$(cat "$T/shapes/$_k.name")" "${_said:-not checked}"; fi
	done
}
j() { "$CTL" --store "$STORE" --json "$@"; }
jf() { "$CTL" --store "$FILESTORE" --json "$@"; }

# --- tb323fu-ctl: the program itself
shape "help" 0 "$CTL" help --json
shape "help, an unknown command" fail "$CTL" help bogus --json
shape "--version" 0 "$CTL" --version --json
shape "no command" fail "$CTL" --json

# --- on a store of its own: each command succeeding, then failing
shape "status" 0 j mesa status
check "  status keeps §5's keys" json_strict "$T/out" 'set(("installed","previous","available","downloaded","enabled","trial","tries","max_tries","failed","failed_reason","drivers","base","mesa_version","state","store")) <= set(d) or exit(1)' >/dev/null
shape "status" fail jf mesa status --bogus
shape "install-local" 0 j mesa install-local "$R1" --no-smoke
shape "install-local" fail j mesa install-local "$T/no-such.tar.gz" --no-smoke
shape "list" 0 j mesa list
check "  list keeps §5's keys" json_strict "$T/out" 'set(("version","current","previous","drivers","mesa_version","bytes","smoke")) <= set(d["versions"][0]) or exit(1)' >/dev/null
shape "list" fail j mesa list extra-word
shape "list --available" 0 j mesa list --available
check "  list --available: an available array, each with the store's knowledge" json_strict "$T/out" 'set(("version","channel","published_at","size","mesa_version","current","previous","installed","downloaded","marked","marked_why")) == set(d["available"][0]) and d["release_list"] in ("fetched", "cached") or exit(1)' >/dev/null
shape "list --available" fail j --config "$T/offline.conf" mesa list --available
shape "check" 0 j mesa check
shape "check" fail j --config "$T/offline.conf" mesa check
shape "notes" 0 j mesa notes $V3
shape "notes" fail j mesa notes 2099.1.1
shape "download" 0 j mesa download $V3
shape "download" fail j mesa download 2099.1.1
shape "install" 0 j mesa install $V3 --no-smoke
shape "install" fail j mesa install 2099.1.1 --no-smoke
shape "update" 0 j mesa update
shape "update" fail j --config "$T/offline.conf" mesa update
shape "auto-check" 0 j mesa auto-check
shape "auto-check" fail j --config "$T/offline.conf" mesa auto-check
shape "remove" fail j mesa remove $V3
expect_exit 0 "install-local $V2" ctl mesa install-local "$R2" --no-smoke
shape "remove" 0 j mesa remove $V1
shape "rollback" 0 j mesa rollback
shape "rollback" fail j mesa rollback extra-word
shape "on" 0 j mesa on
shape "on" fail jf mesa on
shape "boot-tick" 0 env TB323FU_BOOT_ID=json-shape-1 "$CTL" --store "$STORE" --json mesa boot-tick
shape "boot-tick" fail jf mesa boot-tick
shape "keep" 0 j mesa keep
shape "keep" fail jf mesa keep
shape "off" 0 j mesa off
shape "off" fail jf mesa off
shape "verify" 0 j mesa verify
shape "verify" fail j mesa verify 2099.1.1
shape "forget" 0 j mesa forget $V3
shape "forget" fail j mesa forget
shape "bisect" 0 j mesa bisect --good $V2 --bad $V3 --command "case \$VK_DRIVER_FILES in *$V3*) exit 1 ;; esac"
shape "bisect" fail j mesa bisect --good $V2 --bad $V3
shape "doctor" 0 "$CTL" --store "$T/no-store" --json mesa doctor
shape "doctor" fail jf mesa doctor --bogus
shape "takeover" 0 j mesa takeover
shape "takeover" fail jf mesa takeover
shape "smoke" fail j mesa smoke --tests vk.loader
shape "bench" fail j mesa bench 2099.1.1
if [ -x /usr/lib/systemd/systemd-journal-remote ]; then
	CRASH_STORE=$(cd "$STORE" && pwd -P) python3 "$TB_TOP/tests/tools/crash_journal.py" "$T/one.journal" \
		"$TB_TOP/tests/fixtures/crashes/store-lvp.coredump.export"
	shape "crashes" 0 env TB323FU_MESA_JOURNAL="$T/one.journal" "$CTL" --store "$STORE" --json mesa crashes
else
	skip "crashes: exit 0" "systemd-journal-remote is not installed (systemd-journal-remote)"
fi
shape "crashes" fail j mesa crashes --since not-a-time
mkdir -p "$T/stage/lib"
cp "$T/tiny-stage/lib/"* "$T/stage/lib/"
shape "pack" 0 j mesa pack --stage "$T/stage" --version 2026.10.09 --drivers vulkan --vulkan-lib lib/libvk.so "$T/packed"
shape "pack" fail j mesa pack --stage "$T/no-stage" --version 2026.10.09 "$T/packed"

# --- a release on lavapipe: what the tiny ones cannot pass
LSTORE="$T/lvp"
expect_exit 0 "install-local the stand-in" "$CTL" --store "$LSTORE" mesa install-local "$LVP" --sums "$(dirname "$LVP")/SHA256SUMS" --no-smoke
shape "smoke" 0 "$CTL" --store "$LSTORE" --json mesa smoke --tests vk.loader,vk.driver
shape "bench" 0 "$CTL" --store "$LSTORE" --json mesa bench --command "echo 'speed : 1.0 GB/s'" --rounds 1
shape "bench --history" 0 "$CTL" --store "$LSTORE" --json mesa bench --history
check "  bench --history: a history array of the run, each line with its keys" json_strict "$T/out" 'len(d["history"]) == 1 and set(d["history"][0]) == {"version","time","command","rounds","ratio","interval","verdict","rounds_needed","figure"} or exit(1)' >/dev/null
shape "bench --history" fail "$CTL" --store "$LSTORE" --json mesa bench --history --plot "$T/chart.pdf"
shape "status" 0 "$CTL" --store "$LSTORE" --json mesa status
check "  status's last_bench: the version's last run" json_strict "$T/out" '[b["version"] for b in d["last_bench"]] == [d["installed"]] or exit(1)' >/dev/null

# --- application rules
entry org.example.Shape.desktop '[Desktop Entry]' 'Type=Application' 'Name=Shape' 'Exec=shape-app %U'
shape "app set" 0 j mesa app set org.example.Shape.desktop distro
shape "app set" fail j mesa app set org.example.NoSuch.desktop distro
shape "app list" 0 j mesa app list
shape "app list" fail j mesa app list extra-word
shape "app refresh" 0 j mesa app refresh
shape "app refresh" fail jf mesa app refresh
shape "app unset" 0 j mesa app unset org.example.Shape.desktop
shape "app unset" fail j mesa app unset org.example.NoSuch.desktop
shape "app clear" 0 j mesa app clear
shape "app clear" fail j mesa app clear extra-word

# --- Flatpak: with no runtime installed an export is refused (no-runtime); unexport of a
# version never exported says so
shape "flatpak list" 0 j mesa flatpak list
shape "flatpak list" fail j mesa flatpak list extra-word
shape "flatpak export" fail j mesa flatpak export
shape "flatpak unexport" 0 j mesa flatpak unexport
shape "flatpak unexport" fail j mesa flatpak unexport "not a version"

# --- CTS releases (cts_store.sh has the rest)
shape "cts update" 0 j mesa cts update
shape "cts update" fail j mesa cts update --to 2026.12.31
shape "cts list" 0 j mesa cts list
shape "cts list" fail j mesa cts list extra-word
shape "cts install-local" 0 j mesa cts install-local "$CTSR"
shape "cts install-local" fail j mesa cts install-local "$R1"
shape "cts remove" 0 j mesa cts remove
shape "cts remove" fail j mesa cts remove

# every command of the help has its cases (a success and a failure: flatpak export succeeds
# only with a Flatpak runtime, flatpak.sh's part)
"$CTL" help --json >"$T/help.json"
cmds=$(json_strict "$T/help.json" '"\n".join(l.split()[0] for l in d["message"].split("commands:\n")[1].split("\n\n")[0].split("\n"))')
missing=
for c in $cmds; do
	subs=$c
	if "$CTL" help "$c" --json >"$T/h.json" && json_strict "$T/h.json" 'd["message"]' >"$T/h.txt" &&
		grep -q '^commands:' "$T/h.txt"; then
		subs=$(json_strict "$T/h.json" '"\n".join(" ".join(l.split()[:2]) for l in d["message"].split("commands:\n")[1].split("\n\n")[0].split("\n"))' | tr ' ' '_')
	fi
	for s in $subs; do
		name=$(echo "$s" | tr '_' ' ')
		case "$covered" in *" $name "*) ;; *) missing="$missing $s" ;; esac
	done
done
if [ -z "$missing" ]; then ok "every command and subcommand of the help has its case"; else
	not_ok "every command and subcommand of the help has its case" "missing:$missing"; fi

# --- tb323fu-mesa
shape "mesa help" 0 "$MESA" help --json
shape "mesa help which" 0 "$MESA" help which --json
shape "mesa help, an unknown command" fail "$MESA" help bogus --json
shape "mesa --version" 0 "$MESA" --json --version
shape "mesa, no command" fail "$MESA" --json
shape "mesa env" 0 mesa env --json
shape "mesa env" fail mesa env --json --version 2099.1.1
shape "mesa which" 0 mesa which --json
shape "mesa which" fail mesa which --json --version 2099.1.1
shape "mesa which --pid" 0 mesa which --pid $$ --json
shape "mesa which --pid of no process" fail mesa which --pid 999999 --json
check "  its reason is not-found" json_strict "$T/out" 'd["reason"] == "not-found" or exit(1)' >/dev/null
shape "mesa which --pid of several" 0 mesa which --pid $$ $$ --json
check "  one object listing them" json_strict "$T/out" 'len(d["processes"]) == 2 and all(p["ok"] for p in d["processes"]) or exit(1)' >/dev/null
shape "mesa which --pid of several, one gone" fail mesa which --pid $$ 999999 --json
check "  the gone one says so in its entry" json_strict "$T/out" '[p["ok"] for p in d["processes"]] == [True, False] and d["processes"][1]["reason"] == "not-found" or exit(1)' >/dev/null
shape "mesa which --pid" fail mesa which --pid x --json
shape "mesa run --json is refused" fail mesa --json run true
shape "mesa distro --json is refused" fail mesa --json distro true
shapes_checked
done_testing
