#!/usr/bin/env python3
"""Prints, for each HEADER, the objects (relative to the build directory, as the Makefile names
them) whose source includes it, directly or through other headers: what `make` must rebuild
when HEADER changes, and nothing else. One line "HEADER OBJECT" each, HEADER as given.
Includes are resolved as the compiler does with -Ictl -Itb323fu-mesa: beside the including
file first. Usage: header-users.py TOP HEADER…"""
import os
import re
import sys

INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def resolve(top, including, name):
    for base in (os.path.dirname(including), os.path.join(top, "ctl"), os.path.join(top, "tb323fu-mesa")):
        p = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(p):
            return p
    return None  # generated (smoke_spirv.h) or a library's


def includes(top, path, seen):
    with open(path, encoding="utf-8", errors="replace") as src:
        for line in src:
            m = INCLUDE.match(line)
            if not m:
                continue
            p = resolve(top, path, m.group(1))
            if p and p not in seen:
                seen.add(p)
                includes(top, p, seen)
    return seen


def object_of(rel):
    stem = os.path.splitext(rel)[0]
    if rel.startswith("tests/unit/"):
        return "obj/tests/%s.o" % os.path.basename(stem)
    return "obj/%s.o" % stem


def main():
    top, wanted = sys.argv[1], sys.argv[2:]
    headers = {os.path.normpath(os.path.join(top, h)): h for h in wanted}
    for d in ("ctl", "tb323fu-mesa", "tests/unit"):
        for dirpath, _, files in sorted(os.walk(os.path.join(top, d))):
            for f in sorted(files):
                if not f.endswith((".c", ".cpp")):
                    continue
                path = os.path.join(dirpath, f)
                found = includes(top, path, set())
                for header, given in headers.items():
                    if header in found:
                        print(given, object_of(os.path.relpath(path, top)))


main()
