#!/bin/sh
# Prints every shell script of the tree below TOP, one path a line (relative to TOP): the files
# named *.sh and those whose first line is a shebang of sh, bash, dash or ksh (or, for a file
# that is sourced, shellcheck's `# shellcheck shell=…`), wherever they are.
# In a git checkout the files are git's, committed or not (what .gitignore leaves out, such as
# the build directories, is not looked at); elsewhere every file but those of .git/ and of the
# build directories (build/, build-*/ but build-recipes/). The fuzzers' corpora are data, and a
# symbolic link is checked as the file it names.
# Usage: shell-scripts.sh TOP
top=${1:?TOP}
cd "$top" || exit 2
{
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files --cached --others --exclude-standard
	else
		find . -type d \( -name .git -o -path ./build -o -path './build-*' \) \
			! -path ./build-recipes ! -path './build-recipes/*' -prune -o -type f -print |
			sed 's|^\./||'
	fi
} | grep -v '^tests/fuzz/corpora/' | sort -u | while IFS= read -r f; do
	[ -f "$f" ] && [ ! -L "$f" ] || continue
	case $f in
	*.sh) echo "$f" ;;
	*) head -n 1 "$f" 2>/dev/null |
		grep -aqE '^(#![[:space:]]*[^[:space:]]*/(env[[:space:]]+)?|# shellcheck shell=)(sh|bash|dash|ksh)([[:space:]]|$)' &&
		echo "$f" ;;
	esac
done
