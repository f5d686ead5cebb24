# shellcheck shell=sh
# Sourced by the network tests after tests/lib.sh: the test server, the fake GitHub tree and
# the configuration that points at them.

# start_httpd ROOT [--tls CERT KEY]: serves ROOT on a free port of 127.0.0.1; sets PORT and
# HTTPD_PID. The server also ends by itself after $HTTPD_LIFETIME seconds (default 15 minutes),
# so that no test leaves one behind for long.
start_httpd() {
	_root=$1
	shift
	rm -f "$T/port"
	python3 "$TB_TOP/tests/tools/httpd" "$_root" "$T/port" --lifetime "${HTTPD_LIFETIME:-900}" "$@" 2>>"$T/httpd.err" &
	HTTPD_PID=$!
	TB_KILL_ON_EXIT="${TB_KILL_ON_EXIT:-} $HTTPD_PID"
	# Wait until it listens (the port file appears once the socket is bound).
	_i=0
	while [ ! -s "$T/port" ] && [ $_i -lt 600 ] && kill -0 "$HTTPD_PID" 2>/dev/null; do
		sleep 0.05
		_i=$((_i + 1))
	done
	PORT=$(cat "$T/port" 2>/dev/null) || PORT=
	[ -n "$PORT" ]
}

stop_httpd() {
	kill "$HTTPD_PID" 2>/dev/null
	wait "$HTTPD_PID" 2>/dev/null
	return 0
}

# fault PATH WHAT…: the server answers PATH with a fault from now on (see tests/tools/httpd);
# no_faults clears them.
fault() { printf '%s\n' "$*" >>"$WWW/.faults"; }
no_faults() { rm -f "$WWW/.faults"; }

# net_config [EXTRA LINES]: the configuration for the fake GitHub at $API.
net_config() {
	cat >"$TB323FU_MESA_CONFIG" <<EOF
source = github:o/r
api_url = $API
channel = ${CHANNEL:-stable}
keys_dir = $T/keys
token_file = $T/token
connect_timeout = 5
stall_timeout = 2
stall_speed = 1024
$*
EOF
}

# jget KEY: a field of the JSON object in $T/out.
jget() {
	python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; print(str(v).lower() if isinstance(v,bool) else v)' \
		"$T/out" "$1" 2>/dev/null
}

# has WORDS FILE: FILE contains WORDS.
has() { grep -qF -- "$1" "$2"; }

# unpacked_nothing VERSION: no tree, no staging, no partial download of VERSION is left.
unpacked_nothing() {
	[ ! -e "$STORE/versions/$1" ] &&
		[ -z "$(find "$STORE/versions" -maxdepth 1 -name '.*' 2>/dev/null)" ] &&
		[ -z "$(find "$STORE/cache" -name "*-$1-*.part" 2>/dev/null)" ]
}
