#!/usr/bin/env python3
"""Data for scripts/bench's `kinds` workload: book records of a given byte size, their
schema, and `use`/`set` edits over them.

  bench_kinds.py books BYTES OUT          books (no ids) filling about BYTES, in recsh's layout
  bench_kinds.py schema OUT               a schema for them (key isbn, rules on every field)
  bench_kinds.py patterns OUT             that schema with regular-expression patterns on isbn
                                          and title (checked on every record) and without
                                          them, as OUT and OUT's name with "plain" for "patterns"
  bench_kinds.py edits BOOKS K OUT        K `use ISBN` / `set year N` pairs in one group
  bench_kinds.py title-edits BOOKS K OUT  K `use ISBN` / `set title T` pairs in one group

Generated from a fixed seed, so every run measures the same files.
"""
import json
import random
import sys

WORDS = ("river stone light garden winter silent history of the and night city "
         "machine letters empire ocean north glass memory song fire").split()
NAMES = ("Ada Brian Clara Dennis Edith Frank Grace Hugo Ines Jon Kara Leo Mina Noor "
         "Otto Pia Quinn Rosa Sven Tara").split()
GENRES = ["fiction", "history", "science", "poetry", "computing"]


def book(rng, number):
    record = {
        "isbn": "978-%09d-%d" % (number, number % 10),
        "title": " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6))).capitalize(),
        "year": rng.randint(1900, 2026),
        "authors": [rng.choice(NAMES) + " " + rng.choice(NAMES) + "son" for _ in range(rng.randint(1, 3))],
        "genre": rng.choice(GENRES),
        "read": rng.random() < 0.5,
    }
    if rng.random() < 0.5:
        record["rating"] = rng.choice([1, 2, 3, 3.5, 4, 4.5, 5])
    if rng.random() < 0.3:
        record["publisher"] = {"name": rng.choice(NAMES) + " Press", "city": rng.choice(WORDS).capitalize()}
    return record


def books(target_bytes, out):
    rng = random.Random(1)
    # The file's size as it grows: "[\n" and "\n]\n", then each record as the array
    # lays it out (every line of it indented two more spaces) and the ",\n" between two.
    # (Counting each record's own text only, an earlier version made the file a tenth
    # larger than the task file it was to match.)
    records, size = [], 5
    while size < target_bytes:
        record = book(rng, len(records))
        text = json.dumps(record, indent=2, ensure_ascii=False)
        size += len(text.encode()) + 2 * (text.count("\n") + 1) + (2 if records else 0)
        records.append(record)
    with open(out, "w") as f:
        f.write(json.dumps(records, indent=2, ensure_ascii=False) + "\n")
    print(len(records))


SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "books",
    "type": "object",
    "x-recsh-key": "isbn",
    "properties": {
        "isbn": {"type": "string", "pattern": "^978-"},
        "title": {"type": "string", "minLength": 1},
        "year": {"type": "integer", "minimum": 1450, "maximum": 2100},
        "authors": {"type": "array", "items": {"type": "string"}},
        "genre": {"enum": GENRES},
        "read": {"type": "boolean", "default": False},
        "rating": {"type": "number", "minimum": 0, "maximum": 5},
        "publisher": {"type": "object", "properties": {"name": {"type": "string"}, "city": {"type": "string"}}},
    },
    "required": ["isbn", "title"],
}


# Patterns no plain-text shortcut can take: each record's isbn and title go through the
# pattern engine when the file opens, and every `set title` of the edits.
PATTERNS = {"isbn": r"^97[89]-\d{9}-\d$", "title": r"^\S(?:.*\S)?$"}


def pattern_schemas(out):
    with_patterns = json.loads(json.dumps(SCHEMA))
    plain = json.loads(json.dumps(SCHEMA))
    del plain["properties"]["isbn"]["pattern"]
    for field, pattern in PATTERNS.items():
        with_patterns["properties"][field]["pattern"] = pattern
    with open(out, "w") as f:
        json.dump(with_patterns, f, indent=2)
    with open(out.replace("patterns", "plain"), "w") as f:
        json.dump(plain, f, indent=2)


def edit_script(books_file, count, out, seed, pair):
    """K `use`/`set` pairs in one group, each made by pair(rng, isbns)."""
    with open(books_file) as f:
        isbns = [record["isbn"] for record in json.load(f)]
    rng = random.Random(seed)
    with open(out, "w") as f:
        f.write("begin edits\n")
        for _ in range(count):
            f.write(pair(rng, isbns))
        f.write("end\n")


def title_edits(books_file, count, out):
    def pair(rng, isbns):
        title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6))).capitalize()
        return 'use %s\nset title "%s"\n' % (rng.choice(isbns), title)

    edit_script(books_file, count, out, 3, pair)


def edits(books_file, count, out):
    edit_script(
        books_file, count, out, 2,
        lambda rng, isbns: "use %s\nset year %d\n" % (rng.choice(isbns), rng.randint(1900, 2026)))


def main():
    command = sys.argv[1]
    if command == "books":
        books(int(sys.argv[2]), sys.argv[3])
    elif command == "schema":
        with open(sys.argv[2], "w") as f:
            json.dump(SCHEMA, f, indent=2)
    elif command == "patterns":
        pattern_schemas(sys.argv[2])
    elif command == "edits":
        edits(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif command == "title-edits":
        title_edits(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit("bench_kinds.py: unknown command " + command)


if __name__ == "__main__":
    main()
