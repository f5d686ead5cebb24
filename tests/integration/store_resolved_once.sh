#!/bin/sh
# The store a command acts on is worked out once, where the command line is read (--store,
# else $TB323FU_MESA_DIR, else the default: docs/design.md §3), and opened once: a writer
# reads the store's state first (cli_state_first) and carries that open store on into its
# session, which makes it a writer's (its folders, the lock) without resolving its root again.
# Counted for real: the program's own realpath() and mkdir() calls on the root, written down
# by a preloaded counter that hands each call on to the C library (tests/tools/store-calls.c).
. "$TB_TOP/tests/lib.sh"

printf 'smoke = off\n' >"$TB323FU_MESA_CONFIG"
R1=$(tiny_release 2026.10.01 "$T/r1") && R2=$(tiny_release 2026.10.02 "$T/r2") ||
	{ not_ok "tiny releases"; done_testing; exit 1; }
check "build the call counter (tests/tools/store-calls.c)" \
	cc -Wall -Wextra -Werror -shared -fPIC -o "$T/store-calls.so" "$TB_TOP/tests/tools/store-calls.c" -ldl

# counted NAME PROGRAM ARG…: runs PROGRAM (not a shell function) with the counter, its calls
# in $T/calls.NAME, its output in $T/out and $T/err, its exit code in $rc. (In a sanitizer
# build the counter comes before the sanitizer's runtime, which passes the calls on.)
counted() {
	_name=$1
	shift
	: >"$T/calls.$_name"
	TB_CALLS_LOG="$T/calls.$_name" LD_PRELOAD="$T/store-calls.so" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}
# calls NAME CALL: how many times the run NAME called CALL (realpath, mkdir) on the store's root.
calls() { grep -c -x -F "$2 $STORE" "$T/calls.$1"; }
# once NAME CALL TEXT: the run NAME called CALL on the root exactly once.
once() {
	_n=$(calls "$1" "$2")
	if [ "$_n" -eq 1 ]; then ok "$3"; else not_ok "$3" "$2 of $STORE $_n times"; fi
}

ctl mesa install-local "$R1" >/dev/null || not_ok "install-local $R1 into a new store"

# --- a writer into a store that is there: its root resolved once, made once ---
counted install "$CTL" --store "$STORE" mesa install-local "$R2"
check "install-local (a writer) runs with the counter" test "$rc" -eq 0
once install realpath "install-local resolves the store's root once (it was twice: the state's look, then the writer's open)"
once install mkdir "  and makes it once"

# --- the store from $TB323FU_MESA_DIR: worked out in the same one place ---
counted env_on env TB323FU_MESA_DIR="$STORE" "$CTL" mesa on
check "on with TB323FU_MESA_DIR (a writer)" test "$rc" -eq 0
once env_on realpath "  resolves the store's root once"
check "  acted on that store" grep -q '^VK_DRIVER_FILES=' "$STORE/env.conf"

# --- takeover reads the store, then completes it as a writer: the same open store ---
counted takeover "$CTL" --store "$STORE" mesa takeover
check "takeover runs" test "$rc" -eq 0
once takeover realpath "  resolves the store's root once (it was three times: the state's look, the reader's open, then a writer's open after closing it)"

# --- a reader: once, as before ---
counted status "$CTL" --store "$STORE" --json mesa status
check "status runs" test "$rc" -eq 0
once status realpath "  resolves the store's root once"

# --- a store that is not there yet: the state's look finds nothing to resolve (one realpath,
# ENOENT), the writer makes it and resolves it then (the second); the sentence keeps --store ---
STORE="$T/new/store"
counted fresh "$CTL" --store "$STORE" mesa install-local "$R1"
check "install-local makes a new store" test "$rc" -eq 0 -a -d "$STORE/versions/2026.10.01"
once fresh mkdir "  makes its root once"
n=$(calls fresh realpath)
if [ "$n" -eq 2 ]; then ok "  looks for it once and resolves it once it is made"
else not_ok "  looks for it once and resolves it once it is made" "realpath of $STORE $n times"; fi
check "  the sentence keeps --store" grep -q -- "--store $STORE mesa on" "$T/out"

done_testing
