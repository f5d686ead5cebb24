#!/usr/bin/env python3
"""The layers of docs/design.md §15 as the linker sees them: every symbol an object uses
(a call, a function pointer, a table's address) must be defined in its own layer or below,
as layers.py requires of includes. An entry of ctl/cmd/ named by ctl/cli/ would pass the
include check through a forward declaration; it does not pass this one. Prints each such
use (object: layer uses symbol of layer); exit 1 when there is one. Usage:
symbol-layers.py TOP OBJDIR (the tree, and the build's obj/ holding ctl/… and tb323fu-mesa/…;
objects whose source is gone from the tree are left out)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layers import allowed, built_objects, layer_of, nm_symbols  # noqa: E402

# nm's letters of the symbols an object takes from others (undefined, weak undefined)
UNDEFINED = {"U", "w", "v"}


def main():
    top_dir, objdir = sys.argv[1], sys.argv[2]
    objects = list(built_objects(top_dir, objdir))
    symbols = nm_symbols([path for _, _, path in objects])
    where = {}
    for top, rel, path in objects:
        for sym, letter in symbols[path]:
            if letter not in UNDEFINED and (letter.isupper() or letter == "u"):
                where[sym] = (top, layer_of(top, rel))
    bad = 0
    for top, rel, path in objects:
        me = layer_of(top, rel)
        for sym in sorted({sym for sym, letter in symbols[path] if letter in UNDEFINED}):
            if sym not in where:
                continue  # a library's
            their_top, them = where[sym]
            if them != "common" and (their_top != top or not allowed(top, me, them)):
                print("%s: %s uses %s of %s" % (os.path.join(top, os.path.splitext(rel)[0] + ".o"), me, sym, them))
                bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
