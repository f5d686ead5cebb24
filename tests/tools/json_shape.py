#!/usr/bin/env python3
"""One JSON shape (docs/design.md §12): what a command printed on stdout with --json is exactly
one JSON object with "ok" (a bool, true exactly when the exit status is 0), "message" (a
string, not empty when it failed) and, when it failed, "reason", an id of the table
(tb323fu-mesa/common/reasons.def). Prints what is wrong; exit 1 when something is.

usage: json_shape.py TOP FILE STATUS [FILE STATUS]…   (with more than one file, one line each:
"N ok" or "N " and what is wrong, N counting the files from 1)"""
import json
import os
import re
import sys

ROW = re.compile(r'^REASON\(\w+, "([a-z-]+)"', re.M)


def problems_of(ids, path, status):
    """What is wrong with the output in path of a command that exited with status, with the
    text it is about."""
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return ["stdout is not UTF-8"]
    if not text.endswith("\n") or text.count("\n") != 1:
        return ["stdout is not one line: %r" % text[:300]]
    try:
        d = json.loads(text)
    except ValueError as e:
        return ["stdout is not one JSON document (%s): %r" % (e, text[:300])]
    problems = []
    if not isinstance(d, dict):
        problems.append("not an object")
    else:
        if not isinstance(d.get("ok"), bool):
            problems.append("no bool ok")
        elif d["ok"] != (status == 0):
            problems.append("ok is %s with exit status %d" % (d["ok"], status))
        if not isinstance(d.get("message"), str):
            problems.append("no string message")
        elif status and not d["message"]:
            problems.append("a failure with an empty message")
        if status:
            if d.get("reason") not in ids:
                problems.append("reason %r is not an id of the table" % d.get("reason"))
        elif d.get("reason"):
            problems.append("a success with reason %r" % d["reason"])
    return [p + ": " + text[:300].rstrip() for p in problems]


def main():
    top, pairs = sys.argv[1], sys.argv[2:]
    with open(os.path.join(top, "tb323fu-mesa/common/reasons.def"), encoding="utf-8") as f:
        ids = set(ROW.findall(f.read()))
    if len(pairs) == 2:
        problems = problems_of(ids, pairs[0], int(pairs[1]))
        for p in problems:
            print(p)
        return 1 if problems else 0
    bad = 0
    for n in range(len(pairs) // 2):
        problems = problems_of(ids, pairs[2 * n], int(pairs[2 * n + 1]))
        print("%d %s" % (n + 1, " | ".join(problems).replace("\n", " ") if problems else "ok"))
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
