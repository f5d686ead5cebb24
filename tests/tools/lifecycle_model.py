#!/usr/bin/env python3
"""Model-based test of the store's life cycle (docs/design.md §12).

usage: lifecycle_model.py WORKDIR   (run by tests/integration/lifecycle_model.sh)

A small reference model of the life cycle, written from docs/design.md, and a driver that
runs random histories of 20-40 operations against the real tb323fu-ctl: install-local of
stand-in versions and of hostile tarballs, install, download from the loopback server (with
faults), on, off, keep, rollback, boot-tick with new and repeated boot ids, remove, verify,
verify --repair, smoke failures, damage to a file. After every step `status --json` and
`list --json` must equal the model (the store's marks of §12 included: a rollback marks the
version left and clears the one gone back to, a failed smoke test and an expired trial mark
theirs, an install clears its version's mark, all in the same commit) and the invariants
must hold.

In some histories a writing command is killed (SIGKILL) at a point of its work: the model
says which of the writer's named points (TB323FU_TEST_PAUSE, docs/design.md §14) the command
passes, the seed picks one, the writer stops there and writes the point's name into a FIFO,
and only then is it killed, so every kill lands where it was meant to, whatever the machine's
speed. Once the next writer ran, the store must be exactly what the commit rule says for that
point: the old state before anything is visible, the unpacked version not yet current between
the rename into versions/ and the commit, the new state from the journal on.

Environment: LIFECYCLE_SEED (default: random, printed), LIFECYCLE_RUNS (histories, default
300), LIFECYCLE_KILLS (histories with a kill, default 100), LIFECYCLE_JOBS (default 2),
LIFECYCLE_REPLAY (a JSON file of a shrunk history to run alone). Regression cases in
tests/integration/lifecycle_cases/*.json run first. A generated kill is a number in [0, 1) that picks
among the points the command reaches; a played (and a shrunk, replayed) one names its point:
{"op": "off", "kill": "journal"}. Output: TAP lines.
"""
import copy
import glob
import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import time
import traceback
import queue
from concurrent.futures import ThreadPoolExecutor

TOP = os.environ["TB_TOP"]
BIN = os.environ["TB_BIN"]
CTL = os.path.join(BIN, "tb323fu-ctl")
MESA = os.path.join(BIN, "tb323fu-mesa")
VERSIONS = ["2026.1.1", "2026.2.1", "2026.3.1", "2026.4.1"]
MAX_TRIES = 2
KEEP = 3
NOBODY = "1999.1.1"  # a version never marked: `forget` of it only takes the lock


def vkey(v):
    return tuple(int(x) for x in v.split("."))


class Failure(Exception):
    pass


class Unreached(Failure):
    """A writer ended without stopping at the point it was to be killed at."""


# The writer's named points (ctl/base/testhook.h), in the order a command passes them.
BEFORE_VISIBLE = ("locked", "downloaded", "unpacking", "unpacked", "version-files")
UNPACKED = ("placed", "smoke-tested")  # the new version in versions/, nothing committed
COMMITTING = ("journal", "renaming", "renamed")
BEFORE_PRUNE = COMMITTING + ("committed",)
POINT_ORDER = BEFORE_VISIBLE + UNPACKED + BEFORE_PRUNE + ("removing",)


def answered_by_state(op, old):
    """A store that is not there: only the commands that bring something in make one; the
    others say so before any lock (ctl/cli/cli_state_first.c)."""
    return not old.exists and op["op"] not in ("install-local", "hostile", "download")


def before_lock(op, old):
    """Said before any lock: no store there (above), or an install or remove of a version the
    store does not hold, the argument's error (docs/design.md §3, Pins)."""
    return answered_by_state(op, old) or (op["op"] in ("install", "remove") and op.get("v") not in old.versions)


def unchanged(op, old):
    """The writers that find nothing to change and commit nothing (lc_is_off, lc_is_on,
    lc_is_current)."""
    kind, v = op["op"], op.get("v")
    return {
        "off": not old.enabled and not old.trial,
        "on": old.current is not None and old.enabled and old.failed != old.current,
        "install": v == old.current and old.failed != v and v in old.versions
        and not old.versions[v]["damaged"],
    }.get(kind, False)


def reached_points(op, old, new, want):
    """The points the command of op passes, by the model: old and new are the states before
    and after it, want its exit code."""
    kind, v = op["op"], op.get("v")
    if before_lock(op, old):
        return []  # said before the lock is taken
    pts = ["locked"]
    whole = v in old.versions and not old.versions[v]["damaged"]
    fetches = not op.get("fault") or v in old.parts
    acquires = kind == "install-local" or (kind == "download" and not whole and fetches)
    if kind == "download" and acquires:
        pts.append("downloaded")
    if acquires:
        pts += ["unpacking", "unpacked", "version-files", "placed"]
    present = v in old.versions  # install-local repairs it, never switches to it (nor tests it)
    if kind == "install-local" and op.get("smoke") and not present:
        pts.append("smoke-tested")
    commits = {"install-local": want in (0, 6) and not present, "install": want in (0, 6), "on": want == 0,
               "off": True, "rollback": want == 0, "newboot": new.boot != old.boot,
               "boot-tick": new.boot != old.boot}.get(kind, False) and not unchanged(op, old)
    if commits:
        pts += list(COMMITTING)
    if commits and kind in ("install", "install-local") and want == 0:
        pts.append("committed")
    if kind == "remove" and want == 0:
        pts.append("removing")
    return pts


def state_after_kill(op, point, old, new):
    """What the store holds for the model once the next writer finished what a kill at point
    left (docs/design.md §12, Commit)."""
    # from the end of the transfer until the tree is in place, the download stays in cache/
    downloaded = op["op"] == "download" and point in ("downloaded", "unpacking", "unpacked", "version-files", "placed")
    if point in BEFORE_VISIBLE:
        c = copy.deepcopy(old)
        if downloaded:
            c.parts.add(op["v"])
        return c
    if point in UNPACKED:
        mid = copy.deepcopy(old)
        if downloaded:
            mid.parts.add(op["v"])
        v = op["v"]
        mid.add(v)
        mid.versions[v]["damaged"] = False
        if point == "smoke-tested":  # its result is written before anything is decided
            mid.versions[v]["smoke"] = new.versions[v]["smoke"]
        return mid
    c = copy.deepcopy(new)
    if point in BEFORE_PRUNE and op["op"] in ("install", "install-local"):
        for v, entry in old.versions.items():  # not pruned yet
            c.versions.setdefault(v, copy.deepcopy(entry))
    return c


# ---------------------------------------------------------------- the model (docs/design.md §12)

class Model:
    def __init__(self):
        self.versions = {}  # version -> {"damaged": bool, "smoke": "pass"|"fail"|"none"}
        self.current = self.previous = None
        self.enabled = False
        self.exists = False  # the store: made by the commands that bring something in
        self.trial = None
        self.tries = 0
        self.max = 0
        self.failed = None
        self.boot = None
        self.parts = set()  # versions whose download lies whole in cache/ (a kill after it)
        self.marked = {}  # version -> reason id: what the store remembers (§12)

    def ready(self):
        for v in sorted(self.versions, key=vkey, reverse=True):
            if v not in (self.current, self.previous, self.failed) and v not in self.marked:
                return v
        return None

    def state(self):
        if self.enabled and self.trial and self.trial == self.current:
            return "trial"
        return "ready" if self.ready() else "idle"

    def start_trial(self, boot):
        self.trial, self.tries, self.max, self.boot = self.current, 0, MAX_TRIES, boot

    def end_trial(self):
        self.trial, self.tries = None, 0

    def add(self, v):
        self.versions.setdefault(v, {"damaged": False, "smoke": "none"})

    def prune(self):
        order = sorted(self.versions, key=vkey, reverse=True)
        kept = len(order)
        for v in reversed(order):
            if kept <= KEEP:
                break
            if v in (self.current, self.previous):
                continue
            if self.current and vkey(v) > vkey(self.current):
                continue
            del self.versions[v]
            kept -= 1

    # transitions: each returns the exit code the command must give
    def install(self, v, smoke, smoke_fails, boot):
        if v not in self.versions:
            return 1
        if self.versions[v]["damaged"]:
            return 4
        if v == self.current and self.failed != v:
            return 0  # already current: nothing changes
        if smoke:
            self.versions[v]["smoke"] = "fail" if smoke_fails else "pass"
            if smoke_fails:
                self.failed = v
                self.marked[v] = "smoke-failed"
                return 6
        prev = self.previous if self.current == v else self.current
        self.current, self.previous = v, prev
        self.failed = None
        self.marked.pop(v, None)  # installed: the mark goes in the same commit
        if self.enabled:
            self.start_trial(boot)
        else:
            self.end_trial()
        self.prune()
        return 0

    def install_local(self, v, smoke, smoke_fails, boot):
        if v in self.versions:  # repaired when damaged, never switched to
            self.versions[v]["damaged"] = False
            return 0
        self.add(v)
        return self.install(v, smoke, smoke_fails, boot)

    def on(self, boot):
        if not self.current:
            return 1
        if not self.enabled:
            self.enabled = True
            self.start_trial(boot)
        if self.failed == self.current:
            self.failed = None
        return 0

    def off(self):
        self.enabled = False
        self.end_trial()
        return 0

    def keep(self):
        self.end_trial()
        return 0

    def rollback(self, boot):
        if not self.previous:
            return 1
        if self.versions[self.previous]["damaged"]:
            return 4  # verified before switching: nothing changes
        self.marked.pop(self.previous, None)  # gone back to on purpose
        if self.current:
            self.marked[self.current] = "rolled-back"
        self.current, self.previous = self.previous, self.current
        if self.enabled:
            self.start_trial(boot)
        else:
            self.end_trial()
        return 0

    def boot_tick(self, boot):
        if not self.enabled or not self.trial or boot == self.boot:
            return 0
        if self.tries >= self.max:
            self.enabled = False
            self.failed = self.trial
            self.marked[self.trial] = "trial-expired"
            self.end_trial()
        else:
            self.tries += 1
        self.boot = boot
        return 0

    def remove(self, v):
        if v not in self.versions or v in (self.current, self.previous):
            return 1
        del self.versions[v]
        return 0

    def verify(self, v):
        if v not in self.versions:
            return 1
        return 4 if self.versions[v]["damaged"] else 0

    def repair(self, v):
        if v not in self.versions:
            return 1
        if self.versions[v]["damaged"]:
            self.parts.discard(v)  # fetched anew, through the same partial download
        self.versions[v]["damaged"] = False
        return 0

    def download(self, v, fault):
        if v in self.versions and not self.versions[v]["damaged"]:
            return 0  # whole already: nothing is fetched
        if fault and v not in self.parts:  # a partial download of the whole size is only hashed
            return 5
        self.parts.discard(v)
        self.add(v)
        self.versions[v]["damaged"] = False
        return 0

    # what the commands must print
    def status(self):
        return {
            "installed": self.current or "", "previous": self.previous or "",
            "downloaded": self.ready() or "", "ready": self.ready() or "", "enabled": self.enabled,
            "session": "off" if not self.enabled else "trial" if self.state() == "trial" else "on",
            "trial": self.trial or "", "tries": self.tries,
            "max_tries": self.max if self.trial else MAX_TRIES,
            "failed": self.failed or "", "state": self.state(),
            "drivers": ["vulkan", "opencl"] if self.current else [],
        }

    def listing(self):
        return [(v, v == self.current, v == self.previous, self.versions[v]["smoke"])
                for v in sorted(self.versions, key=vkey, reverse=True)]


# ---------------------------------------------------------------- one history against the tool

class History:
    def __init__(self, work, idx, server, releases):
        self.dir = os.path.join(work, "h%d" % idx)
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.store = os.path.join(self.dir, "store")
        self.fail_flag = os.path.join(self.dir, "smoke-fails")
        self.server = server
        self.rel = releases
        self.conf = os.path.join(self.dir, "mesa.conf")
        with open(self.conf, "w") as f:
            f.write("max_tries = %d\nkeep_versions = %d\nsource = github:o/r\napi_url = %s\n"
                    "connect_timeout = 5\nstall_timeout = 2\nstall_speed = 1024\n"
                    % (MAX_TRIES, KEEP, server["api"] if server else "http://127.0.0.1:9"))
        self.m = Model()
        self.boot_n = 0
        self.boot = "boot-0"
        self.steps = 0
        self.landed = {}  # point -> kills that landed there
        self.unlocked = 0  # kills on a command said before any lock: nothing to kill
        self.log = []

    def env(self):
        e = dict(os.environ)
        e.update({"TB323FU_MESA_CONFIG": self.conf, "TB323FU_BOOT_ID": self.boot,
                  "TB323FU_MESA_SMOKE": self.rel["fake_smoke"], "FAKE_SMOKE_FAIL": self.fail_flag})
        for k in ("TB323FU_MESA_DIR", "VK_DRIVER_FILES", "VK_ICD_FILENAMES", "OCL_ICD_VENDORS",
                  "RUSTICL_ENABLE"):
            e.pop(k, None)
        return e

    def ctl(self, *args):
        p = subprocess.run([CTL, "--store", self.store, "--json", "mesa"] + list(args),
                           env=self.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        return p.returncode, p.stdout, p.stderr

    def expect(self, want, args, got):
        rc, out, err = got
        if rc != want:
            raise Failure("`%s` exited %d, the model says %d: %s %s" % (" ".join(args), rc, want,
                                                                     out.strip()[:300], err.strip()[:300]))

    # -------------------------------------------------------- observing the store

    def observe(self):
        rc, out, err = self.ctl("status")
        if rc:
            raise Failure("status exited %d: %s" % (rc, err.strip()))
        st = json.loads(out)
        rc, out, err = self.ctl("list")
        if rc:
            raise Failure("list exited %d: %s" % (rc, err.strip()))
        ls = [(v["version"], v["current"], v["previous"], v["smoke"]) for v in json.loads(out)["versions"]]
        for v in json.loads(out)["versions"]:
            if v["drivers"] != ["vulkan", "opencl"]:
                raise Failure("list: drivers of %s are %r" % (v["version"], v["drivers"]))
        return st, ls

    def compare(self, model, st, ls):
        want = model.status()
        diffs = ["%s: store %r, model %r" % (k, st.get(k), w) for k, w in want.items() if st.get(k) != w]
        if bool(st.get("failed_reason")) != bool(model.failed):
            diffs.append("failed_reason: %r with failed %r" % (st.get("failed_reason"), model.failed))
        if ls != model.listing():
            diffs.append("list: store %r, model %r" % (ls, model.listing()))
        marked = sorted((k["version"], k["reason"]) for k in st.get("marked", []))
        if marked != sorted(model.marked.items()):
            diffs.append("marked: store %r, model %r" % (marked, sorted(model.marked.items())))
        return diffs

    def invariants(self, st, launcher):
        r = self.store
        real = os.path.realpath(r)
        cur, enabled = st["installed"], st["enabled"]
        for link in ("current", "previous"):
            p = os.path.join(r, link)
            if os.path.islink(p) and not os.path.isfile(os.path.join(p, "MANIFEST")):
                raise Failure("%s points at no whole version (%s)" % (link, os.readlink(p)))
        cenv = os.path.join(r, "env", "current.env")
        text = open(cenv).read() if os.path.exists(cenv) else None
        if bool(cur) != (text is not None):
            raise Failure("env/current.env %s while installed is %r" % ("exists" if text else "is missing", cur))
        conf = open(os.path.join(r, "env.conf")).read() if os.path.exists(os.path.join(r, "env.conf")) else ""
        if conf != (text if enabled and cur else ""):
            raise Failure("env.conf disagrees with enabled=%s: %r" % (enabled, conf[:200]))
        # flatpak.conf (docs/design.md §17): written by the same commits; empty while off, and
        # here always, as no version of the model's store is exported to Flatpak
        fconf = os.path.join(r, "flatpak.conf")
        if os.path.exists(os.path.join(r, "state")) and cur and not os.path.isfile(fconf):
            raise Failure("flatpak.conf is missing after a commit")
        if os.path.exists(fconf) and open(fconf).read() != "":
            raise Failure("flatpak.conf names an extension that was never exported: %r" % open(fconf).read()[:200])
        icd = os.path.join(r, "icd", "turnip.json")
        if cur:
            lib = json.load(open(icd))["ICD"]["library_path"]
            if lib != os.path.join(real, "current", "lib", "libvk.so"):
                raise Failure("icd/turnip.json names %s" % lib)
            if os.path.realpath(lib) != os.path.join(real, "versions", cur, "lib", "libvk.so"):
                raise Failure("icd/turnip.json reaches %s, not %s" % (os.path.realpath(lib), cur))
        elif os.path.exists(icd):
            raise Failure("icd/turnip.json without a current version")
        if st["trial"] and (st["trial"] != cur or not enabled):
            raise Failure("trial %r while current %r, enabled %s" % (st["trial"], cur, enabled))
        left = [n for n in os.listdir(os.path.join(r, "versions")) if n.startswith(".")] if os.path.isdir(os.path.join(r, "versions")) else []
        for d in ("", "env", "icd", "icd/opencl"):
            dd = os.path.join(r, d)
            if os.path.isdir(dd):
                left += [os.path.join(d, n) for n in os.listdir(dd) if ".tmp" in n or n == ".journal"]
        if left:
            raise Failure("left in the store: %s" % left)
        if launcher:
            p = subprocess.run([MESA, "--store", r, "env", "--format", "json"], env=self.env(),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if not cur:
                if p.returncode != 1:
                    raise Failure("tb323fu-mesa env with nothing installed exited %d" % p.returncode)
                return
            if p.returncode:
                raise Failure("tb323fu-mesa env exited %d: %s" % (p.returncode, p.stderr.strip()))
            if "libvk.so" not in open(icd).read() or os.path.join(real, "icd", "turnip.json") not in p.stdout:
                raise Failure("tb323fu-mesa env does not select the store's current: %s" % p.stdout[:300])

    def check(self, model, launcher):
        st, ls = self.observe()
        diffs = self.compare(model, st, ls)
        if diffs:
            raise Failure("; ".join(diffs))
        self.invariants(st, launcher)

    # -------------------------------------------------------- operations

    def run_op(self, op):
        """Runs one operation (a dict); returns the args it ran, for messages."""
        kind = op["op"]
        m = self.m
        if kind == "damage":
            v = op["v"]
            if v not in m.versions:
                return ["damage", v, "(absent)"]
            with open(os.path.join(self.store, "versions", v, "lib", "libvk.so"), "ab") as f:
                f.write(b"\0")
            m.versions[v]["damaged"] = True
            return ["damage", v]
        if kind == "smoke-fails":
            open(self.fail_flag, "w").close()
            return ["smoke-fails"]
        if kind == "smoke-passes":
            if os.path.exists(self.fail_flag):
                os.unlink(self.fail_flag)
            return ["smoke-passes"]
        args, want = self.args_and_model(op, m)
        self.expect(want, args, self.ctl(*args))
        if kind == "download" and op.get("fault"):
            self.clear_fault()
        return args

    def args_and_model(self, op, m):
        """The command line of op, and the exit code the model gives (m is advanced)."""
        kind, v = op["op"], op.get("v")
        if kind == "newboot":
            self.boot_n += 1
            self.boot = "boot-%d" % self.boot_n
            kind = "boot-tick"
        smoke = op.get("smoke", False)
        fails = os.path.exists(self.fail_flag)
        flags = [] if smoke else ["--no-smoke"]
        if kind in ("install-local", "hostile", "download"):
            m.exists = True  # even when refused: the writer made the store to lock it
        if kind == "install-local":
            return ["install-local", self.rel["good"][v]] + flags, m.install_local(v, smoke, fails, self.boot)
        if kind == "hostile":
            return ["install-local", self.rel["hostile"][op["which"]], "--no-smoke"], 4
        if kind == "install":
            return ["install", v] + flags, m.install(v, smoke, fails, self.boot)
        if kind == "download":
            if op.get("fault"):
                self.set_fault(v, op["fault"])
            return ["download", v], m.download(v, op.get("fault"))
        if kind == "repair":
            return ["verify", v, "--repair"], m.repair(v)
        if kind == "verify":
            return ["verify", v], m.verify(v)
        if kind == "remove":
            return ["remove", v], m.remove(v)
        if kind == "on":
            return ["on"], m.on(self.boot)
        if kind == "off":
            return ["off"], m.off()
        if kind == "keep":
            return ["keep"], m.keep()
        if kind == "rollback":
            return ["rollback"], m.rollback(self.boot)
        if kind == "boot-tick":
            return ["boot-tick"], m.boot_tick(self.boot)
        raise ValueError(kind)

    def fault_path(self, v):
        return "/download/mesa-%s/%s" % (v, os.path.basename(self.rel["good"][v]))

    def set_fault(self, v, fault):
        with open(os.path.join(self.server["www"], ".faults"), "w") as f:
            f.write("%s %s\n" % (self.fault_path(v), fault))

    def clear_fault(self):
        try:
            os.unlink(os.path.join(self.server["www"], ".faults"))
        except FileNotFoundError:
            pass

    def kill_point(self, op, old, new, want):
        pts = reached_points(op, old, new, want)
        if isinstance(op["kill"], str):  # a played or shrunk history names its point
            if op["kill"] not in pts:
                raise Unreached("`%s` does not pass %s here (only %s)" % (op["op"], op["kill"], ", ".join(pts)))
            return op["kill"]
        if not 0 <= op["kill"] < 1:
            raise ValueError("a generated kill is a fraction in [0, 1), not %r" % op["kill"])
        return pts[int(op["kill"] * len(pts))]

    def run_to_point(self, args, point):
        """Starts args stopped at point; returns it there (the FIFO said so), or raises."""
        fifo = os.path.join(self.dir, "pause")
        if os.path.lexists(fifo):
            os.unlink(fifo)
        os.mkfifo(fifo, 0o600)
        rfd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        env = self.env()
        env["TB323FU_TEST_PAUSE"] = "%s:%s" % (point, fifo)
        errs = open(os.path.join(self.dir, "killed.err"), "w+")
        p = subprocess.Popen([CTL, "--store", self.store, "--json", "mesa"] + args, env=env,
                             stdout=subprocess.DEVNULL, stderr=errs)
        pidfd = os.pidfd_open(p.pid)
        said = b""
        try:
            # the writer's line, or its end; the bound only keeps a hung writer from hanging the run
            deadline = time.monotonic() + 600
            while not said.endswith(b"\n") and time.monotonic() < deadline:
                ready, _, _ = select.select([rfd, pidfd], [], [], deadline - time.monotonic())
                if rfd in ready:
                    said += os.read(rfd, 256)
                elif pidfd in ready:
                    break
            if said.decode(errors="replace").strip() != point:
                p.kill()
                rc = p.wait()
                errs.seek(0)
                raise Unreached("`%s` ended (exit %s) without stopping at %s: %s" % (
                    " ".join(args), rc, point, errs.read().strip()[:300]))
            p.send_signal(signal.SIGKILL)
            p.wait()
        finally:
            errs.close()
            os.close(pidfd)
            os.close(rfd)
            os.unlink(fifo)

    def killed(self, op, args, old, new, want):
        """Runs args, SIGKILLs it at a point it passes; once the next writer ran, the store must
        be what the commit rule says for that point. Returns the op as played."""
        point = self.kill_point(op, old, new, want)
        played = dict(op, kill=point)
        self.log[-1] = played
        self.run_to_point(args, point)
        if op["op"] == "download" and op.get("fault"):
            self.clear_fault()
        self.landed[point] = self.landed.get(point, 0) + 1
        # the next command completes the store
        rc2, _, err = self.ctl("forget", NOBODY)
        if rc2 != 0:
            raise Failure("the writer after a kill at %s exited %d: %s" % (point, rc2, err.strip()))
        st, ls = self.observe()
        want_state = state_after_kill(op, point, old, new)
        diffs = self.compare(want_state, st, ls)
        if diffs:
            raise Failure("after a kill of `%s` at %s the store is not what the commit rule says: %s"
                          % (" ".join(args), point, "; ".join(diffs)))
        self.m = want_state
        self.invariants(st, True)

    def play(self, op, launcher):
        self.log.append(op)
        if op.get("kill") is not None and before_lock(op, self.m):
            self.log[-1] = dict(op, kill=None)  # said before any lock: nothing to kill
            self.unlocked += 1
            self.run_op(op)
        elif op.get("kill") is not None:
            old = copy.deepcopy(self.m)
            args, want = self.args_and_model(op, self.m)
            new, self.m = self.m, old
            self.killed(op, args, old, new, want)
        else:
            self.run_op(op)
        self.steps += 1
        self.check(self.m, launcher)


# ---------------------------------------------------------------- random histories

def random_history(rng, kill, real):
    ops = []
    n = rng.randint(20, 40)
    kill_at = rng.randrange(n) if kill else -1
    for i in range(n):
        r = rng.random()
        v = rng.choice(VERSIONS)
        if r < 0.22:
            op = {"op": "install-local", "v": v, "smoke": rng.random() < 0.4}
        elif r < 0.27:
            op = {"op": "hostile", "which": rng.choice(["flipped", "renamed", "nosums"])}
        elif r < 0.33:
            op = {"op": "install", "v": v, "smoke": rng.random() < 0.3}
        elif r < 0.40:
            op = {"op": "download", "v": v, "fault": rng.choice([None, None, "drop", "status 503"])}
        elif r < 0.48:
            op = {"op": "on"}
        elif r < 0.53:
            op = {"op": "off"}
        elif r < 0.58:
            op = {"op": "keep"}
        elif r < 0.65:
            op = {"op": "rollback"}
        elif r < 0.72:
            op = {"op": "newboot"}
        elif r < 0.76:
            op = {"op": "boot-tick"}
        elif r < 0.81:
            op = {"op": "remove", "v": v}
        elif r < 0.85:
            op = {"op": "verify", "v": v}
        elif r < 0.88:
            op = {"op": "repair", "v": v}
        elif r < 0.93:
            op = {"op": "damage", "v": v}
        elif r < 0.965:
            op = {"op": "smoke-fails"}
        else:
            op = {"op": "smoke-passes"}
        if i == kill_at:
            op = rng.choice([
                {"op": "install-local", "v": v, "smoke": rng.random() < 0.5},
                {"op": "download", "v": v},
                {"op": "rollback"}, {"op": "on"}, {"op": "off"}, {"op": "newboot"},
                {"op": "remove", "v": v}, {"op": "install", "v": v}])
            # which of the points it passes: a fraction in [0, 1) (rounding could give 1.0)
            op["kill"] = int(rng.random() * 10000) / 10000
        ops.append(op)
    return ops


def run_history(work, idx, ops, server, releases):
    """(None or the failure, the history); h.log holds the operations as played."""
    h = History(work, idx, server, releases)
    h.unreached = False
    try:
        for i, op in enumerate(ops):
            h.play(op, i % 8 == 0)
        return None, h
    except Unreached as f:
        h.unreached = True
        return str(f), h
    except Failure as f:
        return str(f), h
    except Exception:
        return traceback.format_exc(), h
    finally:
        shutil.rmtree(h.dir, ignore_errors=True)


def still_fails(work, ops, server, releases):
    err, h = run_history(work, 999, ops, server, releases)
    # a kill whose point the shorter history no longer passes is another question
    return err if err and not h.unreached else None


def shrink(work, played, server, releases):
    """Drops operations while the history still fails: first without its kill, else with the
    kill kept at the point it was played at (played: the operations up to the failure)."""
    ops = [dict(o) for o in played]
    for o in ops:
        o.pop("kill", None)
    err = still_fails(work, ops, server, releases)
    if not err:
        ops = [dict(o) for o in played]
        err = still_fails(work, ops, server, releases)
    if not err:
        return None, None
    i = 0
    while i < len(ops):
        trial = ops[:i] + ops[i + 1:]
        e2 = still_fails(work, trial, server, releases)
        if e2:
            ops, err = trial, e2
        else:
            i += 1
    return ops, err


def main():
    work = sys.argv[1]
    releases = json.load(open(os.path.join(work, "releases.json")))
    server = json.load(open(os.path.join(work, "server.json")))
    seed = int(os.environ.get("LIFECYCLE_SEED") or random.SystemRandom().randrange(1 << 31))
    runs = int(os.environ.get("LIFECYCLE_RUNS", "300"))
    kills = int(os.environ.get("LIFECYCLE_KILLS", str(min(100, runs))))
    jobs = int(os.environ.get("LIFECYCLE_JOBS", "2"))
    print("# lifecycle model: seed %d, %d histories, %d with a kill (LIFECYCLE_SEED=%d to repeat)"
          % (seed, runs, kills, seed), flush=True)
    n = 0
    failed = 0

    cases = sorted(glob.glob(os.path.join(TOP, "tests", "integration", "lifecycle_cases", "*.json")))
    if os.environ.get("LIFECYCLE_REPLAY"):
        cases = [os.environ["LIFECYCLE_REPLAY"]]
    for case in cases:
        err, h = run_history(work, 0, json.load(open(case)), server[0], releases)
        n += 1
        if err:
            failed += 1
            print("not ok %d - regression case %s\n#   %s" % (n, os.path.basename(case), err.replace("\n", "\n#   ")))
        else:
            print("ok %d - regression case %s (%d steps)" % (n, os.path.basename(case), h.steps))
    if os.environ.get("LIFECYCLE_REPLAY"):
        print("1..%d" % n)
        return 1 if failed else 0

    rng = random.Random(seed)
    histories = [random_history(rng, i < kills, False) for i in range(runs)]
    steps = 0
    landed = {}
    unlocked = 0
    bad = []
    servers = queue.Queue()
    for s in server:
        servers.put(s)

    def one(item):
        s = servers.get()  # a server's faults belong to one history at a time
        try:
            return run_history(work, item[0], item[1], s, releases)
        finally:
            servers.put(s)

    with ThreadPoolExecutor(max_workers=min(jobs, len(server))) as pool:
        for i, (err, h) in enumerate(pool.map(one, list(enumerate(histories)))):
            steps += h.steps
            for point, k in h.landed.items():
                landed[point] = landed.get(point, 0) + k
            unlocked += h.unlocked
            if err:
                bad.append((i, err, h.log))
    n += 1
    if bad:
        failed += 1
        i, err, played = bad[0]
        print("not ok %d - %d of %d random histories match the model (history %d: %s)"
              % (n, runs - len(bad), runs, i, err.replace("\n", " ")[:2000]))
        small, serr = shrink(work, played, server[0], releases)
        if small:
            out = os.path.join(work, "..", "lifecycle-failure-%d.json" % seed)
            with open(out, "w") as f:
                json.dump(small, f, indent=0)
            print("#   shrunk to %d operations (%s): %s" % (len(small), serr[:500], json.dumps(small)))
            print("#   keep it as a regression case: cp %s tests/integration/lifecycle_cases/" % os.path.abspath(out))
        else:
            print("#   (it did not fail again alone; not shrunk) %s" % json.dumps(played))
    else:
        print("ok %d - %d random histories (%d steps) match the model and keep the invariants" % (n, runs, steps))
    n += 1
    # every kill stops its writer at a point first, so every one lands: the count is exact
    kills_landed = sum(landed.values())
    at = ", ".join("%s %d" % (p, landed[p]) for p in sorted(landed, key=POINT_ORDER.index))
    if bad:
        print("not ok %d - kills: a history failed (above)" % n)
        failed += 1
    elif kills_landed + unlocked == kills:
        print("ok %d - all %d kills landed at their point (%s), %d fell on a command said before any lock (no store, or a version it does not hold); each time the next command completed the store as the commit rule says" % (n, kills_landed, at, unlocked))
    else:
        print("not ok %d - %d kills landed, %d histories have one" % (n, kills_landed, kills))
        failed += 1
    print("# lifecycle model: seed %d, %d histories, %d steps, %d kills landed" % (seed, runs, steps, kills_landed))
    print("# kills landed at each point: %s" % (at or "none"))
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
