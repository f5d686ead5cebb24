#!/bin/sh
# Hints keep the --store and --config they were given: every `tb323fu-ctl` command that a
# sentence (stdout, stderr, JSON strings) names for the user to type carries both, quoted for
# a shell when the path needs it, so pasting it acts on the same store with the same
# configuration (docs/design.md §11).
. "$TB_TOP/tests/lib.sh"

S="$T/store-b"
C="$T/my mesa.conf"
printf 'smoke = off\nkeep_versions = 2\n' >"$C"
want="tb323fu-ctl --store $S --config '$C' mesa"
# hints_kept NAME: every command named in $T/out and $T/err carries --store and --config.
hints_kept() {
	cat "$T/out" "$T/err" >"$T/said"
	named=$(grep -o 'tb323fu-ctl \(mesa\|--[a-z]*\)' "$T/said" | wc -l)
	kept=$(grep -oF "$want" "$T/said" | wc -l)
	check "$1: names a command ($named) and each keeps --store and --config" \
		sh -c "[ $named -gt 0 ] && [ $named -eq $kept ]"
}
h() { "$CTL" --store "$S" --config "$C" "$@"; }

run_cmd h mesa status
hints_kept "status of an empty store"
run_cmd h --json mesa install 2030.1.1
hints_kept "install of a version there is no store for (JSON)"
if ! R1=$(tiny_release 2026.10.01 "$T/r1") || ! R2=$(tiny_release 2026.10.02 "$T/r2"); then
	not_ok "tiny releases"
	done_testing
	exit 1
fi
if ! h mesa install-local "$R1" >/dev/null || ! h mesa install-local "$R2" >/dev/null; then
	not_ok "install-local of two tiny releases"
fi
run_cmd h mesa status
hints_kept "status"
run_cmd h mesa install 2030.1.1
hints_kept "install of a version not downloaded"
run_cmd h --json mesa remove 2026.10.02
hints_kept "remove of the current version (JSON)"
run_cmd h mesa remove 2026.10.0
hints_kept "remove of a mistyped version"
printf 'x' >>"$S/versions/2026.10.01/lib/libvk.so"
run_cmd h mesa verify --all
hints_kept "verify --all of a damaged version"
run_cmd h mesa rollback
hints_kept "rollback to a damaged previous"
run_cmd h --json mesa doctor
hints_kept "doctor (JSON)"
# the launcher's hints too (it writes them without stdio): the store given, quoted where a
# shell needs it, and none added where none was given
mkdir -p "$T/a b"
run_cmd "$MESA" --store "$T/a b/s" run true
check "tb323fu-mesa --store: its hint names that store" \
	grep -qxF "tb323fu-mesa: no Mesa version installed (tb323fu-ctl --store '$T/a b/s' mesa update)" "$T/err"
run_cmd "$MESA" --json which --store "$T/a b/s"
check "…in its JSON too" json_strict "$T/out" 'd["message"] == "no Mesa version installed (tb323fu-ctl --store '"'$T/a b/s'"' mesa update)" or exit(1)'
run_cmd env TB323FU_MESA_DIR="$T/a b/s" "$MESA" run true
check "…and none where none was given" grep -qxF "tb323fu-mesa: no Mesa version installed (tb323fu-ctl mesa update)" "$T/err"
# a command named is never given the options twice
check "no command names --store twice" sh -c "! grep -q -- '--store [^ ]* --store\|mesa [^\`)]*--store' '$T/said'"
done_testing
