#!/usr/bin/env python3
"""The reason ids against their one table (tb323fu-mesa/common/reasons.c): every id the code
names where a failure is recorded is in the table with the exit code it is given there, every
entry of the table is in docs/design.md §9's list and every id of that list in the table.
Prints each mismatch; exit 1 when there is one. Usage: reason-ids.py TOP; reason-ids.py
--table TOP prints the table (id, then its exit codes) for the tests' JSON checks."""
import os
import re
import sys

CODES = {"TB_OK": 0, "TB_EFAIL": 1, "TB_EUSAGE": 2, "TB_EBUSY": 3, "TB_EVERIFY": 4, "TB_ENET": 5, "TB_ESMOKE": 6,
         "TB_ECANNOT_RUN": 126, "TB_ENOT_FOUND": 127}
ROW = re.compile(r'R\(TB_R_\w+, "([a-z-]+)", (TB_\w+), (TB_E\w+|0), TB_RC_\w+\)')
# A failure recorded with an id: tb_fail_why(e, CODE, "id", …), tb_fail_errno_why alike.
WHY = re.compile(r'\btb_fail(?:_errno)?_why\(\s*[^,()]+,\s*(TB_E\w+),\s*"([^"]*)"')
# Ids handed on otherwise: release.c's refuse(e, u, "id", …), state_set_failed(…, "id", …),
# a reason set by hand.
OTHER = re.compile(r'\b(?:refuse\(\s*\w+,\s*\w+,|state_set_failed\([^;]*?,)\s*"([a-z-]+)"|\breason\w*\s*=\s*"([a-z-]+)"')
KEBAB = re.compile(r"^[a-z]+(?:-[a-z]+)*$")
# The ids an error takes from its errno or exit code (ctl/base/error.c).
DERIVED = re.compile(r'(?:tb_error_reason\(const struct tb_error \*e\)|reason_of_errno\(int errnum\))\n\{(.*?)\n\}', re.S)


def table(top):
    with open(os.path.join(top, "tb323fu-mesa/common/reasons.c"), encoding="utf-8") as f:
        return {m.group(1): {CODES[m.group(2)], CODES.get(m.group(3), CODES[m.group(2)])} for m in ROW.finditer(f.read())}


def documented(top):
    with open(os.path.join(top, "docs/design.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("Every failing JSON object carries `reason`, one of:")
    end = text.index("A `failed` record", start)
    listed = re.sub(r"\([^()]*\)", "", text[start:end])  # what a parenthesis explains is not listed
    return {w for w in re.findall(r"`([^`]+)`", listed) if KEBAB.match(w) and w != "reason"}


def uses(top):
    for part in ("ctl", "tb323fu-mesa"):
        for d, _, files in sorted(os.walk(os.path.join(top, part))):
            for f in sorted(files):
                if not f.endswith((".c", ".cpp")):
                    continue
                path = os.path.join(d, f)
                with open(path, encoding="utf-8", errors="replace") as src:
                    text = src.read()
                rel = os.path.relpath(path, top)
                for m in WHY.finditer(text):
                    yield rel, text.count("\n", 0, m.start()) + 1, m.group(2), CODES.get(m.group(1))
                for m in OTHER.finditer(text):
                    yield rel, text.count("\n", 0, m.start()) + 1, m.group(1) or m.group(2), None
                for body in DERIVED.finditer(text):
                    for m in re.finditer(r'return "([a-z-]+)"', body.group(1)):
                        yield rel, text.count("\n", 0, body.start(1) + m.start()) + 1, m.group(1), None


def main():
    if sys.argv[1] == "--table":
        for rid, codes in sorted(table(sys.argv[2]).items()):
            print(rid, *sorted(codes))
        return
    top = sys.argv[1]
    ids, docs = table(top), documented(top)
    bad = 0
    for rel, line, rid, code in uses(top):
        if rid not in ids:
            print("%s:%d: reason \"%s\" is not in the table (tb323fu-mesa/common/reasons.c)" % (rel, line, rid))
            bad += 1
        elif code is not None and code not in ids[rid]:
            print("%s:%d: reason \"%s\" with exit code %d; the table gives %s" % (rel, line, rid, code, sorted(ids[rid])))
            bad += 1
    for rid in sorted(set(ids) - docs):
        print("docs/design.md §9: the table's \"%s\" is not documented" % rid)
        bad += 1
    for rid in sorted(docs - set(ids)):
        print("docs/design.md §9: \"%s\" is documented but not in the table" % rid)
        bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
