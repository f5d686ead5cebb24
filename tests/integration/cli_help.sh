#!/bin/sh
# Discovery: --help and `help [COMMAND]` at every level of both programs, --version, "did you
# mean …?" for a mistyped command or option (named as what it is), the man pages lint clean,
# and the bash completion answers a few prefixes in an interactive bash.
. "$TB_TOP/tests/lib.sh"

VERSION=$(cat "$TB_TOP/VERSION")
# usage_ok NAME CMD…: exit 0 and a usage line on stdout.
usage_ok() {
	name=$1
	shift
	run_cmd "$@"
	if [ "$rc" -eq 0 ] && grep -q '^usage: ' "$T/out"; then ok "$name"; else
		not_ok "$name" "exit $rc" "stdout: $(head -c 300 "$T/out")" "stderr: $(head -c 300 "$T/err")"; fi
}
# refused_with NAME WANT CMD…: exit 2 and WANT (a fixed string) on stderr.
refused_with() {
	name=$1
	want=$2
	shift 2
	run_cmd "$@"
	if [ "$rc" -eq 2 ] && grep -qF -- "$want" "$T/err"; then ok "$name"; else
		not_ok "$name" "exit $rc" "stderr: $(head -c 300 "$T/err")" "wanted: $want"; fi
}

# --- tb323fu-ctl: the program, the mesa group, every command ---
for args in "--help" "-h" "help" "mesa --help" "mesa help" "help mesa"; do
	# shellcheck disable=SC2086
	usage_ok "tb323fu-ctl $args" "$CTL" $args
done
check "the top help lists each command on its own line" \
	sh -c "grep -cE '^  (status|list|check|download|install|update|install-local|on|off|keep|rollback|boot-tick|remove|verify|smoke|doctor|pack) ' '$T/out' | grep -qx 17"
COMMANDS=$(sed -n '/^commands:/,/^$/p' "$T/out" | awk 'NF && !/^commands:/ {print $1}')
check "the help names the commands" test "$(echo "$COMMANDS" | wc -l)" -ge 17
for c in $COMMANDS; do
	usage_ok "tb323fu-ctl mesa $c --help" "$CTL" mesa "$c" --help
	check "  its usage names the command" grep -q "^usage: tb323fu-ctl \[OPTIONS\] mesa $c" "$T/out"
	check "  and gives an example" grep -A1 '^example:' "$T/out" | grep -q "tb323fu-ctl.* $c"
	usage_ok "tb323fu-ctl mesa help $c" "$CTL" mesa help "$c"
	usage_ok "tb323fu-ctl help $c" "$CTL" help "$c"
done
# json_usage NAME CMD…: exit 0 and one JSON object whose message is the usage (--json asks for it)
json_usage() {
	name=$1
	shift
	run_cmd "$@"
	if [ "$rc" -eq 0 ] && json_strict "$T/out" 'd["ok"] and d["message"].startswith("usage: ") or exit(1)' >/dev/null; then
		ok "$name"; else not_ok "$name" "exit $rc" "stdout: $(head -c 300 "$T/out")"; fi
}
json_usage "help after global options and the command (mesa status --json --help): one JSON object" \
	"$CTL" --store "$STORE" mesa status --json --help
json_usage "help update --json" "$CTL" help update --json
json_usage "help --json" "$CTL" help --json
check "help touches no store" test ! -e "$STORE"
usage_ok "the options of install are listed" "$CTL" mesa install -h
check "  --no-smoke among them" grep -q '^  --no-smoke' "$T/out"

# --- called as tb323fu-ctl-mesa (the backend's name): the same without the word ---
ln -s "$CTL" "$T/tb323fu-ctl-mesa"
usage_ok "tb323fu-ctl-mesa --help" "$T/tb323fu-ctl-mesa" --help
usage_ok "tb323fu-ctl-mesa status --help" "$T/tb323fu-ctl-mesa" status --help
usage_ok "tb323fu-ctl-mesa help install" "$T/tb323fu-ctl-mesa" help install
refused_with "tb323fu-ctl-mesa stauts" 'did you mean "status"?' "$T/tb323fu-ctl-mesa" stauts

# --- tb323fu-mesa ---
for args in "--help" "-h" "help" "help run" "help distro" "help env" "help which" \
	"run --help" "run -h" "distro --help" "env --help" "which --help"; do
	# shellcheck disable=SC2086
	usage_ok "tb323fu-mesa $args" "$MESA" $args
done
json_usage "tb323fu-mesa which --json --help: one JSON object" "$MESA" which --json --help
usage_ok "tb323fu-mesa-smoke --help" "$SMOKE" --help

# --- --version: the one VERSION file ---
for p in "$CTL" "$MESA" "$SMOKE"; do
	expect_exit 0 "$(basename "$p") --version" "$p" --version
	check "  prints $(basename "$p") $VERSION" test "$(cat "$T/out")" = "$(basename "$p") $VERSION"
done
expect_exit 0 "tb323fu-ctl mesa --version" "$CTL" mesa --version
check "  the same version" test "$(cat "$T/out")" = "tb323fu-ctl $VERSION"
expect_exit 0 "tb323fu-ctl mesa status --version" "$CTL" mesa status --version
check "  the same version" test "$(cat "$T/out")" = "tb323fu-ctl $VERSION"
# After a command that takes a version, --version is not the program's version: printing it
# and exiting 0 would read as a check that ran and passed.
for c in verify smoke install remove bench download notes; do
	refused_with "$c --version 2026.11.01 is refused, naming the command meant" \
		"$c has no --version option; it did not run: name the version as its argument, \`tb323fu-ctl mesa $c 2026.11.01\`" \
		"$CTL" --store "$STORE" mesa "$c" --version 2026.11.01
	check "  and prints no program version" sh -c "! grep -q '^tb323fu-ctl [0-9]' '$T/out'"
done
refused_with "verify --version=2026.11.01 too" 'name the version as its argument, `tb323fu-ctl mesa verify 2026.11.01`' \
	"$CTL" --store "$STORE" mesa verify --version=2026.11.01
check "  nothing was made" test ! -e "$STORE"
run_cmd "$CTL" --json --store "$STORE" mesa smoke --version 2026.11.01
check "  --json: the usage error object" sh -c "[ $rc -eq 2 ] && grep -q '\"reason\":\"usage\"' '$T/out'"
check "the package's version is the same" \
	test "$(sed -n '1s/^tb323fu-mesa (\([^)]*\)).*/\1/p' "$TB_TOP/debian/changelog")" = "$VERSION"

# the man page says what notes prints: the body for people, url, date and size in JSON only
check "tb323fu-ctl(1): notes shows the body; URL, date and size are in its JSON" sh -c "
	sed -n '/^\*notes\*/,/^\*takeover\*/p' '$TB_TOP/docs/man/tb323fu-ctl.1.scd' | tr '\n\t' '  ' | tr -s ' ' |
	grep -q 'the Markdown body (the release.s URL when it has no notes). With \*--json\* also _url_, _published_at_ and _size_'"

# --- typos: named as what they are, with the nearest word ---
refused_with "a mistyped group" 'unknown command "msea"; did you mean "mesa"?' "$CTL" msea status
refused_with "a mistyped command" 'unknown command "stauts"; did you mean "status"?' "$CTL" mesa stauts
refused_with "a swapped pair of letters" 'did you mean "rollback"?' "$CTL" mesa rollbcak
refused_with "a command asked for help" 'unknown command "instal"; did you mean "install"?' "$CTL" mesa help instal
refused_with "a mistyped global option" 'unknown option "--jsno"; did you mean "--json"?' "$CTL" --jsno mesa status
refused_with "a mistyped option of a command" \
	'unknown option for install: "--no-smok"; did you mean "--no-smoke"?' "$CTL" --store "$STORE" mesa install --no-smok
check "  refused before the store was made" test ! -e "$STORE"
refused_with "an option no command knows" 'unknown option for list: "--frobnicate"' "$CTL" --store "$STORE" mesa list --frobnicate
refused_with "a command without the group" '"status" is a command of the mesa group: tb323fu-ctl mesa status' "$CTL" status
refused_with "nothing close: no guess" 'unknown command "xyzzy" (see tb323fu-ctl mesa help)' "$CTL" mesa xyzzy
refused_with "launcher: a mistyped command" 'unknown command "rnu"; did you mean "run"?' "$MESA" rnu true
refused_with "launcher: a mistyped option of run" \
	'unknown option for run: "--verison"; did you mean "--version"?' "$MESA" run --verison 1 true
refused_with "launcher: a mistyped option of which" \
	'unknown option for which: "--jsno"; did you mean "--json"?' "$MESA" which --jsno
refused_with "launcher: a mistyped global option" 'unknown option "--stroe"; did you mean "--store"?' "$MESA" --stroe x run true
refused_with "launcher: help for no such command" 'did you mean "env"?' "$MESA" help evn

# --- man pages: built from docs/man/*.scd, lint clean ---
for page in tb323fu-ctl.1 tb323fu-mesa.1 tb323fu-mesa.conf.5; do
	f=$TB_BUILD/man/$page
	if [ ! -f "$f" ]; then not_ok "man page $page is built (make man)"; continue; fi
	run_cmd mandoc -T lint -W warning "$f"
	check "$page: mandoc -T lint -W warning is clean" test "$rc" -eq 0 -a ! -s "$T/out" -a ! -s "$T/err"
	if command -v groff >/dev/null; then
		run_cmd groff -ww -z -man "$f"
		check "$page: groff -ww -z is clean" test "$rc" -eq 0 -a ! -s "$T/err"
	else
		skip "$page: groff -ww -z is clean" "groff is not installed (Debian package groff-base)"
	fi
done
# scdoc 1.11.3 (Debian 13) writes .PP where 1.11.2 (Debian 12) writes .P: the page must lint
# clean whichever scdoc made it. The installed scdoc's output, its paragraphs spelt as 1.11.3's.
for page in tb323fu-ctl.1 tb323fu-mesa.1 tb323fu-mesa.conf.5; do
	name="$page, paragraphs written as .PP: mandoc -T lint -W warning is clean"
	if ! command -v scdoc >/dev/null; then skip "$name" "scdoc is not installed"; continue; fi
	sed "s/@VERSION@/$VERSION/" "$TB_TOP/docs/man/$page.scd" | scdoc | sed 's/^\.P$/.PP/' | awk -f "$TB_TOP/docs/man/tidy-man.awk" >"$T/$page"
	run_cmd mandoc -T lint -W warning "$T/$page"
	check "$name" test "$rc" -eq 0 -a ! -s "$T/out" -a ! -s "$T/err"
	# (but for the date in .TH, the built page may be from another day, and the mark the
	# build adds: install-beside tells our pages by it)
	# (both sides with one spelling: the built page is this scdoc's, .P or .PP)
	sed -e 's/^\.PP$/.P/' -e '/^\.TH /d' "$T/$page" >"$T/$page.as-built"
	check "  the same page as the built one but for the spelling" \
		sh -c "sed -e 's/^\.PP\$/.P/' -e '/^\.TH /d' -e '/tb323fu-mesa-toolchain-program/d' '$TB_BUILD/man/$page' | cmp -s - '$T/$page.as-built'"
done
for c in $COMMANDS; do
	check "tb323fu-ctl(1) describes $c" grep -q "\\\\fB$c\\\\fR" "$TB_BUILD/man/tb323fu-ctl.1"
done

# --- bash completion: an interactive bash, bash-completion and our script ---
BC=/usr/share/bash-completion/bash_completion
# offered LINE: the words bash offers for LINE (its last word is the one being completed).
offered() {
	HOME=$T PATH="$TB_BIN:$PATH" TB323FU_MESA_DIR="$STORE" bash --norc --noprofile -i -c '
		. "$1"; . "$2"
		eval "COMP_WORDS=($3)"
		COMP_LINE=$3 COMP_POINT=${#3} COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		case $3 in *" ") COMP_WORDS+=(""); COMP_CWORD=${#COMP_WORDS[@]}; COMP_CWORD=$((COMP_CWORD - 1)) ;; esac
		_tb323fu_complete
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' bash "$BC" "$TB_TOP/dist/bash-completion/tb323fu-ctl" "$1" 2>/dev/null
}
if [ ! -f "$BC" ]; then
	not_ok "bash-completion is installed ($BC)"
else
	check "tb323fu-ctl <tab>" test "$(offered 'tb323fu-ctl ')" = "help mesa "
	check "tb323fu-ctl mesa in<tab>" test "$(offered 'tb323fu-ctl mesa in')" = "install install-local "
	check "tb323fu-ctl mesa r<tab>" test "$(offered 'tb323fu-ctl mesa r')" = "remove rollback "
	check "tb323fu-ctl mesa install --no<tab>" test "$(offered 'tb323fu-ctl mesa install --no')" = "--no-smoke "
	check "tb323fu-ctl mesa smoke --a<tab>" test "$(offered 'tb323fu-ctl mesa smoke --a')" = "--all "
	check "tb323fu-ctl --progress <tab>" test "$(offered 'tb323fu-ctl --progress ')" = "auto bar json none "
	check "tb323fu-mesa <tab>" test "$(offered 'tb323fu-mesa ')" = "distro env help run which "
	check "tb323fu-mesa which --<tab>" test "$(offered 'tb323fu-mesa which --')" = "--gl --json --pid --version "
	check "tb323fu-ctl mesa verify --ver<tab>: no --version after a command that takes one" \
		test "$(offered 'tb323fu-ctl mesa verify --ver')" = " "
	check "tb323fu-ctl mesa smoke --ver<tab>: the same" test "$(offered 'tb323fu-ctl mesa smoke --ver')" = " "
	check "tb323fu-ctl mesa --ver<tab>: the program's own" test "$(offered 'tb323fu-ctl mesa --ver')" = "--version "
	# installed versions come from the store
	for v in 2026.10.06 2026.11.01 .2026.12.01.tmp; do
		mkdir -p "$STORE/versions/$v" && echo "version=$v" >"$STORE/versions/$v/MANIFEST"
	done
	check "tb323fu-ctl mesa remove <tab>: the installed versions" \
		test "$(offered 'tb323fu-ctl mesa remove ')" = "2026.10.06 2026.11.01 "
	check "tb323fu-ctl mesa verify 2026.1<tab>" test "$(offered 'tb323fu-ctl mesa verify 2026.1')" = "2026.10.06 2026.11.01 "
	check "tb323fu-ctl mesa smoke 2026.11<tab>" test "$(offered 'tb323fu-ctl mesa smoke 2026.11')" = "2026.11.01 "
	check "tb323fu-mesa run --version <tab>" test "$(offered 'tb323fu-mesa run --version ')" = "2026.10.06 2026.11.01 "
	check "tb323fu-mesa run --version 2026.10.06 vulkani<tab>: programs" \
		sh -c "echo '$(offered 'tb323fu-mesa run --version 2026.10.06 vulkani')' | grep -q vulkaninfo"
	rm -rf "$STORE"
fi
# --- usage errors with --json and --progress json are JSON too (reason usage)
expect_exit 2 "--json --progress json with an unknown command" ctl --json --progress json mesa instal
check "…stdout: the JSON error object, reason usage" \
	test "$(json_strict "$T/out" 'd["ok"], d["reason"], "instal" in d["message"]')" = "(False, 'usage', True)"
check "…stderr: the finished line only" \
	test "$(json_strict --lines "$T/err" 'd["op"], d["code"], d["reason"]')" = "('finished', 2, 'usage')"
expect_exit 2 "--json with a misspelt option of a command" ctl mesa update --json --no-smok
check "…stdout: the JSON error object" test "$(json_strict "$T/out" 'd["reason"]')" = usage
expect_exit 2 "--json with a missing value" ctl --json mesa status --config
check "…stdout: the JSON error object" test "$(json_strict "$T/out" 'd["reason"]')" = usage
run_cmd "$CTL" mesa help smoke
check "smoke's --tests names every smoke test, not a count" \
	grep -q -- "--tests LIST .*run only these of the smoke tests (vk.loader, vk.driver, vk.compute, vk.sync, cl.platform, cl.kernel, gl.draw, gl.zink)" "$T/out"
done_testing
