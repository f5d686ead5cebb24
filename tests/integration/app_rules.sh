#!/bin/sh
# Per-application rules (docs/design.md §16): the override entries `app set` writes pass
# desktop-file-validate for Debian's own entries and for hostile ones, keep every Exec as it
# was behind the launcher, never touch an entry that is not ours, and `app unset` removes
# exactly what `app set` wrote. Strict reading of the rule file, names that resolve to one
# entry or to several, a user's own rules, and `refresh` after the original changed or went.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/app-lib.sh"

if ! command -v desktop-file-validate >/dev/null; then
	skip "application rules" "desktop-file-validate is not installed (desktop-file-utils)"
	done_testing
	exit 0
fi
V1=2026.10.06
V2=2026.10.07
R1=$(tiny_release $V1 "$T/r1") && R2=$(tiny_release $V2 "$T/r2") &&
	ctl mesa install-local "$R1" --no-smoke >/dev/null && ctl mesa install-local "$R2" --no-smoke >/dev/null ||
	{ not_ok "install two releases"; done_testing; exit 1; }
REAL=$(cd "$STORE" && pwd -P)
RUN="$MESA --store $REAL run --"
DISTRO="$MESA --store $REAL distro --"
app() { ctl mesa app "$@"; }

# --- Debian's own entries, as installed on this machine
n=0
bad=
for f in /usr/share/applications/*.desktop; do
	[ -f "$f" ] && [ $n -lt 40 ] || continue
	id=${f##*/}
	cp "$f" "$APPS/$id"
	n=$((n + 1))
	if ! app set "$id" distro >"$T/out" 2>"$T/err"; then
		# an entry that cannot carry a rule is refused with a sentence, and nothing is written
		grep -q "no rule was set" "$T/err" && [ ! -e "$LOCAL_APPS/$id" ] || bad="$bad $id(refused: $(cat "$T/err"))"
		continue
	fi
	valid "$LOCAL_APPS/$id" || bad="$bad $id($(head -c 300 "$T/validate"))"
	[ "$(exec_of "$LOCAL_APPS/$id")" = "$DISTRO $(exec_of "$f")" ] || bad="$bad $id(Exec)"
done
if [ $n -eq 0 ]; then
	skip "Debian's entries" "no desktop entry in /usr/share/applications"
else
	check "$n of Debian's entries: every override passes desktop-file-validate, Exec = launcher + the original's" test -z "$bad"
	[ -z "$bad" ] || echo "# $bad"
	for f in "$APPS"/*.desktop; do app unset "${f##*/}" >/dev/null 2>&1; done
	check "…and app unset removed every one of them" test -z "$(ls -A "$LOCAL_APPS" 2>/dev/null)"
	rm -f "$APPS"/*.desktop
fi

# --- hostile originals
entry quotes.desktop '[Desktop Entry]' 'Type=Application' 'Name=Quotes' \
	'Exec=sh -c "echo \\"\\$1\\" \\`date\\` >out" sh 100%% %f' 'TryExec=sh'
expect_exit 0 "quotes, %%, \`, \$ and TryExec: app set" app set quotes.desktop current
check "…the entry passes desktop-file-validate" valid "$LOCAL_APPS/quotes.desktop"
check "…its Exec is the launcher before the original, byte for byte" \
	test "$(exec_of "$LOCAL_APPS/quotes.desktop")" = "$RUN $(exec_of "$APPS/quotes.desktop")"
check "…TryExec is kept" grep -qx 'TryExec=sh' "$LOCAL_APPS/quotes.desktop"
check "…the other choice is an action: the distribution's Mesa" \
	test "$(exec_of "$LOCAL_APPS/quotes.desktop" 'Desktop Action tb323fu-mesa-other')" = "$DISTRO $(exec_of "$APPS/quotes.desktop")"
check "…named for people" grep -qx "Name=Launch with the distribution's Mesa" "$LOCAL_APPS/quotes.desktop"
check "…the marker names the original and its SHA-256" sh -c "grep -qx 'X-TB323FU-Mesa-Original=$APPS/quotes.desktop' '$LOCAL_APPS/quotes.desktop' &&
	grep -qx \"X-TB323FU-Mesa-Original-SHA256=\$(sha256sum <'$APPS/quotes.desktop' | cut -c1-64)\" '$LOCAL_APPS/quotes.desktop'"

entry codes.desktop '[Desktop Entry]' 'Type=Application' 'Name=Codes' 'Icon=codes' \
	'Exec=codes --icon-arg %i --name %c --file %k %U' 'MimeType=text/plain;' \
	'Actions=new-window;private;' \
	'[Desktop Action new-window]' 'Name=New Window' 'Exec=codes --new-window %u' \
	'[Desktop Action private]' 'Name=Private' 'Exec=codes --private %F'
expect_exit 0 "field codes %i %c %k %U and two actions: app set $V1" app set codes $V1
check "…validates" valid "$LOCAL_APPS/codes.desktop"
check "…the main Exec runs Mesa $V1 with its field codes" \
	test "$(exec_of "$LOCAL_APPS/codes.desktop")" = "$MESA --store $REAL run --version $V1 -- codes --icon-arg %i --name %c --file %k %U"
check "…each action's Exec is wrapped too" sh -c "
	grep -qx 'Exec=$MESA --store $REAL run --version $V1 -- codes --new-window %u' '$LOCAL_APPS/codes.desktop' &&
	grep -qx 'Exec=$MESA --store $REAL run --version $V1 -- codes --private %F' '$LOCAL_APPS/codes.desktop'"
check "…the actions are the original's and ours" grep -qx 'Actions=new-window;private;tb323fu-mesa-other;' "$LOCAL_APPS/codes.desktop"

# an action listed twice is one action: its Exec wrapped once
entry twice.desktop '[Desktop Entry]' 'Type=Application' 'Name=Twice' 'Exec=twice' 'Actions=a;a;' \
	'[Desktop Action a]' 'Name=A' 'Exec=twice --a'
expect_exit 0 "Actions=a;a;: app set twice" app set twice distro
check "…action a's Exec wrapped once" test "$(exec_of "$LOCAL_APPS/twice.desktop" 'Desktop Action a')" = "$DISTRO twice --a"
check "…listed once, with ours" grep -qx 'Actions=a;tb323fu-mesa-other;' "$LOCAL_APPS/twice.desktop"
app unset twice >/dev/null
rm -f "$APPS/twice.desktop"

entry org.example.Dbus.desktop '[Desktop Entry]' 'Type=Application' 'Name=Dbus' \
	'Exec=dbus-app --gapplication-service' 'DBusActivatable=true'
expect_exit 0 "DBusActivatable=true with an Exec: app set" app set org.example.Dbus distro
check "…validates" valid "$LOCAL_APPS/org.example.Dbus.desktop"
check "…the entry is started by its Exec, not through D-Bus (which would miss the rule)" \
	sh -c "! grep -q DBusActivatable '$LOCAL_APPS/org.example.Dbus.desktop'"
entry org.example.DbusOnly.desktop '[Desktop Entry]' 'Type=Application' 'Name=DbusOnly' 'DBusActivatable=true'
expect_exit 1 "D-Bus activation alone (no Exec): refused" ctl --json mesa app set org.example.DbusOnly distro
check "…saying why" grep -q "has no Exec" "$T/err"
check "…nothing written" test ! -e "$LOCAL_APPS/org.example.DbusOnly.desktop"

big=$(head -c 600000 /dev/zero | tr '\0' 'x')
entry big.desktop '[Desktop Entry]' 'Type=Application' 'Name=Big' 'Exec=big %f' "Comment=$big" \
	"X-Padding=$(head -c 401000 /dev/zero | tr '\0' 'y')"
check "a 1 MB original ($(wc -c <"$APPS/big.desktop") bytes)" test "$(wc -c <"$APPS/big.desktop")" -ge 1000000
expect_exit 0 "…app set" app set big distro
check "…validates" valid "$LOCAL_APPS/big.desktop"
printf 'X-More=%s\n' "$big" >>"$APPS/big.desktop"
expect_exit 1 "an original over 1 MiB: refused" app set big current
check "…saying so" grep -q "over 1 MiB" "$T/err"
check "…the entry of the rule before stays as it was" grep -q "distro -- big %f" "$LOCAL_APPS/big.desktop"
expect_exit 1 "app refresh after the original grew over 1 MiB: fails" app refresh
check "…naming it" grep -q "big.desktop is over 1 MiB" "$T/err"
check "…and ours is removed, the desktop gets the original as it is" test ! -e "$LOCAL_APPS/big.desktop"
rm "$APPS/big.desktop"
app unset big >/dev/null

printf '[Desktop Entry]\nType=Application\nName=Caf\351\nExec=cafe\n' >"$APPS/latin1.desktop"
expect_exit 1 "invalid UTF-8: refused" app set latin1 distro
check "…saying so" grep -q "not UTF-8" "$T/err"
check "…nothing written" test ! -e "$LOCAL_APPS/latin1.desktop"
expect_exit 1 "…with --json: exit 1 still" ctl --json mesa app set latin1 distro
reason_is file-invalid

entry twice.desktop '[Desktop Entry]' 'Type=Application' 'Name=Twice' 'Exec=first' 'Exec=second'
expect_exit 1 "a key twice in a group: refused (GLib would keep the one not wrapped)" app set twice distro
check "…nothing written" test ! -e "$LOCAL_APPS/twice.desktop"
printf '[Desktop Entry]\nType=Application\nName=Ctl\nExec=ctl\033[2J\n' >"$APPS/control.desktop"
expect_exit 1 "a control character: refused" app set control distro
check "…saying so" grep -q "control character" "$T/err"

mkdir -p "$T/opt/app"
printf '[Desktop Entry]\nType=Application\nName=Linked\nExec=linked --flag %%u\n' >"$T/opt/app/real.desktop"
ln -s "$T/opt/app/real.desktop" "$APPS/linked.desktop"
expect_exit 0 "a symbolic link into another directory: app set" app set linked.desktop distro
check "…validates" valid "$LOCAL_APPS/linked.desktop"
check "…the original is the link's path, as the desktop finds it" grep -qx "X-TB323FU-Mesa-Original=$APPS/linked.desktop" "$LOCAL_APPS/linked.desktop"
check "…the link and its target are as they were" sh -c "test -L '$APPS/linked.desktop' && grep -q 'Name=Linked' '$T/opt/app/real.desktop' && ! grep -q TB323FU '$T/opt/app/real.desktop'"

# --- never another's entry
entry foreign.desktop '[Desktop Entry]' 'Type=Application' 'Name=Foreign' 'Exec=foreign'
printf '[Desktop Entry]\nType=Application\nName=Mine\nExec=my-own-foreign\n' >"$LOCAL_APPS/foreign.desktop"
before=$(sha256sum <"$LOCAL_APPS/foreign.desktop")
expect_exit 1 "an entry that is not ours where ours would go: app set refused" ctl --json mesa app set foreign distro
reason_is not-ours
check "…it is byte for byte as it was" test "$(sha256sum <"$LOCAL_APPS/foreign.desktop")" = "$before"
ln -s "$T/opt/app/real.desktop" "$LOCAL_APPS/planted.desktop"
entry planted.desktop '[Desktop Entry]' 'Type=Application' 'Name=Planted' 'Exec=planted'
expect_exit 1 "a link where ours would go: refused" app set planted distro
check "…the link stays, its target too" sh -c "test -L '$LOCAL_APPS/planted.desktop' && ! grep -q TB323FU '$T/opt/app/real.desktop'"
rm -f "$LOCAL_APPS/foreign.desktop" "$LOCAL_APPS/planted.desktop"

# an original of 25,000 actions (under 1 MiB) would make an entry of ours over what we read back
python3 - "$APPS/many.desktop" <<'PY'
import sys
n = 25000
with open(sys.argv[1], "w") as f:
    f.write("[Desktop Entry]\nType=Application\nName=Many\nExec=many\nActions=" +
            "".join("a%d;" % i for i in range(n)) + "\n")
    for i in range(n):
        f.write("[Desktop Action a%d]\nExec=m\n" % i)
PY
check "an original of 25,000 actions is under 1 MiB" test "$(wc -c <"$APPS/many.desktop")" -lt 1048576
expect_exit 1 "…app set refuses it" ctl --json mesa app set many distro
check "…saying ours would be too large to read back" \
	test "$(json_strict "$T/out" '"more than the 2 MiB this tool reads back; no rule was set" in d["message"]')" = True
check "…nothing written, no rule" sh -c "test ! -e '$LOCAL_APPS/many.desktop' && ! grep -q '^many' '$STORE/app-rules' 2>/dev/null"
rm -f "$APPS/many.desktop"

# --- names
entry org.example.Viewer.desktop '[Desktop Entry]' 'Type=Application' 'Name=Picture Viewer' 'Exec=viewer %f'
entry org.other.Same.desktop '[Desktop Entry]' 'Type=Application' 'Name=Same' 'Exec=same1'
entry org.third.Same.desktop '[Desktop Entry]' 'Type=Application' 'Name=Same' 'Exec=same2'
expect_exit 0 "a name that one entry has: app set 'picture viewer'" ctl --json mesa app set 'picture viewer' distro
check "…resolved to its ID" test "$(json_strict "$T/out" 'd["app"]')" = org.example.Viewer.desktop
expect_exit 0 "the last part of an ID: app set viewer" app set viewer current
expect_exit 1 "a name two entries have: refused" ctl --json mesa app set same distro
reason_is app-ambiguous
check "…listing both candidates" sh -c "grep -q org.other.Same.desktop '$T/err' && grep -q org.third.Same.desktop '$T/err'"
# a Name whose escape is a newline: shown escaped, the sentence stays one line
entry org.one.Line.desktop '[Desktop Entry]' 'Type=Application' 'Name=Line\nbreak' 'Exec=line1'
entry org.two.Line.desktop '[Desktop Entry]' 'Type=Application' 'Name=Line' 'Exec=line2'
expect_exit 1 "two entries whose IDs end in Line, one Name with a \\n escape: refused" app set line distro
check "…in one line, the newline shown as \\x0a" sh -c "test \$(wc -l <'$T/err') -eq 1 && grep -qF 'org.one.Line.desktop (Line\\x0abreak)' '$T/err'"
rm -f "$APPS/org.one.Line.desktop" "$APPS/org.two.Line.desktop"
expect_exit 1 "a name no entry has: refused" ctl --json mesa app set nothing-like-it distro
reason_is app-not-found
expect_exit 2 "a choice that is none: usage" app set viewer sometimes
expect_exit 1 "a version not installed: refused" ctl --json mesa app set viewer 2030.1.1
reason_is not-installed

# --- unset removes exactly what set wrote
app unset viewer >/dev/null
before=$(listing "$T/local")
expect_exit 0 "app set then app unset" sh -c "$CTL --store '$STORE' mesa app set org.example.Viewer.desktop distro && $CTL --store '$STORE' mesa app unset org.example.Viewer"
check "…leaves the directory exactly as before" test "$(listing "$T/local")" = "$before"
check "…and no rule" sh -c "! grep -q Viewer '$STORE/app-rules'"

# --- list, strict reading
expect_exit 0 "app list --json" ctl --json mesa app list
check "…names each rule with its choice and scope" \
	test "$(json_strict "$T/out" 'sorted((r["app"], r["choice"], r["scope"], r["entry"]) for r in d["rules"] if r["app"] == "codes.desktop")')" = "[('codes.desktop', '$V1', 'system', 'ours')]"
cp "$STORE/app-rules" "$T/rules.good"
for bad in 'codes.desktop=2026.10.06\ncodes.desktop=distro' 'codes.desktop 2026.10.06' 'codes=distro' \
	'codes.desktop=sometimes' '.hidden.desktop=distro' 'codes.desktop=distro\n\0'; do
	printf "$bad\n" >"$STORE/app-rules"
	ctl mesa app list >"$T/out" 2>&1
	grep -q "rules-corrupt" "$T/out" || { not_ok "a damaged rule file is said to be damaged" "$(cat "$T/out")"; continue; }
	ok "a damaged rule file is said to be damaged: $(printf '%s' "$bad" | tr '\\' '/' | head -c 40)"
done
expect_exit 0 "the next writer rebuilds it from our entries" app refresh
check "…saying so" grep -q "damaged rules were rebuilt" "$T/out"
check "…with every rule the entries carry" test "$(sort "$STORE/app-rules")" = "$(sort "$T/rules.good")"

# --- refresh follows the originals
sed -i 's/^Exec=codes --icon-arg/Exec=codes --changed --icon-arg/' "$APPS/codes.desktop"
expect_exit 0 "the original changed: app refresh" app refresh
check "…rebuilt it" grep -q "codes.desktop: rebuilt" "$T/out"
check "…with the new Exec" grep -q "^Exec=.*run --version $V1 -- codes --changed --icon-arg" "$LOCAL_APPS/codes.desktop"
check "…the marker has the new hash" grep -qx "X-TB323FU-Mesa-Original-SHA256=$(sha256sum <"$APPS/codes.desktop" | cut -c1-64)" "$LOCAL_APPS/codes.desktop"
expect_exit 0 "nothing changed: app refresh" app refresh
check "…says every entry is up to date" grep -q "up to date" "$T/out"
rm "$APPS/codes.desktop"
expect_exit 0 "the original is gone: app refresh" app refresh
check "…removed ours" test ! -e "$LOCAL_APPS/codes.desktop"
cp "$LOCAL_APPS/quotes.desktop" "$LOCAL_APPS/orphan.desktop"
expect_exit 0 "an entry of ours that no rule names (a set cut short): app refresh" app refresh
check "…removed it" test ! -e "$LOCAL_APPS/orphan.desktop"

# --- a user's own rules
expect_exit 0 "app set --user" app set --user org.example.Viewer distro
check "…the entry is in \$XDG_DATA_HOME/applications" valid "$USER_APPS/org.example.Viewer.desktop"
check "…the rule in \$XDG_CONFIG_HOME/tb323fu/mesa-apps" grep -qx 'org.example.Viewer.desktop=distro' "$XDG_CONFIG_HOME/tb323fu/mesa-apps"
check "…the system's rules and entries are untouched" sh -c "! grep -q Viewer '$STORE/app-rules' && test ! -e '$LOCAL_APPS/org.example.Viewer.desktop'"
expect_exit 0 "a user rule over a system rule of the same application" sh -c \
	"$CTL --store '$STORE' mesa app set quotes distro && $CTL --store '$STORE' mesa app set --user quotes $V2"
check "…the user's is made from the distribution's original, not from the system's entry" \
	grep -qx "X-TB323FU-Mesa-Original=$APPS/quotes.desktop" "$USER_APPS/quotes.desktop"
expect_exit 0 "app list shows both scopes" ctl --json mesa app list
check "…quotes.desktop twice" test "$(json_strict "$T/out" 'sorted(r["scope"] for r in d["rules"] if r["app"] == "quotes.desktop")')" = "['system', 'user']"
expect_exit 0 "app unset --user" app unset --user quotes
check "…removed the user's entry only" sh -c "test ! -e '$USER_APPS/quotes.desktop' && test -e '$LOCAL_APPS/quotes.desktop'"

# --- as a user who cannot write the store
if reachable_by nobody; then
	mkdir -p "$T/nobody"
	chown nobody "$T/nobody"
	as_nobody() {
		run_cmd runuser -u nobody -- env HOME="$T/nobody" XDG_CONFIG_HOME= XDG_DATA_HOME= \
			XDG_DATA_DIRS="$XDG_DATA_DIRS" TB323FU_MESA_APPS_DIR="$LOCAL_APPS" \
			TB323FU_MESA_CONFIG="$TB323FU_MESA_CONFIG" "$CTL" --store "$STORE" "$@"
	}
	before=$(listing "$T/local")
	as_nobody --json mesa app set org.example.Viewer distro
	check "nobody: app set (the system's rules) says it needs root" sh -c \
		"test $rc = 1 && grep -qF 'needs root for that: run \`sudo tb323fu-ctl --store $STORE --json mesa app set org.example.Viewer distro\`' '$T/err'"
	reason_is permission
	check "…and touched nothing" test "$(listing "$T/local")" = "$before"
	as_nobody mesa app set --user org.example.Viewer distro
	check "nobody: app set --user needs no root" test "$rc" = 0
	check "…its entry in nobody's ~/.local/share/applications passes desktop-file-validate" \
		valid "$T/nobody/.local/share/applications/org.example.Viewer.desktop"
	check "…owned by nobody, as its rule file" sh -c "test \"\$(stat -c %U '$T/nobody/.local/share/applications/org.example.Viewer.desktop' '$T/nobody/.config/tb323fu/mesa-apps' | sort -u)\" = nobody"
	as_nobody mesa app list
	check "nobody: app list shows its own rule" grep -q "org.example.Viewer.desktop starts with the distribution's Mesa (user rule)" "$T/out"
	as_nobody mesa app unset --user org.example.Viewer
	check "nobody: app unset --user" sh -c "test $rc = 0 && test ! -e '$T/nobody/.local/share/applications/org.example.Viewer.desktop'"
	unreachable_again
else
	skip "rules as a user who cannot write the store" "needs root and runuser to act as nobody"
fi

# --- the package's removal: our entries go, by the tool's own rule; what it calls not ours stays
entry org.example.Clear.desktop '[Desktop Entry]' 'Type=Application' 'Name=Clear' 'Exec=clear-app'
expect_exit 0 "a rule to clear: app set org.example.Clear distro" app set org.example.Clear distro
MARK='X-TB323FU-Mesa-Override=tb323fu-mesa-toolchain-program'
# entries of ours whose rule this build does not take (a newer build's, none at all): ours all
# the same, starting the launcher that goes with the package
sed 's/^X-TB323FU-Mesa-Rule=.*/X-TB323FU-Mesa-Rule=gl:zink+current/' "$LOCAL_APPS/org.example.Clear.desktop" >"$LOCAL_APPS/org.example.Newer.desktop"
sed '/^X-TB323FU-Mesa-Rule=/d' "$LOCAL_APPS/org.example.Clear.desktop" >"$LOCAL_APPS/org.example.Older.desktop"
printf '[Desktop Entry]\nType=Application\nName=A\nExec=a\nActions=x;\n[Desktop Action x]\nExec=x\n%s\n' "$MARK" \
	>"$LOCAL_APPS/mark-in-action.desktop"
printf '[Other]\n%s\n[Desktop Entry]\nType=Application\nName=B\nExec=b\n' "$MARK" >"$LOCAL_APPS/mark-before.desktop"
printf '[Desktop Entry]\nType=Application\nName=\377\nExec=c\n%s\n' "$MARK" >"$LOCAL_APPS/not-utf8.desktop"
ln -s "$APPS/org.example.Clear.desktop" "$LOCAL_APPS/link.desktop"
# entries of ours whose mark sits in an unusual place: bytes that are not UTF-8 added to ours,
# our mark moved into our action group, a second comment group after ours, a link to ours
OURS="$LOCAL_APPS/org.example.Clear.desktop"
{ cat "$OURS"; printf 'Comment=\377\n'; } >"$LOCAL_APPS/ours-not-utf8.desktop"
{ sed '/^X-TB323FU-Mesa-Override=/d' "$OURS"; echo "$MARK"; } >"$LOCAL_APPS/ours-mark-in-action.desktop"
{ cat "$OURS"; printf '\n# a second comment group\n# %s\n' "$MARK"; } >"$LOCAL_APPS/ours-second-comment.desktop"
ln -s org.example.Clear.desktop "$LOCAL_APPS/ours-link.desktop"
planted() { (cd "$LOCAL_APPS" && ls -l link.desktop | sed 's/.* -> //' && sha256sum mark-in-action.desktop mark-before.desktop not-utf8.desktop); }
planted >"$T/others.before"
run_cmd ctl --json mesa app list
check "app list calls the planted ones not ours (they have no rule) and ours ours" \
	test "$(json_strict "$T/out" '[r["entry"] for r in d["rules"] if r["app"] == "org.example.Clear.desktop"]')" = "['ours']"
# prerm's part, with this build on this store
sed -n '/^# The override entries of the application rules/,/^fi$/p' "$TB_TOP/debian/tb323fu-mesa.prerm" >"$T/prerm-part"
check "prerm's part is there" grep -q 'app clear' "$T/prerm-part"
# as the package calls it: tb323fu-ctl-mesa, which needs no "mesa" word
printf '#!/bin/sh\nexec "%s" --store "%s" mesa "$@"\n' "$CTL" "$STORE" >"$T/ctl-here"
chmod 755 "$T/ctl-here"
expect_exit 0 "the package's prerm on remove" env CTL="$T/ctl-here" sh -c '. "$0"' "$T/prerm-part" remove
check "…says nothing" test ! -s "$T/err"
check "…ours are gone (this one and those of the rules before)" sh -c "test ! -e '$LOCAL_APPS/org.example.Clear.desktop' -a ! -e '$LOCAL_APPS/quotes.desktop'"
check "…and ours whose rule this build does not take, or that carry none" \
	test ! -e "$LOCAL_APPS/org.example.Newer.desktop" -a ! -e "$LOCAL_APPS/org.example.Older.desktop"
check "…and ours with the mark in an unusual place: not UTF-8, in our action, after a second comment group, a link to ours" \
	sh -c "cd '$LOCAL_APPS' && test ! -e ours-not-utf8.desktop -a ! -e ours-mark-in-action.desktop -a ! -e ours-second-comment.desktop && test ! -L ours-link.desktop"
planted >"$T/others.after"
check "…a marker in an action group, in a group before [Desktop Entry], in a file that is not UTF-8, and a link: all kept" \
	cmp -s "$T/others.before" "$T/others.after"
check "…the rule is kept" grep -qx 'org.example.Clear.desktop=distro' "$STORE/app-rules"
expect_exit 0 "app refresh brings ours back" app refresh
check "…it is there again" test -f "$LOCAL_APPS/org.example.Clear.desktop" -a ! -L "$LOCAL_APPS/org.example.Clear.desktop"
rm -f "$LOCAL_APPS/mark-in-action.desktop" "$LOCAL_APPS/mark-before.desktop" "$LOCAL_APPS/not-utf8.desktop" "$LOCAL_APPS/link.desktop"
expect_exit 0 "app unset org.example.Clear" app unset org.example.Clear

done_testing
