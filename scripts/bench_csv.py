#!/usr/bin/env python3
"""The csv workload's data, its Python peer and its checks for scripts/bench (issue 29).

  bench_csv.py make N OUT.csv OUT.json [--seed S]
      N task records as a CSV file (header id,title,done,priority,due,detail; RFC 4180 as
      Python's csv.writer writes it: CRLF line ends, a cell quoted only when it holds a comma,
      a double quote or a line break, "" for a quote inside) and the same records as a JSON
      array of task objects (an empty cell's field left out), laid out as recsh saves JSON.
      Titles and details from word lists, some with commas, double quotes and non-ASCII
      (café, 東京, 👍🏽); a few details hold a line break. Same N and seed, same bytes.
  bench_csv.py edit IN.csv OUT.csv
      The Python peer of `use @1; set priority 5; save`: csv.reader reads the whole file,
      the first record's priority cell becomes 5, csv.writer writes every row.
  bench_csv.py count IN.csv
      How many records have done=false and priority>=3 (what `count done=false
      priority>=3` must print).
  bench_csv.py check-edit IN.csv RECSH.csv PYTHON.csv MILLER.csv
      recsh's output differs from the input in the first record's priority cell alone and
      every other row's text is byte-identical; Python's reads as the input with that cell
      changed; Miller's (`mlr --csv cat`, which may quote differently) reads as the input.
  bench_csv.py check-set IN.csv OUT.csv | IN.json OUT.json
      After `set priority 5 where done=false`: the table (or the JSON records) is the input
      with every done=false record's priority 5 and nothing else changed; for CSV, every
      row whose priority was not changed is byte-identical.
"""
import csv
import json
import random
import sys

WORDS = ("buy milk eggs bread call mom plan trip fix bike read book write report pay rent "
         "clean kitchen water plants book dentist renew passport send invoice review draft "
         "order parts paint fence walk dog learn swift back up photos update budget").split()
NON_ASCII = ["café", "naïve", "Zürich", "東京", "Åsa", "crème brûlée", "👍🏽", "São Paulo", "Ωmega"]
COLUMNS = ["id", "title", "done", "priority", "due", "detail"]


def phrase(rng, low, high, capital=True):
    words = [rng.choice(NON_ASCII) if rng.random() < 0.06 else rng.choice(WORDS)
             for _ in range(rng.randint(low, high))]
    text = " ".join(words)
    return text[:1].upper() + text[1:] if capital else text


def title(rng):
    text = phrase(rng, 2, 5)
    roll = rng.random()
    if roll < 0.10:  # "Buy milk, eggs"
        text = f"{text}, {phrase(rng, 1, 2, capital=False)}"
    elif roll < 0.15:  # Say "hi"
        text = f'{text} "{rng.choice(WORDS)}"'
    elif roll < 0.17:  # both
        text = f'"{text}", {rng.choice(WORDS)}'
    return text


def detail(rng):
    if rng.random() < 0.3:
        return ""
    text = phrase(rng, 4, 14) + "."
    roll = rng.random()
    if roll < 0.12:
        text = f"{text} Then, {phrase(rng, 2, 6, capital=False)}."
    elif roll < 0.16:
        text = f'{text} She said "{phrase(rng, 1, 3, capital=False)}".'
    elif roll < 0.161:
        text = f"{text}\n{phrase(rng, 2, 6)}."
    return text


def records(n, seed):
    rng = random.Random(seed)
    for number in range(1, n + 1):
        priority = rng.randint(0, 5)
        if number == 1 and priority == 5:
            priority = 2  # the one-cell edit sets it to 5: it must change
        due = "" if rng.random() < 0.3 else \
            f"{rng.randint(2025, 2028)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        yield [f"t{number:06d}", title(rng), rng.choice(["true", "false"]), str(priority), due, detail(rng)]


def as_object(row):
    record = {}
    for name, cell in zip(COLUMNS, row):
        if cell == "":
            continue
        if name == "done":
            record[name] = cell == "true"  # every cell here is true or false
        elif name == "priority":
            record[name] = int(cell)
        else:
            record[name] = cell
    return record


def make(n, csv_path, json_path, seed):
    with open(csv_path, "w", encoding="utf-8", newline="") as out_csv, \
            open(json_path, "w", encoding="utf-8") as out_json:
        writer = csv.writer(out_csv)
        writer.writerow(COLUMNS)
        out_json.write("[")
        for number, row in enumerate(records(n, seed)):
            writer.writerow(row)
            out_json.write(",\n  " if number else "\n  ")
            out_json.write(json.dumps(as_object(row), indent=2, ensure_ascii=False).replace("\n", "\n  "))
        out_json.write("\n]\n" if n else "]\n")


def read_table(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def raw_rows(path):
    """Each row as csv.reader reads it, with the exact text of its line or lines."""
    with open(path, encoding="utf-8", newline="") as f:
        taken = []

        def lines():
            for line in f:
                taken.append(line)
                yield line

        for row in csv.reader(lines()):
            raw = "".join(taken)
            taken.clear()
            yield row, raw


def edit(src, dst):
    with open(src, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    rows[1][rows[0].index("priority")] = "5"
    with open(dst, "w", encoding="utf-8", newline="") as out:
        csv.writer(out).writerows(rows)


def count(path):
    rows = read_table(path)
    done, priority = rows[0].index("done"), rows[0].index("priority")
    return sum(1 for row in rows[1:] if row[done] == "false" and row[priority] != "" and int(row[priority]) >= 3)


def fail(message):
    print(f"bench_csv.py: {message}", file=sys.stderr)
    sys.exit(1)


def check_edit(src, recsh, python, miller):
    source = list(raw_rows(src))
    ours = list(raw_rows(recsh))
    if len(ours) != len(source):
        fail(f"recsh's output has {len(ours) - 1} records, the input {len(source) - 1}")
    column = source[0][0].index("priority")
    differing = [number for number, (a, b) in enumerate(zip(source, ours)) if a[1] != b[1]]
    if differing != [1]:
        shown = ", ".join(str(n) for n in differing[:5])
        fail(f"recsh's output differs from the input in {len(differing)} rows ({shown}), not in row 1 alone")
    expected = list(source[1][0])
    expected[column] = "5"
    if ours[1][0] != expected:
        fail(f"recsh wrote row 1 as {ours[1][0]!r}, expected {expected!r}")
    table = [row for row, _ in source]
    edited = [list(row) for row in table]
    edited[1][column] = "5"
    if read_table(python) != edited:
        fail("python's output does not read as the input with the one cell changed")
    if read_table(miller) != table:
        fail("miller's output does not read as the input")
    print(f"{len(table) - 1} records: recsh changed the one cell and kept every other row's bytes; "
          "python's and miller's tables are as expected", file=sys.stderr)


def check_set(src, out):
    if src.endswith(".json"):
        with open(src, encoding="utf-8") as a, open(out, encoding="utf-8") as b:
            before, after = json.load(a), json.load(b)
        expected = [dict(r, priority=5) if r.get("done") is False else r for r in before]
        if after != expected:
            fail(f"{out}: the records are not the input with priority 5 where done=false")
        changed = sum(1 for a, b in zip(before, expected) if a != b)
        print(f"{changed} JSON records set to priority 5, the rest unchanged", file=sys.stderr)
        return
    source, ours = list(raw_rows(src)), list(raw_rows(out))
    if len(ours) != len(source):
        fail(f"{out} has {len(ours) - 1} records, the input {len(source) - 1}")
    header = source[0][0]
    done, priority = header.index("done"), header.index("priority")
    changed = 0
    for number, ((row, raw), (new_row, new_raw)) in enumerate(zip(source, ours)):
        expected = list(row)
        if number and row[done] == "false":
            expected[priority] = "5"
        if new_row != expected:
            fail(f"{out}: row {number} reads {new_row!r}, expected {expected!r}")
        if expected == row and new_raw != raw:
            fail(f"{out}: row {number} is unchanged but its bytes differ: {raw!r} became {new_raw!r}")
        changed += expected != row
    print(f"{changed} CSV rows set to priority 5, every other row byte-identical", file=sys.stderr)


def main(argv):
    if argv[1:2] == ["make"] and (len(argv) == 5 or len(argv) == 7 and argv[5] == "--seed"):
        make(int(argv[2]), argv[3], argv[4], int(argv[6]) if len(argv) == 7 else 1)
    elif len(argv) == 4 and argv[1] == "edit":
        edit(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == "count":
        print(count(argv[2]))
    elif len(argv) == 6 and argv[1] == "check-edit":
        check_edit(*argv[2:6])
    elif len(argv) == 4 and argv[1] == "check-set":
        check_set(argv[2], argv[3])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
