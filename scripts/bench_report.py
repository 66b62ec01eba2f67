#!/usr/bin/env python3
"""Helpers for scripts/bench: compare JSON outputs, and print the results table.

  bench_report.py json-equal A B   exit 0 when A and B parse to the same data
  bench_report.py report RESULTS   print the table and the goals from scripts/bench's results

RESULTS has one tab-separated line per run:
  workload tool records bytes start end elapsed maxrss_kib user sys extra
(start/end from bash's EPOCHREALTIME, the rest from /usr/bin/time; extra is
recsh-bench's own `key=value` line, or -),
one line per goal:
  goal workload records speedup|memory|atmost|overhead|perbyte|within|stepmem|stepinfo tool target
(overhead: tool's median time / recsh's, at most target; perbyte: the median over the runs
of tool's time per byte of its file / recsh's in the same run, at most target (paired run by
run, so that a slow spell of the machine counts against both); within: recsh's median time /
tool's, at most target; memory: tool's peak RSS / the size of the file that tool's runs read)
(stepmem and stepinfo: tool is "STEPS|BASE" or "STEPS|BASE|SHARE": peak RSS of STEPS
minus BASE over SHARE times the unit count; stepinfo is shown, not judged)
and, for workloads counted in operations rather than bytes:
  unit workload records count name
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
            if fields[0] == "unit":
                _, workload, records, count, name = fields
                group = groups.setdefault((workload, int(records)), new_group(0))
                group["unit"] = (int(count), name)
                continue
            if fields[0] == "goal":
                _, workload, records, kind, tool, target = fields
                group = groups.setdefault((workload, int(records)), new_group(0))
                group["goals"].append((kind, tool, float(target)))
                continue
            workload, tool, records, size, start, end, _elapsed, maxrss, user, sys_, extra = fields
            group = groups.setdefault((workload, int(records)), new_group(int(size)))
            if int(size):
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
                 "rss": int(maxrss) * 1024, "phases": phases, "bytes": int(size)})
    return groups


def new_group(size):
    return {"bytes": size, "tools": OrderedDict(), "goals": [], "unit": None}


def summarize(group):
    rows = OrderedDict()
    for tool, runs in group["tools"].items():
        seconds = [run["seconds"] for run in runs]
        # A tool's own file size (the csv workloads time recsh on a CSV and on its JSON twin);
        # the group's when its runs give none.
        sizes = [run["bytes"] for run in runs if run["bytes"]]
        rows[tool] = {
            "bytes": sizes[-1] if sizes else group["bytes"],
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
        unit = group["unit"]
        width = max([8] + [len(tool) for tool in rows])
        print()
        what = f", {unit[0]:,} {unit[1]}" if unit and unit[1] != "starts" else ""
        print(f"{workload}: {records:,} records, {size / MB:.1f} MB{what}, "
              f"{len(next(iter(rows.values()))['runs'])} runs each (median; min-max)")
        rate = f"k {unit[1]}/s" if unit else "MB/s"
        print(f"  {'tool':<{width}} {'wall s':>7} {'min-max':>15} {rate:>12} {'time/recsh':>10} "
              f"{'cpu s':>6} {'cpu/recsh':>9} {'peak RSS MB':>11} {'RSS/file':>8}")
        for tool, row in rows.items():
            ratio = f"{row['median'] / base['median']:.2f}x" if base and base["median"] > 0 else "-"
            cpu_ratio = f"{row['cpu'] / base['cpu']:.2f}x" if base and base["cpu"] > 0 else "-"
            if row["median"] <= 0:
                throughput = "-"
            elif unit:
                throughput = f"{unit[0] / row['median'] / 1000:.1f}"
            else:
                throughput = f"{row['bytes'] / MB / row['median']:.1f}"
            print(f"  {tool:<{width}} {row['median']:>7.3f} {row['min']:>7.3f}-{row['max']:<7.3f} "
                  f"{throughput:>12} {ratio:>10} {row['cpu']:>6.2f} {cpu_ratio:>9} "
                  f"{row['rss'] / MB:>11.1f} {row['rss'] / row['bytes']:>7.2f}x")
        if base and base["runs"][0]["phases"]:
            print_phases(base["runs"], size)
        for kind, tool, target in group["goals"]:
            ok, text = check(kind, tool, target, rows, size, unit)
            if ok is None:
                print(f"  note        {text}")
                continue
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


def check(kind, tool, target, rows, size, unit):
    if kind in ("stepmem", "stepinfo"):
        steps, base, *share = tool.split("|")
        if steps not in rows or base not in rows or not unit:
            return False, f"{kind} {tool}: no measurement"
        count = unit[0] * (float(share[0]) if share else 1)
        per_step = (statistics.median(r["rss"] for r in rows[steps]["runs"])
                    - statistics.median(r["rss"] for r in rows[base]["runs"])) / count
        what = f"memory per history step ({steps} - {base}) / {count:,.0f}: {per_step:.0f} bytes"
        if kind == "stepinfo":
            return None, what + " (values included; not a goal)"
        return per_step <= target, what + f" (goal <= {target:g} beyond the values)"
    if tool not in rows or "recsh" not in rows and kind != "atmost":
        return False, f"{kind} {tool}: no measurement"
    if kind == "atmost":
        edit = next((name for name in rows if name.endswith("edit phase")
                     and name.split(":")[0] == tool.split(":")[0]), None)
        if edit is None:
            return False, f"{kind} {tool}: no edit phase"
        ratio = rows[tool]["median"] / rows[edit]["median"]
        return ratio <= target, f"{tool} / {edit} time {ratio:.2f}x (goal <= {target:g}x)"
    if kind == "overhead":
        ratio = rows[tool]["median"] / rows["recsh"]["median"]
        return ratio <= target, f"{tool}/recsh time {ratio:.2f}x (goal <= {target:g}x)"
    if kind == "perbyte":
        pairs = list(zip(rows[tool]["runs"], rows["recsh"]["runs"]))
        ratios = [(mine["seconds"] / (mine["bytes"] or 1)) / (theirs["seconds"] / (theirs["bytes"] or 1))
                  for mine, theirs in pairs if theirs["seconds"] > 0]
        if not ratios:
            return False, f"{kind} {tool}: no paired runs"
        ratio = statistics.median(ratios)
        return ratio <= target, (f"{tool}/recsh time per byte {ratio:.2f}x, median of {len(ratios)} "
                                 f"runs paired (goal <= {target:g}x)")
    if kind == "within":
        ratio = rows["recsh"]["median"] / rows[tool]["median"]
        return ratio <= target, f"recsh/{tool} time {ratio:.2f}x (goal <= {target:g}x)"
    if kind == "speedup":
        ratio = rows[tool]["median"] / rows["recsh"]["median"]
        return ratio >= target, f"{tool}/recsh time {ratio:.2f}x (goal >= {target:g}x)"
    if kind == "memory":
        ratio = rows[tool]["rss"] / rows[tool]["bytes"]
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
