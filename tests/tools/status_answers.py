#!/usr/bin/env python3
"""status_answers.py DIR TRUTH VERSIONS...: checks every answer a reader of `status --json` saved
in DIR (READER.N, with READER.N.rc its exit status and READER.count how many it made): each is
one valid JSON object with exactly the keys of docs/design.md §5, whose versions are ones the
store had (VERSIONS, or "") and whose state is one of §9's; and the current versions each
reader saw, in its order, are ones the store went through in that order (TRUTH: current after
each writer, a line each, with at most one change between two lines). Prints "readers
answers" and each fault."""
import glob
import json
import os
import sys

KEYS = sorted(["available", "base", "cts", "downloaded", "drivers", "enabled", "failed", "failed_reason",
               "failed_reason_id", "installed", "last_bench", "marked", "max_tries", "mesa_version", "message", "ok", "op",
               "previous", "progress", "ready", "session", "session_gl", "session_gl_asked", "stalled_s",
               "state", "store", "takeover_needed", "trial", "tries"])
STATES = {"idle", "checking", "downloading", "verifying", "installing", "smoke-testing",
          "benchmarking", "switching", "keeping", "rolling-back", "ready", "trial"}


def strict(text):
    def no_constant(name):
        raise ValueError("not JSON: " + name)
    return json.loads(text, parse_constant=no_constant)


def dedup(seq):
    return [v for i, v in enumerate(seq) if i == 0 or seq[i - 1] != v]


def in_order(seen, went):
    """seen is went's values in went's order, some left out."""
    it = iter(went)
    return all(any(v == w for w in it) for v in seen)


def main():
    top, truth, versions = sys.argv[1], sys.argv[2], set(sys.argv[3:]) | {""}
    went = dedup(open(truth).read().split("\n")[:-1])
    faults, answers = [], 0
    counts = glob.glob(os.path.join(top, "*.count"))
    for count in counts:
        reader = count[:-len(".count")]
        n = int(open(count).read())
        made = len(glob.glob(reader + ".[0-9]*.rc"))
        if made != n:
            faults.append(f"{reader}: counted {n} answers, {made} saved")
        seen = []
        for i in range(n):
            answers += 1
            rc = open(f"{reader}.{i}.rc").read().strip()
            text = open(f"{reader}.{i}", "rb").read().decode("utf-8")
            try:
                d = strict(text)
                if rc != "0":
                    raise ValueError("exit " + rc)
                if sorted(d) != KEYS:
                    raise ValueError("keys " + ",".join(sorted(d)))
                for key in ("installed", "previous", "trial"):
                    if d[key] not in versions:
                        raise ValueError(f"{key} {d[key]!r}: a version the store never had")
                if d["state"] not in STATES:
                    raise ValueError("state " + d["state"])
                if not 0 <= d["progress"] <= 100:
                    raise ValueError("progress " + str(d["progress"]))
                seen.append(d["installed"])
            except (ValueError, UnicodeDecodeError) as err:
                faults.append(f"{reader}.{i}: {err}: {text[:200]!r}")
        if not in_order(dedup(seen), went):
            faults.append(f"{reader}: saw current go {dedup(seen)}, the store went {went}")
    print(len(counts), answers)
    for f in faults[:20]:
        print(f)
    return 1 if faults or not answers else 0


sys.exit(main())
