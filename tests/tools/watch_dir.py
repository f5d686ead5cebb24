#!/usr/bin/env python3
"""watch_dir.py DIR LOG READY: records every open, read, write, creation and removal in DIR
and its folders (inotify, through the C library: no package needed), one line an event, into
LOG; writes READY once it watches; runs until SIGTERM. A test that plants links to DIR tells
from LOG whether anything reached DIR through them."""
import ctypes
import os
import signal
import struct
import sys

IN_ACCESS, IN_MODIFY, IN_ATTRIB, IN_CLOSE_WRITE = 0x1, 0x2, 0x4, 0x8
IN_OPEN, IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE, IN_DELETE = 0x20, 0x40, 0x80, 0x100, 0x200
WATCHED = IN_ACCESS | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_OPEN | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
NAMES = {IN_ACCESS: "read", IN_MODIFY: "written", IN_ATTRIB: "changed", IN_CLOSE_WRITE: "written",
         IN_OPEN: "opened", IN_MOVED_FROM: "moved away", IN_MOVED_TO: "moved in",
         IN_CREATE: "made", IN_DELETE: "removed"}


def main():
    top, log_path, ready = sys.argv[1:4]
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init()
    if fd < 0:
        sys.exit("inotify_init failed")
    dirs = {}
    for here, subdirs, _ in os.walk(top):
        wd = libc.inotify_add_watch(fd, here.encode(), WATCHED)
        dirs[wd] = here
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with open(log_path, "a", buffering=1) as log:
        with open(ready, "w") as r:
            r.write("watching\n")
        while True:
            data = os.read(fd, 65536)
            at = 0
            while at < len(data):
                wd, mask, _, length = struct.unpack_from("iIII", data, at)
                name = data[at + 16:at + 16 + length].rstrip(b"\0").decode(errors="replace")
                at += 16 + length
                what = ", ".join(n for bit, n in NAMES.items() if mask & bit)
                log.write(f"{os.path.join(dirs.get(wd, '?'), name)}: {what}\n")


if __name__ == "__main__":
    main()
