#!/usr/bin/env python3
"""One JSON shape (docs/design.md §12): what a command printed on stdout with --json is exactly
one JSON object with "ok" (a bool, true exactly when the exit status is 0), "message" (a
string, not empty when it failed) and, when it failed, "reason", an id of the table
(tb323fu-mesa/common/reasons.c). Prints what is wrong; exit 1 when something is.

usage: json_shape.py TOP FILE STATUS"""
import json
import os
import re
import sys

ROW = re.compile(r'R\(TB_R_\w+, "([a-z-]+)"')


def main():
    top, path, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(os.path.join(top, "tb323fu-mesa/common/reasons.c"), encoding="utf-8") as f:
        ids = set(ROW.findall(f.read()))
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        print("stdout is not UTF-8")
        return 1
    if not text.endswith("\n") or text.count("\n") != 1:
        print("stdout is not one line: %r" % text[:300])
        return 1
    try:
        d = json.loads(text)
    except ValueError as e:
        print("stdout is not one JSON document (%s): %r" % (e, text[:300]))
        return 1
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
    for p in problems:
        print(p + ": " + text[:300].rstrip())
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
