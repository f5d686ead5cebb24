#!/usr/bin/env python3
"""The rows of reasons (tb323fu-mesa/common/reasons.def, from which common/reasons.h makes the
enum and the typed names TB_R_X and common/reasons.c the table) against docs/design.md §9:
every row's id is in §9's list and every id of that list has a row; no two rows have one name,
and no two rows are the same id with the same exit code. A failure is raised by its row (ctl/base/error.h), so the
compiler checks the ids the code names; what it cannot see is checked here: tb_fail_code takes
an exit code passed on from an earlier failure, never one spelled (TB_EFAIL).
Prints each mismatch; exit 1 when there is one. Usage: reason-ids.py TOP; reason-ids.py
--table TOP prints the table (each id, then its exit codes) for the tests' JSON checks."""
import os
import re
import sys

CODES = {"TB_OK": 0, "TB_EFAIL": 1, "TB_EUSAGE": 2, "TB_EBUSY": 3, "TB_EVERIFY": 4, "TB_ENET": 5, "TB_ESMOKE": 6,
         "TB_ECANNOT_RUN": 126, "TB_ENOT_FOUND": 127}
ROW = re.compile(r'^REASON\((\w+), "([a-z-]+)", (TB_\w+), TB_RC_\w+\)$', re.M)
# a line of the .def that is neither a row nor a comment: a row the pattern above would miss
STRAY = re.compile(r'^(?!REASON\(\w+, "[a-z-]+", TB_\w+, TB_RC_\w+\)$)(?!/\*| \*)(.+)$', re.M)
DEF = "tb323fu-mesa/common/reasons.def"
KEBAB = re.compile(r"^[a-z]+(?:-[a-z]+)*$")
# tb_fail_code(e, CODE, …) with an exit code spelled where one passed on belongs.
SPELLED_CODE = re.compile(r"\btb_fail_code\(\s*[^,()]+,\s*(TB_E\w+)\s*,")


def read(top, rel):
    with open(os.path.join(top, rel), encoding="utf-8") as f:
        return f.read()


def rows(top):
    """[(TB_R_NAME, id, exit code)] in the table's order."""
    return [("TB_R_" + name, rid, CODES[code]) for name, rid, code in ROW.findall(read(top, DEF))]


def documented(top):
    text = read(top, "docs/design.md")
    start = text.index("Every failing JSON object carries `reason`, one of:")
    end = text.index("A `failed` record", start)
    listed = re.sub(r"\([^()]*\)", "", text[start:end])  # what a parenthesis explains is not listed
    return {w for w in re.findall(r"`([^`]+)`", listed) if KEBAB.match(w) and w != "reason"}


def spelled_codes(top):
    for part in ("ctl", "tb323fu-mesa"):
        for d, _, files in sorted(os.walk(os.path.join(top, part))):
            for f in sorted(files):
                if f.endswith((".c", ".cpp")):
                    path = os.path.join(d, f)
                    text = read(top, os.path.relpath(path, top))
                    for m in SPELLED_CODE.finditer(text):
                        yield os.path.relpath(path, top), text.count("\n", 0, m.start()) + 1, m.group(1)


def main():
    if sys.argv[1] == "--table":
        codes = {}
        for _, rid, code in rows(sys.argv[2]):
            codes.setdefault(rid, set()).add(code)
        for rid, c in sorted(codes.items()):
            print(rid, *sorted(c))
        return
    top = sys.argv[1]
    table = rows(top)
    bad = ["common/reasons.def: %r is not a row REASON(NAME, \"id\", TB_E…, TB_RC_…)" % line
           for line in STRAY.findall(read(top, DEF))]
    names = [name for name, _, _ in table]
    for name in sorted({n for n in names if names.count(n) > 1}):
        bad.append("common/reasons.def: %s has more than one row" % name)
    pairs = {}
    for name, rid, code in table:
        if (rid, code) in pairs:
            bad.append('common/reasons.def: %s and %s are both "%s" with exit code %d' % (pairs[(rid, code)], name, rid, code))
        pairs.setdefault((rid, code), name)
    ids, docs = {rid for _, rid, _ in table}, documented(top)
    for rid in sorted(ids - docs):
        bad.append("docs/design.md §9: the table's \"%s\" is not documented" % rid)
    for rid in sorted(docs - ids):
        bad.append("docs/design.md §9: \"%s\" is documented but not in the table" % rid)
    for rel, line, code in spelled_codes(top):
        bad.append("%s:%d: tb_fail_code with %s spelled; raise the reason itself (tb_fail)" % (rel, line, code))
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
