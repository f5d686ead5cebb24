#!/usr/bin/env python3
"""Checks a download's --progress json lines and the status --json answers polled meanwhile
(tests/integration/progress_live.sh).

usage: progress_check.py EVENTS POLLS PART_BYTES
       progress_check.py poll PID POLLS COMMAND…   (runs COMMAND, status --json, again and
                                                  again while PID lives and twice after)

EVENTS: "SECONDS<TAB>line" for each progress line as it arrived; POLLS: "SECONDS<TAB>answer"
for each status --json answer, on the same clock. PART_BYTES: the size of the partial file the
download left. Prints one "ok"/"not ok" line per check (TAP without numbers) and the figures it
computed; the bounds come from the elapsed times it measured, never from fixed timings.
"""
import itertools
import json
import math
import os
import subprocess
import sys
import time


def read(path):
    out = []
    with open(path) as f:
        for line in f:
            t, _, text = line.rstrip("\n").partition("\t")
            try:
                out.append((float(t), json.loads(text)))
            except ValueError:
                out.append((float(t), None))
    return out


def poll(pid, out, cmd):
    after = 0
    with open(out, "w") as f:
        while after < 2:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                after += 1
            answer = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
            f.write("%.3f\t%s\n" % (time.monotonic(), answer.decode("utf-8", "replace").replace("\n", " ")))
            f.flush()
            time.sleep(0.1)
    return 0


def main():
    if sys.argv[1] == "poll":
        return poll(int(sys.argv[2]), sys.argv[3], sys.argv[4:])
    events, polls, part = read(sys.argv[1]), read(sys.argv[2]), int(sys.argv[3])
    results = []

    def check(name, cond, detail=""):
        results.append(cond)
        print(("ok" if cond else "not ok") + " - " + name + (" (%s)" % detail if detail else ""))

    check("every progress line is one JSON object with op and an integer percent 0-100",
          all(e and isinstance(e.get("percent"), int) and 0 <= e["percent"] <= 100 and "op" in e
              for _, e in events))
    pct = [e["percent"] for _, e in events if e]
    check("the percent never decreases", all(a <= b for a, b in zip(pct, pct[1:])), pct)
    fin = [(t, e) for t, e in events if e and e.get("op") == "finished"]
    downloads = [(t, e) for t, e in events if e and e.get("op") == "download"]
    check("download lines carry done, total and stalled_s",
          downloads and all({"file", "done", "total", "stalled_s", "percent"} <= set(e) for _, e in downloads))
    if not fin or not downloads:
        check("a finished line and download lines", False)
        return 1
    t_end, f = fin[-1]
    check("the failed download ends ok:false, reason network, keeping its last percent",
          f["ok"] is False and f["reason"] == "network" and f["percent"] == downloads[-1][1]["percent"] < 100,
          "finished %s, last download line %s" % (f, downloads[-1][1]))
    check("the last download line says the bytes really in the partial file",
          downloads[-1][1]["done"] == part, "%d in the line, %d in the file" % (downloads[-1][1]["done"], part))
    # the slow part: lines while done grows; the stall: from the last line whose done grew.
    # The tool's own clock is stalled_s; this reader's times may lag on a busy machine, so the
    # bounds on them keep a margin.
    grew = [i for i in range(1, len(downloads)) if downloads[i][1]["done"] > downloads[i - 1][1]["done"]]
    t_first = downloads[0][0]
    t_grow_end = downloads[grew[-1]][0] if grew else t_first
    moving = [e for t, e in downloads if t <= t_grow_end]
    whole_s = t_end - t_first
    check("at most four download lines a second over the whole transfer",
          len(downloads) <= 4 * whole_s + 4, "%d lines in %.1f s" % (len(downloads), whole_s))
    check("while bytes flow, the percent moves", len(set(e["percent"] for e in moving)) >= 3,
          sorted(set(e["percent"] for e in moving)))
    stalled = [(t, e) for t, e in downloads if t > t_grow_end]
    stall_s = t_end - t_grow_end
    secs = [e["stalled_s"] for _, e in stalled]
    top = max(secs) if secs else 0
    check("while nothing arrives: a line for every second without a byte (stalled_s 1, 2, … each seen), "
          "at most two a second",
          top >= 4 and set(range(1, top + 1)) <= set(secs) and len(stalled) <= 2 * (top + 1) + 2 and
          secs == sorted(secs) and all(e["done"] == part for _, e in stalled),
          "stalled_s %s; %.1f s by this reader's clock" % (secs, stall_s))
    # status --json polled meanwhile
    live = [(t, p) for t, p in polls if p and p.get("op") == "download"]
    check("status --json answered with the running download", len(live) >= 3, "%d answers" % len(live))
    prog = [p["progress"] for _, p in live]
    check("its progress never decreases and never passes the lines'",
          prog == sorted(prog) and max(prog) <= max(pct), prog)
    # an answer may come before the first byte is asked for (the release list is read first):
    # checking, then downloading, never back, whenever the polls happen to land
    states = [p["state"] for _, p in live]
    order = {"checking": 0, "downloading": 1}
    check("its state is checking, then downloading",
          all(st in order for st in states) and [order[st] for st in states] == sorted(order[st] for st in states) and
          "downloading" in states,
          [(st, sum(1 for _ in g)) for st, g in itertools.groupby(states)])
    in_stall = [p["stalled_s"] for t, p in live if p["stalled_s"] > 0]
    seen = sorted(set(in_stall))
    check("during the stall its stalled_s follows the lines: a new value every second",
          in_stall == sorted(in_stall) and len(seen) >= min(len(in_stall), top) - 2,
          "%d answers in the stall, values %s, the lines' up to %d" % (len(in_stall), seen, top))
    after = [p for t, p in polls if p and t >= t_end]
    check("once it ended, status says no operation runs and gives its sentence",
          not after or (after[-1]["op"] == "" and after[-1]["stalled_s"] == 0 and "stalled" in after[-1]["message"]),
          after[-1] if after else "no answer after the end")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
