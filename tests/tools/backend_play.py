#!/usr/bin/env python3
"""Plays the Open Device Helper's backend against tb323fu-ctl-mesa, with only the calls and
JSON fields of docs/helper-backend.md: check -> notes -> download -> install -> on -> boot-tick
-> keep -> rollback. It reads each command's --progress json lines as they come, and while the
download waits at the test server's gate it polls `status --json` from a second process.

usage: backend_play.py CTL_MESA STORE GATE_FILE NEW_VERSION OLD_VERSION

Prints one "ok NAME" or "not ok NAME: DETAIL" line per check.
"""
import json
import os
import subprocess
import sys
import threading
import time

CTL, STORE, GATE, NEW, OLD = sys.argv[1:6]


def say(good, name, detail=""):
    print(("ok " if good else "not ok ") + name + ("" if good else ": " + str(detail)[:600]),
          flush=True)


def status():
    out = subprocess.run([CTL, "--store", STORE, "--json", "status"], capture_output=True, text=True)
    return json.loads(out.stdout)


def run(args, env=None, poll=None):
    """Runs one call; returns (exit code, stdout object, progress lines, what poll saw)."""
    p = subprocess.Popen([CTL, "--store", STORE, "--json", "--progress", "json"] + args,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, **(env or {})))
    lines, bad = [], []

    def reader():
        for line in p.stderr:  # as they come
            try:
                lines.append(json.loads(line))
            except ValueError:
                bad.append(line)

    t = threading.Thread(target=reader)
    t.start()
    seen = poll(p) if poll else None
    out = p.stdout.read()
    rc = p.wait()
    t.join()
    name = args[0]
    try:
        obj = json.loads(out)
    except ValueError:
        obj = {}
        say(False, name + ": stdout is one JSON object", out)
    say(not bad, name + ": every progress line is JSON", bad)
    say(all(isinstance(l.get("op"), str) and isinstance(l.get("percent"), int) for l in lines),
        name + ": every progress line has op and percent", lines[:3])
    pct = [l.get("percent", -1) for l in lines]
    say(pct == sorted(pct) and all(0 <= x <= 100 for x in pct),
        name + ": percent never goes down", pct)
    last = lines[-1] if lines else {}
    want = {"op": "finished", "operation": name, "ok": rc == 0, "code": rc,
            "reason": obj.get("reason", ""), "message": obj.get("message")}
    say(all(last.get(k) == v for k, v in want.items()),
        name + ": the last line is finished with operation, ok, code, reason and message",
        (last, want))
    say(last.get("percent") == 100, name + ": it ends at 100", last)
    return rc, obj, lines, seen


def expect(name, cond, detail=""):
    say(bool(cond), name, detail)


# check: what the channel offers, with the notes' address, date and size
rc, o, _, _ = run(["check"])
expect("check: offers the new version", rc == 0 and o.get("available") == NEW and o.get("newer"), o)
expect("check: notes_url, published_at and size", o.get("notes_url", "").endswith("mesa-" + NEW)
       and o.get("published_at") and o.get("size", 0) > 0, o)
size = o.get("size")

# notes
rc, o, _, _ = run(["notes"])
expect("notes: the release's Markdown, url, date and size",
       rc == 0 and o.get("version") == NEW and "notes of mesa-" + NEW in o.get("notes", "")
       and o.get("url", "").endswith("mesa-" + NEW) and o.get("published_at") and o.get("size") == size, o)


def watch_download(p):
    """Polls status from a second process until it shows the running download."""
    seen = None
    for _ in range(3000):
        s = status()
        if s.get("op") == "download" and s.get("state") == "downloading" and s.get("progress", 0) > 0:
            seen = s
            break
        if p.poll() is not None:
            break
        time.sleep(0.1)
    open(GATE, "w").close()
    return seen


rc, o, lines, seen = run(["download"], poll=watch_download)
expect("download: ok", rc == 0 and o.get("version") == NEW, o)
expect("status from a second process shows op download, state downloading and its progress",
       seen is not None, seen)
expect("the progress it showed is the one the events gave (between the first and last percent)",
       seen is not None and lines and lines[0]["percent"] <= seen["progress"] <= 100, (seen, lines[:2]))
expect("download: the events named the steps downloading and verifying",
       {"downloading", "verifying"} <= {l.get("step") for l in lines if l.get("op") == "step"}, lines[:5])
s = status()
expect("status after the download: ready, downloaded, nothing running, its message kept",
       s["state"] == "ready" and s["downloaded"] == NEW and s["op"] == "" and s["progress"] == 0
       and s["message"] == o.get("message"), s)

rc, o, lines, _ = run(["install"])
expect("install: ok, with its smoke tests", rc == 0 and o.get("version") == NEW and o.get("smoke"), o)
expect("install: the smoke tests came as events within the command's percent",
       any(l.get("op") == "smoke" for l in lines) and
       any(l.get("op") == "step" and l.get("step") == "smoke-testing" for l in lines), lines[:4])
s = status()
expect("status after install: installed new, previous old, idle",
       (s["installed"], s["previous"], s["state"]) == (NEW, OLD, "idle"), s)

rc, o, _, _ = run(["on"])
s = status()
expect("on: enabled, on trial", rc == 0 and s["enabled"] and s["trial"] == NEW and s["state"] == "trial", s)

rc, o, _, _ = run(["boot-tick"], env={"TB323FU_BOOT_ID": "backend-boot-1"})
s = status()
expect("boot-tick: one start counted", rc == 0 and s["tries"] == 1 and s["max_tries"] >= 1, s)

rc, o, _, _ = run(["keep"])
s = status()
expect("keep: no trial left, still enabled", rc == 0 and s["trial"] == "" and s["enabled"] and s["state"] == "idle", s)

rc, o, _, _ = run(["rollback"])
s = status()
expect("rollback: old current again, new kept as previous",
       rc == 0 and (s["installed"], s["previous"]) == (OLD, NEW), s)
expect("status: message is rollback's sentence, no operation running",
       s["message"] == o.get("message") and s["op"] == "" and s["failed_reason_id"] == "", s)
