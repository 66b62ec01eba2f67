#!/usr/bin/env python3
"""Helpers for scripts/bench's edit workloads (issue 6).

  bench_edits.py make TASKS.json K OUTDIR    the K edits, deterministically, as:
      OUTDIR/edits.tsv        id, field, value per line (the Python driver's input)
      OUTDIR/group.recsh      begin / K `use ID` + `set FIELD VALUE` pairs / end
      OUTDIR/steps.recsh      the same pairs without a group (K undo steps)
      OUTDIR/int-steps.recsh  K steps that each set an integer (priority) on a random record
      OUTDIR/updates.sql      BEGIN; K UPDATEs; COMMIT; (sqlite3 default pragmas)
      OUTDIR/updates-tuned.sql  the same after cache_size, journal_mode=MEMORY, synchronous=OFF
      OUTDIR/tasks.sqlite     a table tasks(id PRIMARY KEY, title, priority) of the records
      OUTDIR/expected.tsv     id, title, priority of every record after the edits
  bench_edits.py apply TASKS.json EDITS.tsv OUT.json
      the Python peer: json.load, apply the edits to the list of dicts (timed:
      prints `edit=SECONDS`), json.dump
  bench_edits.py check-json FILE.json EXPECTED.tsv     exit 0 when the records hold the expected state
  bench_edits.py check-sqlite FILE.sqlite EXPECTED.tsv  the same for the sqlite table

Edits alternate between `title` (a new string, some non-ASCII) and `priority`
(an int 0-5 different from the current one), on records picked at random, so
every edit changes something (none is a no-op).
"""

import json
import os
import random
import sqlite3
import sys
import time

WORDS = ["plan", "review", "ship", "café", "東京", "draft", "fix", "naïve", "report", "call", "👍🏽", "budget"]


def make(tasks_path, count, outdir):
    with open(tasks_path, encoding="utf-8") as f:
        records = json.load(f)
    os.makedirs(outdir, exist_ok=True)
    ids = [r["id"] for r in records]
    state = {r["id"]: [r.get("title", ""), r.get("priority", 0)] for r in records}
    rng = random.Random(6)
    edits = []
    for k in range(count):
        rid = ids[rng.randrange(len(ids))]
        if k % 2 == 0:
            value = f"edit {k} {WORDS[rng.randrange(len(WORDS))]} {WORDS[rng.randrange(len(WORDS))]}"
            state[rid][0] = value
            edits.append((rid, "title", value))
        else:
            current = state[rid][1]
            value = (current + 1 + rng.randrange(5)) % 6
            state[rid][1] = value
            edits.append((rid, "priority", value))
    with open(os.path.join(outdir, "edits.tsv"), "w", encoding="utf-8") as f:
        for rid, field, value in edits:
            f.write(f"{rid}\t{field}\t{value}\n")

    def recsh_lines(f):
        for rid, field, value in edits:
            shown = f'"{value}"' if field == "title" else str(value)
            f.write(f"use {rid}\nset {field} {shown}\n")

    with open(os.path.join(outdir, "group.recsh"), "w", encoding="utf-8") as f:
        f.write("begin edits\n")
        recsh_lines(f)
        f.write("end\n")
    with open(os.path.join(outdir, "steps.recsh"), "w", encoding="utf-8") as f:
        recsh_lines(f)
    # The same number of steps, each setting an integer: values held inline, so the
    # memory such steps take is what a step costs beyond its values.
    priorities = {r["id"]: r.get("priority", 0) for r in records}
    int_rng = random.Random(7)
    with open(os.path.join(outdir, "int-steps.recsh"), "w", encoding="utf-8") as f:
        for _ in range(count):
            rid = ids[int_rng.randrange(len(ids))]
            priorities[rid] = (priorities[rid] + 1 + int_rng.randrange(5)) % 6
            f.write(f"use {rid}\nset priority {priorities[rid]}\n")

    def sql_lines(f):
        f.write("BEGIN;\n")
        for rid, field, value in edits:
            shown = "'" + value.replace("'", "''") + "'" if field == "title" else str(value)
            f.write(f"UPDATE tasks SET {field}={shown} WHERE id='{rid}';\n")
        f.write("COMMIT;\n")

    with open(os.path.join(outdir, "updates.sql"), "w", encoding="utf-8") as f:
        sql_lines(f)
    with open(os.path.join(outdir, "updates-tuned.sql"), "w", encoding="utf-8") as f:
        f.write("PRAGMA cache_size=-400000;\nPRAGMA journal_mode=MEMORY;\nPRAGMA synchronous=OFF;\n")
        sql_lines(f)
    db_path = os.path.join(outdir, "tasks.sqlite")
    if os.path.exists(db_path):
        os.remove(db_path)
    db = sqlite3.connect(db_path)
    db.execute("CREATE TABLE tasks(id TEXT PRIMARY KEY, title TEXT, priority INTEGER)")
    db.executemany("INSERT INTO tasks VALUES (?, ?, ?)",
                   ((r["id"], r.get("title", ""), r.get("priority", 0)) for r in records))
    db.commit()
    db.close()
    with open(os.path.join(outdir, "expected.tsv"), "w", encoding="utf-8") as f:
        for rid in ids:
            f.write(f"{rid}\t{state[rid][0]}\t{state[rid][1]}\n")


def apply(tasks_path, edits_path, out_path):
    with open(tasks_path, encoding="utf-8") as f:
        records = json.load(f)
    start = time.perf_counter()
    by_id = {r["id"]: r for r in records}
    with open(edits_path, encoding="utf-8") as f:
        for line in f:
            rid, field, value = line.rstrip("\n").split("\t")
            record = by_id[rid]
            if field == "priority":
                value = int(value)
            if record.get(field) != value:
                record[field] = value
    elapsed = time.perf_counter() - start
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(records, f, indent=2, ensure_ascii=False)
    print(f"edit={elapsed:.6f}")


def expected(path):
    with open(path, encoding="utf-8") as f:
        return [tuple(line.rstrip("\n").split("\t")) for line in f]


def check_rows(rows, expected_path, what):
    want = expected(expected_path)
    got = [(str(a), str(b), str(c)) for a, b, c in rows]
    if got != want:
        bad = next(i for i, (g, w) in enumerate(zip(got + [None] * len(want), want)) if g != w)
        print(f"{what}: record {bad + 1} is {got[bad] if bad < len(got) else None}, expected {want[bad]}",
              file=sys.stderr)
        return 1
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] == "make":
        make(argv[2], int(argv[3]), argv[4])
        return 0
    if len(argv) == 5 and argv[1] == "apply":
        apply(argv[2], argv[3], argv[4])
        return 0
    if len(argv) == 4 and argv[1] == "check-json":
        with open(argv[2], encoding="utf-8") as f:
            records = json.load(f)
        return check_rows(((r["id"], r.get("title", ""), r.get("priority", 0)) for r in records), argv[3], argv[2])
    if len(argv) == 4 and argv[1] == "check-sqlite":
        db = sqlite3.connect(argv[2])
        rows = db.execute("SELECT id, title, priority FROM tasks ORDER BY rowid").fetchall()
        return check_rows(rows, argv[3], argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
