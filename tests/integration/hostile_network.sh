#!/bin/sh
# What a hostile release list and server can still try: file:// URLs to this machine's files
# (a root-only file, a FIFO, /dev/zero) from a list fetched over http, files outside an
# offline mirror's directory, a bare CR in an ETag, and what is left in cache/ afterwards.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/httpd-lib.sh"

arch=$(uname -m)
v7=$(standin 2026.10.07) || { not_ok "stand-in release"; done_testing; exit 1; }

WWW="$T/www"
mkdir -p "$WWW" "$T/keys"
: >"$T/token"
start_httpd "$WWW" || { not_ok "the test server starts" "$(cat "$T/httpd.err")"; done_testing; exit 1; }
API="http://127.0.0.1:$PORT"
python3 "$TB_TOP/tests/doubles/fake-github" "$WWW" "$API" <<EOF
mesa-2026.10.07 - $v7
mesa-2026.10.06 flip-byte $v7
EOF
net_config
LIST="$WWW/repos/o/r/releases"
LOG="$WWW/.log"
cp "$LIST" "$T/list.orig"

# asset TAG NAME URL [SIZE]: the list names URL (and SIZE) for that asset.
asset() {
	python3 - "$LIST" "$@" <<'PY'
import json, sys
path, tag, name, url = sys.argv[1:5]
rels = json.load(open(path))
for r in rels:
    if r["tag_name"] != tag:
        continue
    for a in r["assets"]:
        if a["name"] == name:
            a["browser_download_url"] = url
            if len(sys.argv) > 5:
                a["size"] = int(sys.argv[5])
            a["digest"] = None
json.dump(rels, open(path, "w"))
PY
}
restore() { cp "$T/list.orig" "$LIST"; rm -rf "$STORE/cache"; }

# --- a list from the network names a root-only local file as SHA256SUMS
printf 'SECRET-%s\n' "$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')" >"$T/secret"
chmod 0600 "$T/secret"
asset mesa-2026.10.07 SHA256SUMS "file://$T/secret" "$(wc -c <"$T/secret")"
expect_exit 5 "file_url_from_network_list: a file:// SHA256SUMS in an http list is refused (exit 5)" \
	ctl --json mesa download 2026.10.07
check "file_url_from_network_list: the sentence says only a mirror may name local files" \
	has "only a release list from a file:// mirror may name local files" "$T/err"
check "file_url_from_network_list: reason network" test "$(jget reason)" = network
check "file_url_from_network_list: no copy of the secret anywhere in the store" \
	sh -c "! grep -rqs SECRET '$STORE'"
check "file_url_from_network_list: nothing was unpacked" unpacked_nothing 2026.10.07

# --- the tarball as file://, a FIFO and /dev/zero: refused at once, nothing read
restore
asset mesa-2026.10.07 "tb323fu-mesa-2026.10.07-$arch.tar.gz" "file://$v7"
expect_exit 5 "file_url_tarball_from_network_list: a file:// tarball in an http list is refused" \
	ctl mesa download 2026.10.07
check "file_url_tarball_from_network_list: no partial download is left" unpacked_nothing 2026.10.07
restore
mkfifo "$T/fifo"
asset mesa-2026.10.07 SHA256SUMS "file://$T/fifo" 100
expect_exit 5 "fifo_url_from_network_list: a FIFO named by the list does not hang the command" \
	timeout 60 "$CTL" --store "$STORE" mesa download 2026.10.07
restore
asset mesa-2026.10.07 SHA256SUMS "file:///dev/zero" 1000
expect_exit 5 "dev_zero_url_from_network_list: /dev/zero named by the list is not read" \
	ctl mesa download 2026.10.07
restore

# --- what a refused download leaves in cache/: nothing the server sent
expect_exit 4 "refused_download_cleanup: a tarball that does not match its SHA256SUMS is refused" \
	ctl mesa download 2026.10.06
check "refused_download_cleanup: its SHA256SUMS is not kept in the cache" \
	test ! -e "$STORE/cache/mesa-2026.10.06/SHA256SUMS"
fault "/download/mesa-2026.10.07/tb323fu-mesa-2026.10.07-$arch.tar.gz" drop
expect_exit 5 "partial_download_mode: an interrupted download" ctl mesa download 2026.10.07
part=$(find "$STORE/cache" -name '*.part' | head -n 1)
check "partial_download_mode: the partial file is there to resume" test -n "$part"
check "partial_download_mode: and readable by its owner only (0600)" \
	test "$(stat -c %a "$part" 2>/dev/null)" = 600
no_faults
expect_exit 0 "partial_download_mode: the download then completes" ctl mesa download 2026.10.07
check "partial_download_mode: the cached SHA256SUMS is 0600 too" \
	test "$(stat -c %a "$STORE/cache/mesa-2026.10.07/SHA256SUMS")" = 600

# --- SIGTERM during a download: the command says so, and the part fetched is resumable.
# The server sends 1 KiB and then nothing; a stall timeout far beyond the test's bounds keeps
# the download running until the signal, however slow the machine.
net_config "stall_timeout = 3600"
STORE_SAVED=$STORE
STORE=$T/store-sig
fault "/download/mesa-2026.10.07/tb323fu-mesa-2026.10.07-$arch.tar.gz" stall
"$CTL" --store "$STORE" --json mesa download 2026.10.07 >"$T/out" 2>"$T/err" &
writer=$!
i=0
until find "$STORE/cache" -name '*.part' -size +0 2>/dev/null | grep -q . || [ $i -ge 1200 ]; do
	sleep 0.05
	i=$((i + 1))
done
check "signal_during_download: the download had started when the signal came" \
	sh -c "find '$STORE/cache' -name '*.part' -size +0 | grep -q ."
kill -TERM "$writer"
wait "$writer"
rc=$?
check "signal_during_download: SIGTERM exits 1" test "$rc" -eq 1
check "signal_during_download: it says what was interrupted" grep -q "interrupted by SIGTERM while fetching" "$T/err"
check "signal_during_download: reason interrupted" grep -q '"reason":"interrupted"' "$T/out"
no_faults
expect_exit 0 "signal_during_download: the next run completes" ctl --json mesa download 2026.10.07
check "signal_during_download: resuming what was fetched" test "$(jget resumed_from)" -gt 0
STORE=$STORE_SAVED
net_config

# --- a complete and correct .part is used, not fetched again; a complete wrong one is dropped
STORE_SAVED=$STORE
STORE=$T/store-part
mkdir -p "$STORE/cache"
cp "$v7" "$STORE/cache/tb323fu-mesa-2026.10.07-$arch.tar.gz.part"
: >"$LOG"
expect_exit 0 "complete_part_reused: a download with the whole file already in cache/" \
	ctl --json mesa download 2026.10.07
check "complete_part_reused: the tarball was not fetched again" \
	sh -c "! grep -q 'GET /download/mesa-2026.10.07/tb323fu-mesa-2026.10.07-$arch.tar.gz' '$LOG'"
check "complete_part_reused: all of it counts as resumed" test "$(jget resumed_from)" -eq "$(stat -c %s "$v7")"
rm -rf "$STORE"
mkdir -p "$STORE/cache"
head -c "$(stat -c %s "$v7")" /dev/zero >"$STORE/cache/tb323fu-mesa-2026.10.07-$arch.tar.gz.part"
expect_exit 4 "complete_part_wrong: a whole-size .part with other bytes is refused" ctl mesa download 2026.10.07
check "complete_part_wrong: and dropped" test ! -e "$STORE/cache/tb323fu-mesa-2026.10.07-$arch.tar.gz.part"
expect_exit 0 "complete_part_wrong: the next run fetches it afresh" ctl mesa download 2026.10.07
STORE=$STORE_SAVED

# --- a bare CR in an ETag is never sent back as a header
rm -rf "$STORE/cache"
fault /repos/o/r/releases etag '"x"%0dX-Injected:%20yes'
expect_exit 0 "etag_bare_cr: a list with a CR in its ETag is still read" ctl mesa check
no_faults
: >"$WWW/.headers"
expect_exit 0 "etag_bare_cr: the next check" ctl mesa check
check "etag_bare_cr: no header of the server's choosing was sent" \
	sh -c "! grep -qi 'X-Injected' '$WWW/.headers'"
check "etag_bare_cr: the ETag was not replayed at all" sh -c "! grep -qi 'If-None-Match' '$WWW/.headers'"
# --- the answer's "message" carries terminal escapes
cp "$LIST" "$T/list.saved"
printf '{"message":"\\u001b]52;c;aGk=\\u0007\\u001b[2J\\r gone"}' >"$LIST"
rm -rf "$STORE/cache"
expect_exit 5 "terminal_escapes_list_message: a non-list answer is refused" ctl mesa check
check "terminal_escapes_list_message: its message is quoted without a control byte" \
	sh -c "grep -qF '\\x1b]52;c;aGk=' '$T/err' && ! grep -q '[[:cntrl:]]' '$T/err'"
# --- a message that is not UTF-8 (a raw 0xff, an 8-bit CSI), and a long one whose 200 bytes
# end inside a character
printf '{"message":"ab\377cd\23331m"}' >"$LIST"
rm -rf "$STORE/cache"
expect_exit 5 "invalid_utf8_list_message: refused" ctl --json mesa check
check "invalid_utf8_list_message: --json is strict UTF-8 JSON" json_strict "$T/out"
check "invalid_utf8_list_message: the bytes became U+FFFD" \
	test "$(json_strict "$T/out" "'\"ab\\ufffdcd\\ufffd31m\"' in d['message']")" = True
check "invalid_utf8_list_message: people see them as \\xff and \\x9b" \
	grep -qF 'ab\xffcd\x9b31m' "$T/err"
python3 -c 'import sys; open(sys.argv[1], "wb").write(b"{\"message\":\"" + b"a" * 199 + "\u20ac".encode() + b"zz\"}")' "$LIST"
rm -rf "$STORE/cache"
expect_exit 5 "message_cut_in_a_character: refused" ctl --json --progress json mesa check
check "message_cut_in_a_character: --json is strict UTF-8 JSON" json_strict "$T/out"
check "message_cut_in_a_character: --progress json lines are too" json_strict --lines "$T/err"
check "message_cut_in_a_character: cut before the character, not inside it" \
	test "$(json_strict "$T/out" "'(\"' + 'a' * 199 + '\")' in d['message']")" = True
cp "$T/list.saved" "$LIST"
stop_httpd

# --- an offline mirror names only regular files inside its own directory
MIRROR="$T/mirror"
mkdir -p "$MIRROR"
python3 "$TB_TOP/tests/doubles/fake-github" "$MIRROR" "file://$MIRROR" <<EOF
mesa-2026.10.07 - $v7
EOF
LIST="$MIRROR/repos/o/r/releases"
cp "$LIST" "$T/list.orig"
STORE="$T/store-mirror"
API="file://$MIRROR"
net_config
asset mesa-2026.10.07 SHA256SUMS "file://$T/secret" "$(wc -c <"$T/secret")"
expect_exit 5 "mirror_file_outside: a mirror naming a file outside its directory is refused" \
	ctl mesa download 2026.10.07
check "mirror_file_outside: the sentence says where it lies" has "outside the mirror's directory" "$T/err"
restore
ln -s "$T/secret" "$MIRROR/download/mesa-2026.10.07/leak"
asset mesa-2026.10.07 SHA256SUMS "file://$MIRROR/download/mesa-2026.10.07/leak" "$(wc -c <"$T/secret")"
expect_exit 5 "mirror_link_outside: a link inside the mirror to a file outside is refused" \
	ctl mesa download 2026.10.07
check "mirror_link_outside: no copy of the secret" sh -c "! grep -rqs SECRET '$STORE'"
restore
mkfifo "$MIRROR/download/mesa-2026.10.07/pipe"
asset mesa-2026.10.07 SHA256SUMS "file://$MIRROR/download/mesa-2026.10.07/pipe" 100
expect_exit 5 "mirror_fifo: a FIFO inside the mirror is refused at once" \
	timeout 60 "$CTL" --store "$STORE" mesa download 2026.10.07
check "mirror_fifo: it says it is not a regular file" has "not a regular file" "$T/err"
restore
expect_exit 0 "mirror_regular_files: the mirror's own files still install" ctl mesa download 2026.10.07

done_testing
