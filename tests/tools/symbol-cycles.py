#!/usr/bin/env python3
"""No two objects call each other (docs/design.md §15): of the build's objects, a pair of which
each uses a symbol the other defines (a call, a function pointer, a table's address) is two
files that are one, or a function in the wrong one of them. Prints each such pair ("A <-> B:
A uses x, y; B uses z"); exit 1 when there is one.

The one exception is a registry and the entries it lists: the objects named in REGISTRIES may
take the address of an entry's table (a data symbol, never a function) and that entry may use
the registry. Usage: symbol-cycles.py TOP OBJDIR (the tree, and the build's obj/ holding ctl/…
and tb323fu-mesa/…; objects whose source is gone from the tree are left out)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layers import built_objects, nm_symbols  # noqa: E402

# The registries: ctl/main.c lists the commands, a group's entry its commands, gputest/suite.c
# the suites.
REGISTRIES = {"ctl/main.o", "ctl/cmd/app.o", "ctl/cmd/flatpak.o", "ctl/gputest/suite.o"}
# nm's letters of code (the rest of the defined ones are data: tables, entries)
CODE = {"T", "t", "W", "w", "i"}


def main():
    top_dir, objdir = sys.argv[1], sys.argv[2]
    # symbol -> {object: nm letter} (main is each program's); object -> its undefined symbols
    defined, used = {}, {}
    objects = list(built_objects(top_dir, objdir))
    symbols = nm_symbols([path for _, _, path in objects])
    for top, src, path in objects:
        name = os.path.join(top, os.path.splitext(src)[0] + ".o")
        used[name] = set()
        for sym, letter in symbols[path]:
            if letter == "U":
                used[name].add(sym)
            elif letter.isupper() or letter in ("w", "v"):
                defined.setdefault(sym, {})[name] = letter
    uses = {}  # (a, b) -> the symbols of b that a uses
    for a, syms in used.items():
        for sym in syms:
            for b in defined.get(sym, {}):
                if b != a:
                    uses.setdefault((a, b), set()).add(sym)

    def lists_only(registry, entry):
        return registry in REGISTRIES and all(defined[s][entry] not in CODE for s in uses[(registry, entry)])

    bad = 0
    for a, b in sorted(uses):
        if a < b and (b, a) in uses and not lists_only(a, b) and not lists_only(b, a):
            print("%s <-> %s: %s uses %s; %s uses %s" % (
                a, b, os.path.basename(a), ", ".join(sorted(uses[(a, b)])),
                os.path.basename(b), ", ".join(sorted(uses[(b, a)]))))
            bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
