#!/usr/bin/env python3
"""Helpers for scripts/bench: compare JSON outputs, and print the results table.

  bench_report.py json-equal A B   exit 0 when A and B parse to the same data
  bench_report.py report RESULTS   print the table and the goals from scripts/bench's results

RESULTS has one tab-separated line per run:
  workload tool records bytes start end elapsed maxrss_kib user sys extra
(start/end from bash's EPOCHREALTIME, the rest from /usr/bin/time; extra is
recsh-bench's own `key=value` line, or -),
and one line per goal:
  goal workload records speedup|memory tool target
"""

import json
import statistics
import sys
from collections import OrderedDict

MB = 1_000_000


def json_equal(a, b):
    with open(a, encoding="utf-8") as fa, open(b, encoding="utf-8") as fb:
        return json.load(fa) == json.load(fb)


def parse(path):
    groups = OrderedDict()  # (workload, records) -> {"bytes", "tools": {tool: [runs]}, "goals"}
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "goal":
                _, workload, records, kind, tool, target = fields
                group = groups.setdefault((workload, int(records)), new_group(0))
                group["goals"].append((kind, tool, float(target)))
                continue
            workload, tool, records, size, start, end, _elapsed, maxrss, user, sys_, extra = fields
            group = groups.setdefault((workload, int(records)), new_group(int(size)))
            group["bytes"] = int(size)
            phases = {}
            if extra != "-":
                for pair in extra.split():
                    key, _, value = pair.partition("=")
                    try:
                        phases[key] = float(value)
                    except ValueError:
                        pass
            group["tools"].setdefault(tool, []).append(
                {"seconds": float(end) - float(start), "cpu": float(user) + float(sys_),
                 "rss": int(maxrss) * 1024, "phases": phases})
    return groups


def new_group(size):
    return {"bytes": size, "tools": OrderedDict(), "goals": []}


def summarize(group):
    rows = OrderedDict()
    for tool, runs in group["tools"].items():
        seconds = [run["seconds"] for run in runs]
        rows[tool] = {
            "median": statistics.median(seconds),
            "min": min(seconds),
            "max": max(seconds),
            "cpu": statistics.median(run["cpu"] for run in runs),
            "rss": max(run["rss"] for run in runs),
            "runs": runs,
        }
    return rows


def report(path):
    groups = parse(path)
    held = missed = 0
    for (workload, records), group in groups.items():
        size = group["bytes"]
        rows = summarize(group)
        base = rows.get("recsh")
        print()
        print(f"{workload}: {records:,} records, {size / MB:.1f} MB, "
              f"{len(next(iter(rows.values()))['runs'])} runs each (median; min-max)")
        print(f"  {'tool':<8} {'wall s':>7} {'min-max':>13} {'MB/s':>6} {'time/recsh':>10} "
              f"{'cpu s':>6} {'cpu/recsh':>9} {'peak RSS MB':>11} {'RSS/file':>8}")
        for tool, row in rows.items():
            ratio = f"{row['median'] / base['median']:.2f}x" if base else "-"
            cpu_ratio = f"{row['cpu'] / base['cpu']:.2f}x" if base and base["cpu"] else "-"
            print(f"  {tool:<8} {row['median']:>7.3f} {row['min']:>6.3f}-{row['max']:<6.3f} "
                  f"{size / MB / row['median']:>6.1f} {ratio:>10} {row['cpu']:>6.2f} {cpu_ratio:>9} "
                  f"{row['rss'] / MB:>11.1f} {row['rss'] / size:>7.2f}x")
        if base and base["runs"][0]["phases"]:
            print_phases(base["runs"], size)
        for kind, tool, target in group["goals"]:
            ok, text = check(kind, tool, target, rows, size)
            held += ok
            missed += not ok
            print(f"  goal {'held  ' if ok else 'MISSED'} {text}")
    print()
    print(f"goals: {held} held, {missed} missed")


def print_phases(runs, size):
    def median(key):
        return statistics.median(run["phases"].get(key, 0.0) for run in runs)

    read, decode, encode, write = (median(k) for k in ("read", "decode", "encode", "write"))
    load, save = read + decode, encode + write
    print(f"  recsh phases (median s): read {read:.3f}, decode {decode:.3f}, encode {encode:.3f}, "
          f"write+fsync {write:.3f}")
    print(f"  recsh load (read+decode) {size / MB / load:.0f} MB/s, "
          f"save (encode+write) {size / MB / save:.0f} MB/s, "
          f"in-process total {size / MB / (load + save):.0f} MB/s")


def check(kind, tool, target, rows, size):
    if tool not in rows or "recsh" not in rows:
        return False, f"{kind} {tool}: no measurement"
    if kind == "speedup":
        ratio = rows[tool]["median"] / rows["recsh"]["median"]
        return ratio >= target, f"{tool}/recsh time {ratio:.2f}x (goal >= {target:g}x)"
    if kind == "memory":
        ratio = rows[tool]["rss"] / size
        return ratio <= target, f"{tool} peak RSS / file size {ratio:.2f}x (goal <= {target:g}x)"
    return False, f"unknown goal kind {kind}"


def main(argv):
    if len(argv) == 4 and argv[1] == "json-equal":
        return 0 if json_equal(argv[2], argv[3]) else 1
    if len(argv) == 3 and argv[1] == "report":
        report(argv[2])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
