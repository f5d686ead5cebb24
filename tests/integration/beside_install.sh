#!/bin/sh
# make install beside the Open Device Helper: its tb323fu-ctl, launcher and profile.d file stay
# byte for byte, ours goes beside them and one line says so; tb323fu-ctl-mesa answers; into an
# empty DESTDIR everything of ours is installed; the check timer's service is sandboxed and its
# calendar is valid.
. "$TB_TOP/tests/lib.sh"

D="$T/dest"
P=/usr/local
minstall() {
	make -s -C "$TB_TOP" -o all install BUILD="$TB_BUILD" SANITIZE="${SANITIZE:-}" DESTDIR="$1" \
		PREFIX=$P SYSCONFDIR=/etc >"$T/install.out" 2>"$T/install.err"
}

# --- the helper's files are there
mkdir -p "$D$P/bin" "$D/etc/profile.d"
# its usage line reads like ours: only our mark makes a file ours
printf '#!/bin/sh\n# the helper'"'"'s command line\necho "usage: tb323fu-ctl [--store DIR] [--config FILE] mesa"\n' >"$D$P/bin/tb323fu-ctl"
printf '#!/bin/sh\n# the helper'"'"'s launcher\nexec "$@"\n' >"$D$P/bin/tb323fu-mesa"
printf '# the helper'"'"'s profile.d file\n. /var/lib/tb323fu/mesa/env.conf\n' >"$D/etc/profile.d/tb323fu-mesa.sh"
chmod 755 "$D$P/bin/tb323fu-ctl" "$D$P/bin/tb323fu-mesa"
# its man pages, completion and a unit of one of our names
mkdir -p "$D$P/share/man/man1" "$D$P/share/bash-completion/completions" "$D$P/lib/systemd/system"
printf '.TH TB323FU-CTL 1\n.SH NAME\nthe helper\n' >"$D$P/share/man/man1/tb323fu-ctl.1"
printf '.TH TB323FU-MESA 1\n.SH NAME\nthe helper\n' >"$D$P/share/man/man1/tb323fu-mesa.1"
printf '# the helper'"'"'s completion\ncomplete -F _helper tb323fu-ctl\n' >"$D$P/share/bash-completion/completions/tb323fu-ctl"
printf '[Service]\nExecStart=/usr/local/bin/tb323fu-ctl mesa check\n' >"$D$P/lib/systemd/system/tb323fu-mesa-check.service"
helper_files="$P/bin/tb323fu-ctl $P/bin/tb323fu-mesa /etc/profile.d/tb323fu-mesa.sh $P/share/man/man1/tb323fu-ctl.1
	$P/share/man/man1/tb323fu-mesa.1 $P/share/bash-completion/completions/tb323fu-ctl $P/lib/systemd/system/tb323fu-mesa-check.service"
for f in $helper_files; do
	cp -p "$D$f" "$D$f.before"
done
# …and its store, with one version and none of our files
V=2026.10.06
HS="$D/var/lib/tb323fu/mesa"
R=$(standin $V) && "$CTL" --store "$T/scratch" mesa install-local "$R" --no-smoke >/dev/null ||
	not_ok "unpack a stand-in"
mkdir -p "$HS/versions" "$HS/icd/opencl"
cp -a "$T/scratch/versions/$V" "$HS/versions/"
ln -s "versions/$V" "$HS/current"
printf 'enabled=0\nmax=2\ntries=0\n' >"$HS/state"
cp "$HS/state" "$T/state.before"
if minstall "$D"; then ok "make install beside the helper's files"; else not_ok "make install beside the helper's files" "$(cat "$T/install.err")"; fi
for f in $helper_files; do
	check "the helper's $f is byte-identical" cmp -s "$D$f" "$D$f.before"
done
check "our man pages and completion are beside the helper's" sh -c \
	"grep -q tb323fu-mesa-toolchain-program '$D$P/share/man/man1/tb323fu-ctl-mesa.1' && grep -q tb323fu-mesa-toolchain-program '$D$P/share/man/man1/tb323fu-mesa-ctl.1' && cmp -s '$TB_TOP/dist/bash-completion/tb323fu-ctl' '$D$P/share/bash-completion/completions/tb323fu-ctl-mesa'"
HU="$D$P/lib/systemd/system"
check "our check timer and service both went beside the helper's unit, under one name" sh -c \
	"test -f '$HU/tb323fu-mesa-check-ctl.timer' && test -f '$HU/tb323fu-mesa-check-ctl.service' && test ! -e '$HU/tb323fu-mesa-check.timer'"
check "…and the boot-tick unit, whose name is free, kept its own" test -f "$HU/tb323fu-mesa-boot-tick.service"
check "make install completed the helper's store" sh -c "test -s '$HS/env/$V.env' && test -s '$HS/env/current.env' && test -s '$HS/icd/turnip.json'"
check "…keeping its state and current" sh -c "cmp -s '$HS/state' '$T/state.before' && test \"\$(readlink '$HS/current')\" = versions/$V"
check "one line says the helper's tb323fu-ctl was left alone" \
	test "$(grep -c "bin/tb323fu-ctl belongs to another program" "$T/install.out")" = 1
check "one line says where our launcher is" grep -q "bin/tb323fu-mesa belongs to another program.*ours is $P/libexec/tb323fu-mesa/tb323fu-mesa" "$T/install.out"
check "ours is beside the helper's profile.d file, and says so" sh -c \
	"cmp -s '$TB_TOP/dist/profile.d/tb323fu-mesa.sh' '$D/etc/profile.d/tb323fu-mesa-ctl.sh' && grep -q 'profile.d/tb323fu-mesa.sh belongs to another program' '$T/install.out'"
check "the backend's path is installed" test -x "$D$P/libexec/tb323fu-mesa/tb323fu-ctl-mesa"
check "the smoke program and our launcher are beside it" test -x "$D$P/libexec/tb323fu-mesa/tb323fu-mesa-smoke" -a -x "$D$P/libexec/tb323fu-mesa/tb323fu-mesa"
expect_exit 0 "tb323fu-ctl-mesa status works" "$D$P/libexec/tb323fu-mesa/tb323fu-ctl-mesa" --store "$STORE" status --json
cp "$T/out" "$T/status.alias"
ctl mesa status --json >"$T/status.ctl"
check "…and answers as tb323fu-ctl mesa status" cmp -s "$T/status.alias" "$T/status.ctl"
expect_exit 0 "tb323fu-ctl-mesa with no command is status" "$D$P/libexec/tb323fu-mesa/tb323fu-ctl-mesa" --store "$STORE" --json
check "…the same object" cmp -s "$T/out" "$T/status.ctl"
if minstall "$D"; then ok "a second install"; else not_ok "a second install" "$(cat "$T/install.err")"; fi
check "…still leaves the helper's tb323fu-ctl alone" cmp -s "$D$P/bin/tb323fu-ctl" "$D$P/bin/tb323fu-ctl.before"

# --- an empty DESTDIR gets everything of ours
E="$T/empty"
if minstall "$E"; then ok "make install into an empty DESTDIR"; else not_ok "make install into an empty DESTDIR" "$(cat "$T/install.err")"; fi
check "nothing was said to be left alone" sh -c "! grep -q 'belongs to another program' '$T/install.out'"
check "bin/tb323fu-ctl is ours and reaches the backend's program" \
	test "$(readlink -f "$E$P/bin/tb323fu-ctl")" = "$(readlink -f "$E$P/libexec/tb323fu-mesa/tb323fu-ctl-mesa")"
check "bin/tb323fu-mesa is ours" cmp -s "$E$P/bin/tb323fu-mesa" "$TB_BUILD/bin/tb323fu-mesa"
check "the environment.d link and profile.d file are ours" sh -c \
	"test \"\$(readlink '$E/etc/environment.d/60-tb323fu-mesa.conf')\" = /var/lib/tb323fu/mesa/env.conf && cmp -s '$TB_TOP/dist/profile.d/tb323fu-mesa.sh' '$E/etc/profile.d/tb323fu-mesa.sh'"
check "…and the environment.d link to flatpak.conf" \
	test "$(readlink "$E/etc/environment.d/61-tb323fu-mesa-flatpak.conf")" = /var/lib/tb323fu/mesa/flatpak.conf
check "mesa.conf has auto_download" grep -q '^#auto_download = off' "$E/etc/tb323fu/mesa.conf"
expect_exit 0 "bin/tb323fu-ctl mesa status works" "$E$P/bin/tb323fu-ctl" --store "$STORE" mesa status
if minstall "$E"; then ok "installing again over our own files"; else not_ok "installing again over our own files" "$(cat "$T/install.err")"; fi
check "…replaces them without a word" sh -c "! grep -q 'belongs to another program' '$T/install.out'"

# --- the units
U="$E$P/lib/systemd/system"
for u in tb323fu-mesa-boot-tick.service tb323fu-mesa-check.service tb323fu-mesa-check.timer; do
	check "$u is installed" test -f "$U/$u"
done
check "the services call the backend's path" sh -c "grep -q '^ExecStart=$P/libexec/tb323fu-mesa/tb323fu-ctl-mesa .*auto-check' '$U/tb323fu-mesa-check.service' && grep -q '^ExecStart=$P/libexec/tb323fu-mesa/tb323fu-ctl-mesa .*boot-tick' '$U/tb323fu-mesa-boot-tick.service'"
check "the timer is daily, randomized and persistent" sh -c \
	"grep -qx 'OnCalendar=daily' '$U/tb323fu-mesa-check.timer' && grep -q '^RandomizedDelaySec=' '$U/tb323fu-mesa-check.timer' && grep -qx 'Persistent=true' '$U/tb323fu-mesa-check.timer'"
if command -v systemd-analyze >/dev/null; then
	cal=$(sed -n 's/^OnCalendar=//p' "$U/tb323fu-mesa-check.timer")
	if systemd-analyze calendar "$cal" >"$T/cal" 2>&1; then ok "systemd-analyze calendar accepts $cal"; else not_ok "systemd-analyze calendar accepts $cal" "$(cat "$T/cal")"; fi
	check "…normalized to a daily time" grep -q 'Normalized form: \*-\*-\* 00:00:00' "$T/cal"
	for svc in tb323fu-mesa-check.service tb323fu-mesa-boot-tick.service; do
		systemd-analyze security --offline=yes "$U/$svc" >"$T/sec" 2>&1
		score=$(sed -n "s/.*Overall exposure level for $svc: \([0-9.]*\).*/\1/p" "$T/sec")
		echo "# systemd-analyze security --offline=yes $svc: $score"
		check "systemd-analyze security rates $svc at most 3.0 (it says $score)" \
			python3 -c "import sys; sys.exit(not (0 < float(sys.argv[1]) <= 3.0))" "${score:-0}"
	done
else
	skip "the check service's sandbox and the timer's calendar" "no systemd-analyze"
fi
done_testing
