#!/bin/sh
# One application's GL (docs/design.md §16): `app set APP CHOICE --gl native|zink|distro`
# wraps the entry's Exec in `run --gl …`, keeps the GL in the entry (X-TB323FU-Mesa-GL) and the
# rule file (` gl=…`), and the entry's Exec started as the desktop would draws on that GL; a
# damaged rule file is rebuilt with it, refresh keeps it, and what cannot be is refused.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/app-lib.sh"

V1=2026.11.01
V2=2026.11.02
DRAW=$TB_BUILD/tests/tools/egl-draw
[ -x "$DRAW" ] || { not_ok "tests/tools/egl-draw is built (make unit-tests)"; done_testing; exit 1; }
R1=$(standin $V1) && R2=$(standin $V2 --no-gl) || { not_ok "stand-in releases"; done_testing; exit 1; }
ctl mesa install-local "$R2" --no-smoke >/dev/null && ctl mesa install-local "$R1" --no-smoke >/dev/null ||
	not_ok "install $V2 then $V1"
REAL=$(cd "$STORE" && pwd -P)
entry org.example.Draw.desktop '[Desktop Entry]' 'Type=Application' 'Name=Draw' "Exec=$DRAW"
entry org.example.Other.desktop '[Desktop Entry]' 'Type=Application' 'Name=Other' "Exec=$DRAW"
OURS=$LOCAL_APPS/org.example.Draw.desktop
# start ENTRY: its Exec as the desktop runs it (no field codes here), output in $T/out
start() { sh -c "$(exec_of "$1")" >"$T/out" 2>"$T/err"; }
app_json() { ctl --json mesa app list | json "$1"; }

# --- current on Zink ---
expect_exit 0 "app set Draw current --gl zink" ctl mesa app set org.example.Draw current --gl zink
check "…says its GL is on Zink" grep -q "^org.example.Draw.desktop starts with the store's current Mesa, its GL on Zink: " "$T/out"
check "…the entry's Exec runs it with --gl zink" grep -q "^Exec=.* run --gl zink -- $DRAW\$" "$OURS"
check "…the entry keeps the GL" grep -qx "X-TB323FU-Mesa-GL=zink" "$OURS"
check "…the rule file too" grep -qx "org.example.Draw.desktop=current gl=zink" "$STORE/app-rules"
check "…the entry is a valid desktop entry" valid "$OURS"
start "$OURS"
check "…started from its entry, it draws on Zink" sh -c "grep -qx 'pixels=4096/4096' '$T/out' && grep -q '^renderer=zink' '$T/out'"
check "…over the store's GL" grep -q "^map=$REAL/versions/$V1/lib/gl/libEGL_mesa.so.0" "$T/out"
check "app list --json names its GL" test "$(app_json '[(r["app"], r["choice"], r["gl"]) for r in d["rules"]]')" = \
	"[('org.example.Draw.desktop', 'current', 'zink')]"

# --- a pinned version, its own GL; and the distribution's GL ---
expect_exit 0 "app set Other $V1 --gl native" ctl mesa app set org.example.Other $V1 --gl native
check "…Exec: run --gl native --version $V1" grep -q "^Exec=.* run --gl native --version $V1 -- $DRAW\$" "$LOCAL_APPS/org.example.Other.desktop"
start "$LOCAL_APPS/org.example.Other.desktop"
check "…draws on the store's llvmpipe" sh -c "grep -q '^renderer=llvmpipe' '$T/out' && grep -q '^map=$REAL/versions/$V1/lib/gl/' '$T/out'"
expect_exit 0 "app set Other current --gl distro" ctl mesa app set org.example.Other current --gl distro
start "$LOCAL_APPS/org.example.Other.desktop"
check "…draws on the distribution's GL" sh -c "grep -qx 'pixels=4096/4096' '$T/out' && ! grep -q '^map=$REAL/' '$T/out'"
expect_exit 0 "app set Other current (no --gl)" ctl mesa app set org.example.Other current
check "…the rule loses its GL" sh -c "grep -qx 'org.example.Other.desktop=current' '$STORE/app-rules' && ! grep -q 'X-TB323FU-Mesa-GL' '$LOCAL_APPS/org.example.Other.desktop'"

# --- kept through a damaged rule file and refresh ---
printf 'garbage\n' >"$STORE/app-rules"
expect_exit 0 "app set Other distro with the rule file damaged" ctl mesa app set org.example.Other distro
check "…rebuilt with Draw's GL from its entry" grep -qx "org.example.Draw.desktop=current gl=zink" "$STORE/app-rules"
printf 'Comment=changed by its package\n' >>"$APPS/org.example.Draw.desktop"
expect_exit 0 "app refresh after the original changed" ctl mesa app refresh
check "…rebuilds the entry with its GL" sh -c "grep -q '^Comment=changed' '$OURS' && grep -q '^Exec=.* run --gl zink -- $DRAW\$' '$OURS' && grep -qx 'X-TB323FU-Mesa-GL=zink' '$OURS'"

# --- refusals ---
expect_exit 2 "app set Draw distro --gl zink" ctl mesa app set org.example.Draw distro --gl zink
check "…says distro takes no --gl" grep -q "distro takes no --gl" "$T/err"
expect_exit 2 "app set Draw current --gl vulkan" ctl mesa app set org.example.Draw current --gl vulkan
expect_exit 1 "app set Draw $V2 --gl native ($V2 has no GL)" ctl mesa app set org.example.Draw $V2 --gl native
check "…says it carries no GL" grep -q "Mesa $V2 carries no GL (its release's drivers do not name gl): set the rule without --gl" "$T/err"
check "…and the rule is as it was" grep -qx "org.example.Draw.desktop=current gl=zink" "$STORE/app-rules"
expect_exit 0 "app set --dry-run with --gl" ctl --json mesa app set org.example.Draw $V1 --gl zink --dry-run
check "…names the Exec it would write" test "$(json 'd["exec"].endswith(" run --gl zink --version '$V1' -- '"$DRAW"'")' <"$T/out")" = True

done_testing
