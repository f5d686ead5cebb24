#!/usr/bin/env python3
"""Writes a journal file with systemd's own writer (systemd-journal-remote) from the recorded
crash evidence of tests/fixtures/crashes/ (docs/design.md §18).

usage: crash_journal.py OUT.journal ENTRY [ENTRY…]
       crash_journal.py --fields DIR ENTRY   (each field of the entry into the file DIR/FIELD,
                                             for a test that sends it through the journal's API)
ENTRY is FIXTURE[,FIELD=VALUE…]: FIXTURE a recorded .export entry, or a .txt kernel line (one
kernel entry with that MESSAGE). Every entry's store path /var/lib/tb323fu/mesa becomes
$CRASH_STORE (the test's store, real path); its time becomes $CRASH_USEC (default: now) plus
its position in microseconds; its boot id this machine's. A recorded coredump entry gets the
fields journald adds to what systemd-coredump sends from its service (_UID the crashing
user's, as systemd-coredump drops to that user before it sends; _COMM, _EXE, _SYSTEMD_UNIT,
_SYSTEMD_SLICE, _PID), which tests/tools/crash-record cannot give it. FIELD=VALUE replaces or adds a field
(VALUE @FILE: that file's bytes; FIELD= alone removes it). The export format's binary fields
are written with their new sizes."""
import os, struct, subprocess, sys, time

RECORDED_STORE = b"/var/lib/tb323fu/mesa"


def read_export(data):
    """The entries of an export-format text: a list of [name, value] lists."""
    entries, cur, i = [], [], 0
    while i < len(data):
        nl = data.index(b"\n", i)
        line = data[i:nl]
        if not line:
            if cur:
                entries.append(cur)
            cur, i = [], nl + 1
            continue
        if b"=" in line:
            k, v = line.split(b"=", 1)
            cur.append([k, v])
            i = nl + 1
        else:
            (n,) = struct.unpack("<Q", data[nl + 1:nl + 9])
            cur.append([line, data[nl + 9:nl + 9 + n]])
            i = nl + 9 + n + 1
    if cur:
        entries.append(cur)
    return entries


def write_field(out, k, v):
    if b"\n" in v:
        out += k + b"\n" + struct.pack("<Q", len(v)) + v + b"\n"
    else:
        out += k + b"=" + v + b"\n"
    return out


def main():
    fields_dir = None
    if sys.argv[1] == "--fields":
        fields_dir, specs = sys.argv[2], sys.argv[3:4]
        out_path = None
    else:
        out_path, specs = sys.argv[1], sys.argv[2:]
    store = os.environ.get("CRASH_STORE", "").encode()
    base = int(os.environ.get("CRASH_USEC", str(int(time.time() * 1e6))))
    boot = open("/proc/sys/kernel/random/boot_id").read().strip().replace("-", "").encode()
    blob = b""
    for n, spec in enumerate(specs):
        parts = spec.split(",")
        fixture, overrides = parts[0], parts[1:]
        data = open(fixture, "rb").read()
        if fixture.endswith(".txt"):
            fields = [[b"_TRANSPORT", b"kernel"], [b"SYSLOG_IDENTIFIER", b"kernel"],
                      [b"PRIORITY", b"6"], [b"SYSLOG_FACILITY", b"0"], [b"MESSAGE", data.rstrip(b"\n")]]
        else:
            fields = read_export(data)[0]
        usec = str(base + n).encode()
        fields = [f for f in fields if f[0] not in (b"__REALTIME_TIMESTAMP", b"__MONOTONIC_TIMESTAMP", b"_BOOT_ID")]
        fields = [[b"__REALTIME_TIMESTAMP", usec], [b"_BOOT_ID", boot]] + fields
        for o in overrides:
            k, v = o.split("=", 1)
            k = k.encode()
            fields = [f for f in fields if f[0] != k]
            if v.startswith("@"):
                fields.append([k, open(v[1:], "rb").read()])
            elif v:
                fields.append([k, v.encode()])
        given = dict(fields)
        if fields_dir:
            os.makedirs(fields_dir, exist_ok=True)
            for k, v in fields:
                if not k.startswith(b"_"):
                    with open(os.path.join(fields_dir, k.decode()), "wb") as f:
                        f.write(v.replace(RECORDED_STORE, store) if store else v)
            return
        if not fixture.endswith(".txt") and b"COREDUMP_UID" in given:
            uid = given[b"COREDUMP_UID"]
            named = [o.split("=", 1)[0].encode() for o in overrides]
            fields += [f for f in [[b"_PID", b"3001"], [b"_UID", uid], [b"_GID", uid],
                                   [b"_COMM", b"systemd-coredum"], [b"_EXE", b"/usr/lib/systemd/systemd-coredump"],
                                   [b"_CMDLINE", b"/usr/lib/systemd/systemd-coredump"],
                                   [b"_SYSTEMD_CGROUP", b"/system.slice/system-systemd\\x2dcoredump.slice/systemd-coredump@0-3000-" + uid + b".service"],
                                   [b"_SYSTEMD_UNIT", b"systemd-coredump@0-3000-" + uid + b".service"],
                                   [b"_SYSTEMD_SLICE", b"system-systemd\\x2dcoredump.slice"]]
                       if f[0] not in given and f[0] not in named]
        for k, v in fields:
            if store:
                v = v.replace(RECORDED_STORE, store)
            blob = write_field(blob, k, v)
        blob += b"\n"
    if os.path.exists(out_path):
        os.unlink(out_path)
    p = subprocess.run(["/usr/lib/systemd/systemd-journal-remote", "-o", out_path, "-"], input=blob,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0 or not os.path.exists(out_path):
        sys.stderr.write(p.stdout.decode(errors="replace"))
        sys.exit(1)


main()
