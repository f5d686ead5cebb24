#!/bin/sh
# Every option of every command, as `tb323fu-ctl mesa help COMMAND` lists it from the table,
# is taken as `--opt value` and as `--opt=value` alike: both forms end the same way, and
# neither as a usage error about the option. Each stops soon for a reason that does not
# depend on the option's form: nothing is installed in the store, the release source is a
# file that is not there, pack finds no staged tree; the global options are tried on a store
# under a regular file, which cannot be opened at all.
# And no command body reads the command line: nothing under ctl/cmd/ names argv.
. "$TB_TOP/tests/lib.sh"

: >"$T/file"
BAD="$T/file/store"
printf 'source = github:o/r\napi_url = file://%s\n' "$T/no-mirror" >"$TB323FU_MESA_CONFIG"

# The commands, from the top help's list.
COMMANDS=$("$CTL" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
check "the top help lists the commands" test "$(echo "$COMMANDS" | wc -w)" -ge 20

# option_lines: "NAME PLACEHOLDER" a line (no placeholder for a flag) from a help's options
# list, whose first 26 columns are the option and its placeholder.
option_lines() {
	awk '/^options/ { on = 1; next } on && /^$/ { exit }
		on && /^  --/ { n = split(substr($0, 3, 26), w, " "); print w[1], (n > 1 ? w[2] : "") }'
}
options() { "$CTL" mesa help "$1" | option_lines; }
# value PLACEHOLDER: a value of that kind (a choice's first word, a number, else a word).
value() {
	case $1 in
	*"|"*) echo "${1%%|*}" ;;
	N) echo 3 ;;
	*) echo x ;;
	esac
}
# operand CMD: what the command needs besides its options, from its usage line.
operand() {
	usage=$("$CTL" mesa help "$1" | sed -n '1s/^usage: tb323fu-ctl \[OPTIONS\] mesa [^ ]* *//p')
	case $usage in
	VERSION*) echo 2026.10.06 ;;
	FILE*) echo "$T/release.tar.gz" ;;
	*OUTDIR) echo "--stage $T/stage --version 2026.10.06 $T/out" ;;
	[a-z]*) echo "${usage%% *}" ;; # a group (app, flatpak): its first command takes the options
	esac
}
# with_option FORM OPT VALUE ARGS…: runs ARGS, the word @ in them replaced by `OPT VALUE`
# (FORM a) or `OPT=VALUE` (FORM b).
with_option() {
	form=$1 opt=$2 val=$3
	shift 3
	n=$#
	while [ "$n" -gt 0 ]; do
		a=$1
		shift
		n=$((n - 1))
		if [ "$a" != @ ]; then set -- "$@" "$a"
		elif [ "$form" = a ]; then set -- "$@" "$opt" "$val"
		else set -- "$@" "$opt=$val"; fi
	done
	"$@"
}
# same NAME OPT VALUE ARGS…: ARGS with `OPT VALUE` and with `OPT=VALUE` for @ end alike.
same() {
	name=$1 opt=$2 val=$3
	shift 3
	with_option a "$opt" "$val" "$@" >"$T/a.out" 2>"$T/a.err"
	ra=$?
	with_option b "$opt" "$val" "$@" >"$T/b.out" 2>"$T/b.err"
	rb=$?
	# a sentence may repeat the line as typed (the `sudo …` to run): spelt as the first form
	for f in out err; do sed "s|$opt=$val|$opt $val|g" "$T/b.$f" >"$T/b.$f.as-a"; done
	if [ "$ra" -eq "$rb" ] && cmp -s "$T/a.out" "$T/b.out.as-a" && cmp -s "$T/a.err" "$T/b.err.as-a" &&
		! grep -qE "unknown option|unexpected argument|missing value|takes no value|takes no arguments" "$T/a.err"; then
		ok "$name"
	else
		not_ok "$name" "exit $ra and $rb" "stderr: $(head -c 300 "$T/a.err")" \
			"stderr with =: $(head -c 300 "$T/b.err")"
	fi
}
# taken NAME ARGS…: the flag in ARGS is not refused as an option.
taken() {
	name=$1
	shift
	run_cmd "$@"
	if ! grep -qE "unknown option|unexpected argument|takes no value" "$T/err"; then ok "$name"; else
		not_ok "$name" "exit $rc" "stderr: $(head -c 300 "$T/err")"; fi
}

# A group's commands (app, flatpak, cts), from its help's list.
subcommands() { "$CTL" mesa help "$1" | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $2 }'; }
# owner GROUP OPT: the first command of GROUP whose help lists OPT, with what it needs besides
# its options (a group's help lists its commands' options once each).
owner() {
	for s in $(subcommands "$1"); do
		"$CTL" mesa help "$1" "$s" | option_lines | grep -q "^$2 " || continue
		usage=$("$CTL" mesa help "$1" "$s" | sed -n "1s/^usage: tb323fu-ctl \[OPTIONS\] mesa $1 $s *//p")
		case $usage in FILE*) echo "$s $T/release.tar.gz" ;; *) echo "$s" ;; esac
		return
	done
}

tried=0
for c in $COMMANDS; do
	# shellcheck disable=SC2046
	set -- $(operand "$c")
	group_first="$*"
	options "$c" >"$T/options"
	while read -r opt arg; do
		more=$group_first
		[ -z "$(subcommands "$c")" ] || more=$(owner "$c" "$opt")
		tried=$((tried + 1))
		# shellcheck disable=SC2086
		if [ -n "$arg" ]; then
			same "mesa $c $opt $(value "$arg") and $opt=$(value "$arg")" "$opt" "$(value "$arg")" \
				"$CTL" --store "$STORE" mesa "$c" $more @
		else
			taken "mesa $c $opt" "$CTL" --store "$STORE" mesa "$c" $more "$opt"
		fi
	done <"$T/options"
done
check "the commands' help lists their options (bench, smoke, pack…)" test "$tried" -ge 25

# The global options, before `mesa` and after the command.
"$CTL" --help | option_lines >"$T/globals"
check "the top help lists the global options" grep -q -- "--progress MODE" "$T/globals"
while read -r opt arg; do
	case $opt in --help | --version) continue ;; esac
	case $arg in
	DIR) val="$BAD" ;;
	FILE) val="$TB323FU_MESA_CONFIG" ;;
	MODE) val=none ;;
	*) val= ;;
	esac
	if [ -n "$val" ]; then
		same "$opt $arg before mesa" "$opt" "$val" "$CTL" --store "$BAD" @ mesa status
		same "$opt $arg between mesa and the command" "$opt" "$val" "$CTL" --store "$BAD" mesa @ status
		same "$opt $arg after the command" "$opt" "$val" "$CTL" --store "$BAD" mesa status @
		same "$opt $arg after a writer" "$opt" "$val" "$CTL" --store "$BAD" mesa on @
	else
		taken "$opt before mesa" "$CTL" --store "$BAD" "$opt" mesa status
		taken "mesa status $opt" "$CTL" --store "$BAD" mesa status "$opt"
	fi
done <"$T/globals"

# An empty value is a usage error for every option that takes a value, in both forms: a
# script's `--store="$S"` with S unset must not act on the default store.
empty_refused() {
	name=$1
	shift
	run_cmd "$@"
	if [ "$rc" -eq 2 ] && grep -q -- "not an empty value (is the variable it came from set?)" "$T/err"; then
		ok "$name"
	else
		not_ok "$name" "exit $rc" "stderr: $(head -c 300 "$T/err")"
	fi
}
empties=0
for c in $COMMANDS; do
	# shellcheck disable=SC2046
	set -- $(operand "$c")
	group_first="$*"
	options "$c" >"$T/options"
	while read -r opt arg; do
		[ -n "$arg" ] || continue
		more=$group_first
		[ -z "$(subcommands "$c")" ] || more=$(owner "$c" "$opt")
		empties=$((empties + 1))
		# shellcheck disable=SC2086
		empty_refused "mesa $c $opt= is a usage error" "$CTL" --store "$STORE" mesa "$c" $more "$opt="
		# shellcheck disable=SC2086
		empty_refused "mesa $c $opt '' too" "$CTL" --store "$STORE" mesa "$c" $more "$opt" ''
	done <"$T/options"
done
check "…tried for every option with a value (bench, smoke, pack…)" test "$empties" -ge 20
for opt in --store --config; do
	empty_refused "$opt= before mesa" "$CTL" "$opt=" mesa status
	empty_refused "$opt '' after the command" "$CTL" mesa status "$opt" ''
done
# What the review saw: `--store= mesa on` made a store where TB323FU_MESA_DIR pointed.
TB323FU_MESA_DIR="$T/env-store" expect_exit 2 "--store= mesa on: a usage error" "$CTL" --store= mesa on
check "…nothing made where TB323FU_MESA_DIR points" test ! -e "$T/env-store"
TB323FU_MESA_DIR="$T/env-store" expect_exit 2 "--json --store= mesa on: the error object" "$CTL" --json --store= mesa on
reason_is usage

# An unknown option is named, cut: a 100 kB one does not come back whole.
long=$(head -c 100000 /dev/zero | tr '\0' x)
expect_exit 2 "an unknown 100 kB option" ctl mesa status "--$long"
check "…named cut short, in one short line" test "$(wc -c <"$T/err")" -lt 400 -a "$(wc -l <"$T/err")" -eq 1
check "…its start shown, then ..." grep -q 'unknown option for status: "--xxxxxxxxxx.*\.\.\."' "$T/err"
expect_exit 2 "a 100 kB operand where none is taken" ctl mesa on "$long"
check "…cut short too" test "$(wc -c <"$T/err")" -lt 400

# The bug this table ended: the command refused what the table had accepted.
expect_exit 1 "mesa bench --rounds=3 goes as far as --rounds 3" ctl mesa bench --rounds=3
check "  (to the store, where nothing is installed)" grep -q "no Mesa version is installed" "$T/err"
expect_exit 1 "mesa smoke --suite=piglit-cl too" ctl mesa smoke --suite=piglit-cl
expect_exit 2 "--rounds=0 is refused for its value" ctl mesa bench --rounds=0
check "  saying what it wants" grep -q -- '--rounds wants a number from 1 to 1000, not "0"' "$T/err"

# No command body reads the command line.
run_cmd grep -rlw argv "$TB_TOP/ctl/cmd"
check "no file under ctl/cmd/ names argv" test "$rc" -eq 1 -a ! -s "$T/out"
done_testing
