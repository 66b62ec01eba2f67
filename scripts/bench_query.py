#!/usr/bin/env python3
"""The query workload's data for scripts/bench (issue 15).

  bench_query.py make TASKS.json DB.sqlite OUTDIR
      DB.sqlite: a table `tasks` of the task file's records (id, title, done as 0/1,
      priority, due, tags as JSON text; an absent field NULL), no index; OUTDIR/counts.recsh and
      OUTDIR/counts.sql: the same 100 counts with two filters each, for recsh (one
      `count` per line) and for sqlite3 (one SELECT count(*) per line, after the tuned
      pragmas and `.timer on`).
  bench_query.py times FILE
      The sum of the seconds of every `time: X s` (recsh --timing) or `Run Time: real X`
      (sqlite3 .timer on) line in FILE, and how many there were: "SECONDS COUNT".
  bench_query.py first FILE N
      The seconds of the Nth timing line alone (1-based).
"""
import json
import os
import random
import re
import sqlite3
import sys

TUNED = "PRAGMA cache_size=-400000;\nPRAGMA journal_mode=MEMORY;\nPRAGMA synchronous=OFF;\n"


def counts(rng):
    """100 pairs of filters, as recsh filters and as SQL conditions."""
    pairs = []
    for _ in range(100):
        done = rng.choice(["false", "true"])
        op = rng.choice(["<", "<=", ">", ">=", "=", "!="])
        value = rng.randint(0, 5)
        # recsh's `!=` also matches an absent value; SQL's `<>` never matches NULL.
        condition = f"(priority IS NULL OR priority <> {value})" if op == "!=" else f"priority {op} {value}"
        pairs.append((f"done={done} priority{op}{value}",
                      f"done={1 if done == 'true' else 0} AND {condition}"))
    return pairs


def make(tasks, db_path, outdir):
    os.makedirs(outdir, exist_ok=True)
    with open(tasks, encoding="utf-8") as f:
        records = json.load(f)
    if os.path.exists(db_path):
        os.remove(db_path)
    db = sqlite3.connect(db_path)
    db.execute("CREATE TABLE tasks(id TEXT PRIMARY KEY, title TEXT, done INTEGER, priority INTEGER, "
               "due TEXT, tags TEXT)")
    db.executemany("INSERT INTO tasks VALUES (?, ?, ?, ?, ?, ?)",
                   ((r["id"], r.get("title"), None if "done" not in r else int(bool(r["done"])), r.get("priority"), r.get("due"),
                     json.dumps(r.get("tags")) if "tags" in r else None) for r in records))
    db.commit()
    db.close()
    pairs = counts(random.Random(1))
    with open(os.path.join(outdir, "counts.recsh"), "w", encoding="utf-8") as f:
        for recsh, _ in pairs:
            f.write(f"count {recsh}\n")
    with open(os.path.join(outdir, "counts.sql"), "w", encoding="utf-8") as f:
        f.write(TUNED + ".timer on\n")
        for _, sql in pairs:
            f.write(f"SELECT count(*) FROM tasks WHERE {sql};\n")
    with open(os.path.join(outdir, "set.sql"), "w", encoding="utf-8") as f:
        f.write(TUNED + ".timer on\nBEGIN;\nUPDATE tasks SET priority=5 WHERE done=0;\nCOMMIT;\n"
                ".timer off\nSELECT count(*) FROM tasks WHERE priority=5;\n")


def timing_lines(path):
    pattern = re.compile(r"^(?:time: ([0-9.]+) s|Run Time: real ([0-9.]+))")
    seconds = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            match = pattern.match(line)
            if match:
                seconds.append(float(match.group(1) or match.group(2)))
    return seconds


def main(argv):
    if len(argv) == 5 and argv[1] == "make":
        make(argv[2], argv[3], argv[4])
        return 0
    if len(argv) == 3 and argv[1] == "times":
        seconds = timing_lines(argv[2])
        print(f"{sum(seconds):.6f} {len(seconds)}")
        return 0
    if len(argv) == 4 and argv[1] == "first":
        seconds = timing_lines(argv[2])
        index = int(argv[3]) - 1
        if index >= len(seconds):
            print(f"bench_query.py: {argv[2]} has {len(seconds)} timing lines", file=sys.stderr)
            return 1
        print(f"{seconds[index]:.6f}")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
