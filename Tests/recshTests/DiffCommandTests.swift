import Foundation
import Testing

/// `diff [FROM [TO]]` through the built binary: every way to name a state, every format,
/// nested fields and list elements, key-less records, and that it changes nothing.
@Suite struct DiffCommandTests {
  /// The three tasks, then: step 1 sets a1's priority and title, step 2 adds a tag to b2,
  /// step 3 makes n1, step 4 deletes c3.
  static let edits =
    "use a1; set priority 5 title uno; use b2; add tags home; new id n1 title fresh; delete c3"

  static func run(_ commands: String, _ arguments: [String] = []) throws -> RecshBinary.Result {
    let folder = try TempFolder()
    try folder.threeTasks()
    return try folder.recsh(arguments + ["-c", edits + "; " + commands, "t.json"])
  }

  @Test(arguments: [
    (
      "diff",
      """
      ~ a1aaaaaa  title: "one" → "uno"
      ~ a1aaaaaa  priority: 1 → 5
      ~ b2bbbbbb  tags: +home
      + n1  {"id":"n1","title":"fresh"}
      - c3cccccc  {"id":"c3cccccc","title":"three","color":"red"}
      (4 records: 1 added, 1 deleted, 2 changed)
      """
    ),
    ("diff now", "no differences"),
    ("diff 2 1", "~ b2bbbbbb  tags: -home\n(1 record: 0 added, 0 deleted, 1 changed)"),
    (
      "diff start 1",
      "~ a1aaaaaa  title: \"one\" → \"uno\"\n~ a1aaaaaa  priority: 1 → 5\n(1 record: 0 added, 0 deleted, 1 changed)"
    ),
    (
      "diff 0 1",
      "~ a1aaaaaa  title: \"one\" → \"uno\"\n~ a1aaaaaa  priority: 1 → 5\n(1 record: 0 added, 0 deleted, 1 changed)"
    ),
    (
      "diff 3 4",
      "- c3cccccc  {\"id\":\"c3cccccc\",\"title\":\"three\",\"color\":\"red\"}\n(1 record: 0 added, 1 deleted, 0 changed)"
    ),
    (
      "diff saved 3",
      "~ a1aaaaaa  title: \"one\" → \"uno\"\n~ a1aaaaaa  priority: 1 → 5\n~ b2bbbbbb  tags: +home\n+ n1  {\"id\":\"n1\",\"title\":\"fresh\"}\n(3 records: 1 added, 0 deleted, 2 changed)"
    ),
    // Every step was made just now: an hour back is the start.
    (
      "diff 1h 1",
      "~ a1aaaaaa  title: \"one\" → \"uno\"\n~ a1aaaaaa  priority: 1 → 5\n(1 record: 0 added, 0 deleted, 1 changed)"
    ),
    (
      "undo 3; diff saved",
      "~ a1aaaaaa  title: \"one\" → \"uno\"\n~ a1aaaaaa  priority: 1 → 5\n(1 record: 0 added, 0 deleted, 1 changed)"
    ),
  ])
  func diffNamesStatesAndShowsEachChange(_ command: String, _ expected: String) throws {
    let result = try Self.run(command)
    #expect(
      result.stdout.split(separator: "\n").drop { $0.hasPrefix("Undid") }.joined(separator: "\n") == expected,
      "\(command)")
  }

  /// JSON: one object per changed field or per added or deleted record.
  @Test func diffInJSON() throws {
    let result = try Self.run("diff", ["--format", "jsonl"])
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        #"{"key":"a1aaaaaa","field":"title","old":"one","new":"uno"}"#,
        #"{"key":"a1aaaaaa","field":"priority","old":1,"new":5}"#,
        #"{"key":"b2bbbbbb","field":"tags","old":["work"],"new":["work","home"]}"#,
        #"{"key":"n1","added":{"id":"n1","title":"fresh"}}"#,
        #"{"key":"c3cccccc","deleted":{"id":"c3cccccc","title":"three","color":"red"}}"#,
      ])
    let csv = try Self.run("diff 1 2", ["--format", "csv"])
    #expect(
      csv.stdout
        == "key,change,field,old,new\r\nb2bbbbbb,changed,tags,\"[\"\"work\"\"]\",\"[\"\"work\"\",\"\"home\"\"]\"\n"
    )
  }

  /// Every command of this issue prints in every format: JSON an array of objects, JSON
  /// Lines an object a line, CSV and TSV a header and a row each, with the columns each
  /// command names.
  @Test(arguments: [
    ("diff", ["key", "field", "old", "new"]), ("log a1", ["step", "time", "name", "field", "old", "new"]),
    ("blame a1", ["field", "value", "step", "time", "name"]), ("preview set title x", ["key", "field"]),
  ])
  func everyFormat(_ command: String, _ columns: [String]) throws {
    for format in ["json", "jsonl", "csv", "tsv"] {
      let result = try Self.run(command, ["--format", format])
      #expect(result.status == 0, "\(command) \(format): \(result.stderr)")
      let text = result.stdout
      switch format {
      case "json":
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        let rows = try #require(parsed, "\(command): \(text)")
        #expect(!rows.isEmpty && rows.allSatisfy { row in columns.contains { row[$0] != nil } }, "\(text)")
      case "jsonl":
        let lines = text.split(separator: "\n")
        #expect(!lines.isEmpty, "\(command)")
        for line in lines {
          let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
          #expect(object != nil, "\(command): \(line)")
        }
      default:
        let separator = format == "csv" ? "," : "\t"
        let header = String(text.split(whereSeparator: \.isNewline).first ?? "")
        let names = header.components(separatedBy: separator)
        #expect(columns.allSatisfy(names.contains), "\(command) \(format): \(header)")
        #expect(text.split(whereSeparator: \.isNewline).count >= 2, "\(command) \(format): \(text)")
        if format == "csv" { #expect(text.contains("\r\n"), "\(command): CSV lines end in CRLF") }
      }
    }
  }

  /// A field that becomes absent, and a nested one (contacts' `address.city`).
  @Test func absentAndNestedFields() throws {
    let unset = try Self.run("use n1; set due 2026-12-24; diff 4 now; unset due; set +mood calm; diff 5")
    #expect(
      unset.stdout
        == "~ n1  due: (not set) → \"2026-12-24\"\n(1 record: 0 added, 0 deleted, 1 changed)\n"
        + "~ n1  due: \"2026-12-24\" → (not set)\n~ n1  mood: (not set) → \"calm\"\n(1 record: 0 added, 0 deleted, 1 changed)\n"
    )
    let folder = try TempFolder()
    try folder.write("c.json", #"[{"id": "p1", "name": "Ann", "address": {"city": "Oslo", "zip": "0150"}}]"#)
    let nested = try folder.recsh([
      "--kind", "contact", "-c", "use p1; set address.city Bergen; diff", "c.json",
    ])
    #expect(
      nested.stdout
        == "~ p1  address.city: \"Oslo\" → \"Bergen\"\n(1 record: 0 added, 0 deleted, 1 changed)\n")
  }

  /// Records without a key are named `@N`: where they are in the state the diff goes to.
  @Test func keylessRecordsAreNamedByPosition() throws {
    let folder = try TempFolder()
    try folder.write("b.json", #"[{"title": "A", "year": 2001}, {"title": "B", "year": 2002}]"#)
    let result = try folder.recsh(["-c", "use @2; set year 2003; diff", "b.json"])
    #expect(
      result.stdout == "~ @2  year: 2002 → 2003\n(1 record: 0 added, 0 deleted, 1 changed)\n",
      "\(result.stderr)")
  }

  /// `diff` changes nothing: the document, the history and the selection are as before.
  @Test func diffChangesNothing() throws {
    let look = "history all; list; show"
    let result = try Self.run("use b2; \(look); diff 0 2; diff 1; \(look)")
    #expect(result.status == 0)
    let text = result.stdout
    // The diffs' own lines start at the first one ("~ ") and end with their counts.
    let before = try #require(text.range(of: "~ a1aaaaaa"))
    let lastCount = try #require(
      text.range(of: "(3 records: 1 added, 1 deleted, 1 changed)\n", options: .backwards))
    #expect(String(text[..<before.lowerBound]) == String(text[lastCount.upperBound...]))
    #expect(text.contains("id        b2bbbbbb\n"))
  }

  /// `preview X` prints what `X` then `diff` (from the state before it) prints, and
  /// changes nothing: the history, the document and the selection stay as they were.
  @Test(arguments: [
    "set priority 3 title dos", "set done true", "set due 2026-12-24 where tags=work",
    "add tags x where title~o",
    "remove tags work where tags=work", "delete b2", "delete where priority=5", "new id n9 title q",
    "set priority 0 where id!=zz", "undo", "undo 3", "goto 1", "goto 0", "earlier 1h",
    #"insert @2 '{"id": "q1", "title": "x", "z": {"k": 1.50}}'"#, "later 1h", "set +color blue",
  ])
  func previewShowsWhatTheCommandWouldDo(_ command: String) throws {
    // After the edits the state is step 4, with b2 selected.
    let previewed = try Self.run("use b2; preview \(command); history all; list; show")
    let ran = try Self.run("use b2; \(command); diff 4 now")
    let untouched = try Self.run("use b2; history all; list; show")
    #expect(previewed.status == 0 && ran.status == 0, "\(previewed.stderr)\(ran.stderr)")
    let diffLines = ran.stdout.split(separator: "\n").drop { !["~", "+", "-", "(", "n"].contains($0.first) }
    #expect(
      previewed.stdout.hasPrefix(diffLines.joined(separator: "\n") + "\n"), "\(command): \(previewed.stdout)")
    #expect(
      previewed.stdout.hasSuffix(
        untouched.stdout.split(separator: "\n").suffix(12).joined(separator: "\n") + "\n"))
  }

  @Test(arguments: [
    (
      "preview quit",
      "'preview' takes a command that edits (set, unset, add, remove, new, insert, delete, their 'where' forms, undo, redo, goto, earlier, later, rollback), not 'quit'"
    ),
    (
      "preview preview undo",
      "'preview' takes a command that edits (set, unset, add, remove, new, insert, delete, their 'where' forms, undo, redo, goto, earlier, later, rollback), not 'preview'"
    ),
    (
      "preview save",
      "'preview' takes a command that edits (set, unset, add, remove, new, insert, delete, their 'where' forms, undo, redo, goto, earlier, later, rollback), not 'save'"
    ),
    ("preview", "'preview' needs more: usage: preview COMMAND"),
    ("preview set priority 9 where done=false", "field 'priority': expected an integer 0–5, found 9"),
    ("preview redo", "nothing to redo"),
  ])
  func previewRefusesWhatItCannotShow(_ command: String, _ message: String) throws {
    let result = try Self.run(command + "; history")
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("<command>:1: error: \(message)\n"), "\(result.stderr)")
  }

  /// `log` lists what each step did to a record, newest first; `blame` names, for each
  /// field, the step that last set it. Steps made by bulk edits and groups count, and a
  /// later session sees the same (the steps are read back from the log).
  @Test func logAndBlameFollowARecord() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let first = try folder.recsh([
      "-c",
      "use a1; set priority 5 title uno; set priority 4 where id~a; begin g; add tags x where priority=4; end; save",
      "t.json",
    ])
    #expect(first.status == 0, "\(first.stderr)")
    let result = try folder.recsh([
      "-c", "log a1; log a1 priority; use a1; blame; log b2; blame b2", "t.json",
    ])
    let lines = result.stdout.split(separator: "\n").map { line in
      // Drop the time of day, which the test cannot know.
      line.replacing(/[0-9]{2}:[0-9]{2}:[0-9]{2}/, with: "T")
    }
    #expect(
      lines == [
        "3  T  g                         tags: (not set) → [\"x\"]",
        "2  T  Set priority on 1 record  priority: 5 → 4",
        "1  T  Set priority, title       title: \"one\" → \"uno\"",
        "1  T  Set priority, title       priority: 1 → 5",
        "2  T  Set priority on 1 record  priority: 5 → 4",
        "1  T  Set priority, title       priority: 1 → 5",
        "id        a1aaaaaa  (before the history)",
        "title     uno       1  T  Set priority, title",
        "done      false     (before the history)",
        "priority  4         2  T  Set priority on 1 record",
        "tags      [x]       3  T  g",
        "no step changed it",
        "id     b2bbbbbb  (before the history)",
        "title  two       (before the history)",
        "tags   [work]    (before the history)",
      ], "\(result.stderr)")
    let json = try folder.recsh(["--format", "jsonl", "-c", "log a1 title", "t.json"])
    #expect(
      json.stdout.contains(#""step":1,"#)
        && json.stdout.contains(#""field":"title","old":"one","new":"uno"}"#))
  }

  @Test(arguments: [
    ("diff 99999", "no step 99999: steps are numbered 1 to 4, 0 is the start"),
    (
      "diff yesterday",
      "'diff' expects a state: a step number, saved, now, start or a time back (10m), found 'yesterday'"
    ),
    ("diff 1 2 3", "'diff' does not take '3'; usage: diff [FROM [TO]]"),
  ])
  func badStatesAreRefused(_ command: String, _ message: String) throws {
    let result = try Self.run(command)
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("<command>:1: error: \(message)\n"), "\(result.stderr)")
  }

  @Test func savedNeedsAFileOnDisk() throws {
    let folder = try TempFolder()
    let result = try folder.recsh(["-c", "new title x; diff", "missing.json"])
    #expect(result.status == 1)
    #expect(
      result.stderr.hasPrefix(
        "<command>:1: error: 'saved' names the state of the file, and this document was never on disk; "
          + "'save FILE' writes it\n"))
    let after = try folder.recsh(["-c", "new title x; save; set title y; diff", "missing.json"])
    #expect(after.stdout.hasSuffix("title: \"x\" → \"y\"\n(1 record: 0 added, 0 deleted, 1 changed)\n"))
  }
}
