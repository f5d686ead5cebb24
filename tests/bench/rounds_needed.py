#!/usr/bin/env python3
"""How many rounds bench needs to tell a real 10 % difference from this machine's noise.

usage: rounds_needed.py BENCH.json [BENCH.json …]

Reads `bench --json` results of the same driver on both sides (the stand-in release: any
difference is noise), takes each round's whole log ratio (the mean over the figures present in
every round, as bench does), and estimates its spread robustly (1.4826 * the median absolute
deviation). Then, with that spread, it simulates bench's own procedure (Wilcoxon's signed-rank
95 % interval, the 3 % noise floor; docs/design.md §10) on a true ratio of 1.10 for 6, 7, …
rounds, 200 runs each from a fixed seed, and prints the fewest rounds that say "faster" in at
least 80 % of them, and the largest spread for which the default 10 rounds do.
"""
import json
import math
import random
import sys

FLOOR = math.log(1.03)


def critical(n):
    # the exact null distribution of the signed-rank sum up to 60 pairs, the normal
    # approximation beyond (as ctl/gputest/bench_stats.c)
    if n > 60:
        c = math.floor(n * (n + 1) / 4 - 1.959963984540054 * math.sqrt(n * (n + 1) * (2 * n + 1) / 24) - 0.5)
        return c if c >= 0 else -1
    m = n * (n + 1) // 2
    p = [1.0] + [0.0] * m
    for r in range(1, n + 1):
        for s in range(m, -1, -1):
            p[s] = (p[s] + (p[s - r] if s >= r else 0)) / 2
    c, cum = -1, 0.0
    for s in range(m + 1):
        cum += p[s]
        if cum > 0.025:
            break
        c = s
    return c


def power(n, sigma, runs, rng):
    """How many of runs simulated benches of n rounds say faster for a true 1.10."""
    c = critical(n)
    return sum(verdict([math.log(1.10) + rng.gauss(0, sigma) for _ in range(n)], c) == "faster"
               for _ in range(runs))


def verdict(logs, c):
    w = sorted((logs[i] + logs[j]) / 2 for i in range(len(logs)) for j in range(i, len(logs)))
    lo, hi = w[c], w[len(w) - 1 - c]
    return "faster" if lo > FLOOR else "slower" if hi < -FLOOR else "same"


def round_logs(d):
    figs = [f for f in d["figures"] if f.get("rounds_compared") == d["rounds"] or "rounds_compared" not in f]
    out = []
    for r in range(d["rounds"]):
        ls = []
        for f in figs:
            s, t = f["store"]["values"], f["distribution"]["values"]
            if r < len(s) and r < len(t) and s[r] > 0 and t[r] > 0:
                v = math.log(s[r] / t[r])
                ls.append(v if f["higher_is_better"] else -v)
        if ls:
            out.append(sum(ls) / len(ls))
    return out


def main():
    logs = []
    for path in sys.argv[1:]:
        with open(path) as f:
            logs += round_logs(json.load(f))
    if len(logs) < 3:
        sys.exit("rounds_needed: fewer than 3 rounds to measure the noise from")
    med = sorted(logs)[len(logs) // 2]
    mad = sorted(abs(x - med) for x in logs)[len(logs) // 2]
    sigma = 1.4826 * mad
    print("rounds measured: %d; per-round whole ratios: %s" % (len(logs), " ".join("%.3f" % math.exp(x) for x in logs)))
    print("noise (robust sd of the per-round log ratio): %.3f" % sigma)
    rng = random.Random(43)
    runs = 200
    # the fewest rounds: doubling, then halving the gap (power grows with the rounds)
    lo, hi = 5, 6
    while power(hi, sigma, runs, rng) < 0.8 * runs:
        lo, hi = hi, hi * 2
        if hi > 5000:
            print("rounds needed for a real 10 % difference: more than 5000")
            return
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if power(mid, sigma, runs, rng) >= 0.8 * runs:
            hi = mid
        else:
            lo = mid
    print("rounds needed for a real 10 %% difference (faster in 80 %% of %d simulated runs): about %d" % (runs, hi))
    # and the noise the default of 10 rounds handles
    top = 0.0
    for k in range(1, 41):
        sd = k * 0.005
        if power(10, sd, runs, rng) >= 0.8 * runs:
            top = sd
    print("10 rounds tell a real 10 %% difference (80 %% of runs) while the noise stays at or below about %.3f" % top)

if __name__ == "__main__":
    main()
