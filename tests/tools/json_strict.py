#!/usr/bin/env python3
"""JSON read as strictly as D-Bus and strict parsers read it.

usage: json_strict.py [--lines] FILE|- [EXPR]

Fails (exit 1, the reason on stderr) unless the bytes are valid UTF-8 and JSON without
NaN, Infinity or a lone surrogate escape; --lines: every line is such a document. With EXPR,
prints eval(EXPR) over d (the document; the last line with --lines)."""
import json
import sys


def refuse_constant(name):
    raise ValueError("%s is not JSON" % name)


def no_surrogates(v):
    if isinstance(v, str):
        v.encode("utf-8")  # a lone surrogate cannot be encoded
    elif isinstance(v, list):
        for x in v:
            no_surrogates(x)
    elif isinstance(v, dict):
        for k, x in v.items():
            no_surrogates(k)
            no_surrogates(x)


def strict(text):
    d = json.loads(text, parse_constant=refuse_constant)
    no_surrogates(d)
    return d


def main():
    args = sys.argv[1:]
    lines = bool(args) and args[0] == "--lines"
    if lines:
        args = args[1:]
    if not args or len(args) > 2:
        sys.exit(__doc__)
    raw = sys.stdin.buffer.read() if args[0] == "-" else open(args[0], "rb").read()
    try:
        text = raw.decode("utf-8")
        docs = [strict(l) for l in text.splitlines() if l.strip()] if lines else [strict(text)]
    except (ValueError, UnicodeError) as e:
        sys.exit("not strict JSON: %s" % e)
    if len(args) == 2:
        d = docs[-1] if docs else None
        print(eval(args[1]))


main()
