# shellcheck shell=sh
# Sourced by the app_*.sh tests after tests/lib.sh: desktop directories of the test's own, in
# the desktop's order (the user's, then "/usr/local/share" where the system's rules write,
# then "/usr/share" with the distribution's entries), and the caller's home.
SHARE="$T/share"
APPS="$SHARE/applications"
LOCAL_APPS="$T/local/share/applications"
export XDG_DATA_DIRS="$T/local/share:$SHARE"
export TB323FU_MESA_APPS_DIR="$LOCAL_APPS"
export HOME="$T/home"
export XDG_CONFIG_HOME="$HOME/.config" XDG_DATA_HOME="$HOME/.local/share"
# shellcheck disable=SC2034 # for the scripts that source this
USER_APPS="$XDG_DATA_HOME/applications"
mkdir -p "$APPS" "$HOME"

# entry ID LINE…: the distribution's entry ID, one line an argument.
entry() {
	_f="$APPS/$1"
	shift
	printf '%s\n' "$@" >"$_f"
}
# valid FILE: desktop-file-validate finds no error in FILE (its output kept in $T/validate).
valid() {
	desktop-file-validate "$1" >"$T/validate" 2>&1 && ! grep -q 'error:' "$T/validate"
}
# exec_of FILE [GROUP]: the raw Exec value of GROUP (default the [Desktop Entry]).
exec_of() {
	awk -v g="[${2:-Desktop Entry}]" '/^\[/ { in_g = ($0 == g) } in_g && /^Exec=/ { sub(/^Exec=/, ""); print; exit }' "$1"
}
# listing DIR: every file under DIR with its checksum, to tell that nothing else changed.
listing() {
	(cd "$1" 2>/dev/null && find . -print0 | sort -z | xargs -0 -r sha256sum 2>/dev/null; find . | sort) 2>/dev/null
}
