#!/bin/sh
# verify --all: every installed version re-hashed, one line each; a damaged one named, the
# exit code the first failure's (4), the JSON a list; --repair with it mends what the release
# source still offers; --all with a VERSION is a usage error.
. "$TB_TOP/tests/lib.sh"

printf 'smoke = off\n' >"$TB323FU_MESA_CONFIG"
R1=$(tiny_release 2026.10.01 "$T/r1") && R2=$(tiny_release 2026.10.02 "$T/r2") ||
	{ not_ok "tiny releases"; done_testing; exit 1; }
ctl mesa install-local "$R1" >/dev/null && ctl mesa install-local "$R2" >/dev/null
run_cmd ctl mesa verify --all
check "both intact: exit 0, a line each" \
	sh -c "[ $rc -eq 0 ] && [ \$(grep -c 'is intact' '$T/out') -eq 2 ]"
printf 'x' >>"$STORE/versions/2026.10.01/lib/libvk.so"
run_cmd ctl mesa verify --all
check "one damaged: exit 4, the report on stdout" test "$rc" -eq 4
check "  it names the damaged version and its file" grep -q 'libvk.so' "$T/out"
check "  the whole one is still said intact" grep -q 'Mesa 2026.10.02 is intact' "$T/out"
check "  and the count, with the way to mend it" grep -q '1 of 2 versions are damaged; `tb323fu-ctl --store '"$STORE"' mesa verify --all --repair` fetches anew' "$T/out"
run_cmd ctl --json mesa verify --all
intact=$(json_strict "$T/out" '",".join(v["version"] for v in d["versions"] if v["intact"])')
reason=$(json_strict "$T/out" 'd["reason"]')
if [ "$intact" = 2026.10.02 ] && [ "$reason" = damaged ]; then
	ok "--json: the versions, each intact or not, the reason the first failure's"
else not_ok "--json: the versions, each intact or not, the reason the first failure's" "$(head -c 600 "$T/out")"; fi
expect_exit 2 "--all with a VERSION is a usage error" ctl mesa verify --all 2026.10.01
done_testing
