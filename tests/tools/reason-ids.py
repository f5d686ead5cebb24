#!/usr/bin/env python3
"""The rows of reasons (tb323fu-mesa/common/reasons.def, from which common/reasons.h makes the
enum and the typed names TB_R_X and common/reasons.c the table) against docs/design.md §9:
every row's id is in §9's list and every id of that list has a row; no two rows have one name,
and no two rows are the same id with the same exit code. A failure is raised by its row (ctl/base/error.h), so the
compiler checks the ids the code names and the table gives the exit code. What it cannot see is
checked here: the catch-all stays rare: of the failure sites (each call of tb_fail,
tb_fail_errno and tb_fail_errno_as in ctl/ and tb323fu-mesa/, and of the launcher's fail), at most one in ten names
TB_R_FAILED; both counts are printed.
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
# A call of a function that raises a failure, and where its reason is among its arguments;
# fail is the launcher's (tb323fu-mesa/), a name other parts use for helpers of their own.
RAISE = re.compile(r"(?<![\w.>])(tb_fail_errno_as|tb_fail_errno|tb_fail|fail)\(")
REASON_ARG = {"tb_fail": 1, "tb_fail_errno": 1, "tb_fail_errno_as": 1, "fail": 0}
CATCH_ALL = re.compile(r"\bTB_R_FAILED\b")


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


def sources(top):
    """(path relative to top, text) of each C source of ctl/ and tb323fu-mesa/."""
    for part in ("ctl", "tb323fu-mesa"):
        for d, _, files in sorted(os.walk(os.path.join(top, part))):
            for f in sorted(files):
                if f.endswith((".c", ".cpp")):
                    rel = os.path.relpath(os.path.join(d, f), top)
                    yield rel, read(top, rel)


def arguments(text, at):
    """The top-level arguments of the call whose "(" ends just before at, as written."""
    args, depth, start, i, quoted = [], 0, at, at, False
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                args.append(text[start:i])
                return args
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(text[start:i])
            start = i + 1
        i += 1
    return args


def failure_sites(top):
    """[(path, line, the reason argument as written)] of every call that raises a failure."""
    sites = []
    for rel, text in sources(top):
        # comments blanked, lines kept
        text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)
        for m in RAISE.finditer(text):
            name = m.group(1)
            if name == "fail" and not rel.startswith("tb323fu-mesa/"):
                continue
            line_start = text.rfind("\n", 0, m.start()) + 1
            if text[line_start:m.start()].lstrip().startswith("#define"):
                continue
            args = arguments(text, m.end())
            reason = args[REASON_ARG[name]].strip() if len(args) > REASON_ARG[name] else ""
            sites.append((rel, text.count("\n", 0, m.start()) + 1, reason))
    return sites


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
    sites = failure_sites(top)
    catch_all = [(rel, line) for rel, line, reason in sites if CATCH_ALL.search(reason)]
    print("# failure sites: %d, naming the catch-all TB_R_FAILED: %d" % (len(sites), len(catch_all)))
    if len(catch_all) * 10 > len(sites):
        bad.append("TB_R_FAILED is named at %d of %d failure sites, more than 1 in 10; give the new ones "
                   "their specific reasons (docs/design.md §9); one is %s:%d" % (len(catch_all), len(sites), *catch_all[-1]))
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
