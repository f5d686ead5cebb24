#!/usr/bin/env python3
"""Checks the include direction of docs/design.md §15 over a source tree and prints every
include that goes against it (file:line: the layer, the include); exit 1 when there is one.

  common  <  base  <  store  <  release | gputest  <  flatpak  <  apprules  <  lifecycle  <  helper
          <  bisect | health | crash  <  cli  <  scope | render  <  cmd  <  ctl/main.c

A file of ctl/ includes its own layer or one below it, never another of the same rank (release
and gputest, bisect, health and crash, scope and render do not include each other);
tb323fu-mesa/launcher and tb323fu-mesa/smoke include themselves and common only; common
includes only common. Usage: layers.py TOP"""
import os
import re
import subprocess
import sys

RANK = {"common": 0, "base": 1, "store": 2, "release": 3, "gputest": 3, "flatpak": 4, "apprules": 5,
        "lifecycle": 6, "helper": 7, "bisect": 8, "health": 8, "crash": 8, "cli": 9, "scope": 10, "render": 10,
        "cmd": 11}
INCLUDE = re.compile(r'\s*#\s*include\s+"([a-z]+)/')


def allowed(top, me, them):
    if top == "tb323fu-mesa":
        return them in (me, "common")
    if them in ("launcher", "smoke"):
        return False
    if me == "main":
        return them in RANK
    return them == me or RANK.get(them, 99) < RANK[me]


def layer_of(top, rel):
    if top == "ctl" and rel == "main.c":
        return "main"
    head = rel.split("/")[0]
    return head if head in RANK or head in ("launcher", "smoke") else None


def built_objects(root, objdir):
    """The build's objects of ctl/ and tb323fu-mesa/ whose source is still in the tree at root:
    (top, the source's path below top, the object's path), in a stable order."""
    for top in ("ctl", "tb323fu-mesa"):
        for d, _, files in sorted(os.walk(os.path.join(objdir, top))):
            for f in sorted(files):
                if not f.endswith(".o"):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, os.path.join(objdir, top))[:-2]
                src = next((rel + x for x in (".c", ".cpp") if os.path.exists(os.path.join(root, top, rel + x))), None)
                if src:
                    yield top, src, path


def nm_symbols(paths):
    """Each object's symbols as `nm -P` lists them, {path: [(name, nm letter), …]}: one nm for
    all the objects (one a file took most of the symbol checks' time)."""
    symbols = {path: [] for path in paths}
    if paths:
        out = subprocess.run(["nm", "-P", "-A", *paths], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            path, _, rest = line.partition(": ")
            parts = rest.split()
            if path in symbols and len(parts) >= 2:
                symbols[path].append((parts[0], parts[1]))
    return symbols


def main():
    root = sys.argv[1]
    bad = 0
    for top in ("ctl", "tb323fu-mesa"):
        for d, _, files in sorted(os.walk(os.path.join(root, top))):
            for f in sorted(files):
                if not f.endswith((".c", ".h", ".cpp")):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, os.path.join(root, top))
                me = layer_of(top, rel)
                name = os.path.join(top, rel)
                if me is None:
                    print("%s: outside every layer" % name)
                    bad += 1
                    continue
                with open(path, encoding="utf-8", errors="replace") as src:
                    for n, line in enumerate(src, 1):
                        m = INCLUDE.match(line)
                        if m and not allowed(top, me, m.group(1)):
                            print("%s:%d: %s includes %s" % (name, n, me, line.strip()))
                            bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
