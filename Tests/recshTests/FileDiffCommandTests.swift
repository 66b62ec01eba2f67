import Foundation
import Testing

/// `recsh diff OLD NEW` through the built binary: records matched by key, every format,
/// the exit status of `diff` (0 equal, 1 different, 3 unreadable), git's seven-argument
/// form (a header, exit 0, `/dev/null` for a file added), a kind without a key matched by
/// position, and a file named `diff` opened as `./diff`.
@Suite struct FileDiffCommandTests {
  /// `b.json`: a1's title changed, a tag for b2, c3 deleted, n1 added, and the records in
  /// another order (which is no difference: records are matched by key).
  static func folder() throws -> TempFolder {
    let folder = try TempFolder()
    try folder.threeTasks("a.json")
    try folder.write(
      "b.json",
      #"""
      [
        {"id": "n1", "title": "fresh"},
        {"id": "b2bbbbbb", "title": "two", "tags": ["work", "home"]},
        {"id": "a1aaaaaa", "title": "uno", "done": false, "priority": 1}
      ]

      """#)
    return folder
  }

  /// In the new file's order, then the records only the old one has.
  static let table = """
    + n1  {"id":"n1","title":"fresh"}
    ~ b2bbbbbb  tags: +home
    ~ a1aaaaaa  title: "one" → "uno"
    - c3cccccc  {"id":"c3cccccc","title":"three","color":"red"}
    (4 records: 1 added, 1 deleted, 2 changed)

    """

  @Test func differentFilesPrintTheirDifferenceAndExitOne() throws {
    let result = try Self.folder().recsh(["diff", "a.json", "b.json"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout == Self.table)
    #expect(result.stderr.isEmpty)
  }

  @Test func equalFilesExitZero() throws {
    let folder = try Self.folder()
    try folder.threeTasks("same.json")
    let result = try folder.recsh(["diff", "a.json", "same.json"])
    #expect(result.status == 0)
    #expect(result.stdout == "no differences\n")
  }

  @Test func everyFormat() throws {
    let folder = try Self.folder()
    let jsonl = try folder.recsh(["diff", "--format", "jsonl", "a.json", "b.json"])
    #expect(jsonl.status == 1)
    #expect(
      jsonl.stdout.split(separator: "\n") == [
        #"{"key":"n1","added":{"id":"n1","title":"fresh"}}"#,
        #"{"key":"b2bbbbbb","field":"tags","old":["work"],"new":["work","home"]}"#,
        #"{"key":"a1aaaaaa","field":"title","old":"one","new":"uno"}"#,
        #"{"key":"c3cccccc","deleted":{"id":"c3cccccc","title":"three","color":"red"}}"#,
      ])
    for format in ["json", "csv", "tsv"] {
      let result = try folder.recsh(["diff", "--format", format, "a.json", "b.json"])
      #expect(result.status == 1 && result.stdout.contains("a1aaaaaa"), "\(format): \(result.stderr)")
    }
    let json = try folder.recsh(["diff", "--format", "json", "a.json", "b.json"])
    let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
    #expect(rows?.count == 4)
  }

  @Test(arguments: [
    (
      ["diff", "a.json", "missing.json"],
      #"recsh: error: cannot read "missing.json": ENOENT: no such file or directory (stat)"#
    ),
    (["diff", "a.json", "broken.json"], "broken.json:1:9: error: unexpected end of input in object"),
    // The kind comes from the new file (books, inferred); the old one, of tasks, does not fit it.
    (["diff", "a.json", "books.json"], "a.json:2:3: error: record 1: field 'year': is required but missing"),
  ])
  func anUnreadableFileExitsThree(_ arguments: [String], _ message: String) throws {
    let folder = try Self.folder()
    try folder.write("broken.json", #"[{"id": "#)
    try folder.write("books.json", #"[{"title": "Dune", "year": 1965}]"#)
    let result = try folder.recsh(arguments)
    #expect(result.status == 3, "\(result.stdout)")
    #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
  }

  @Test(arguments: [
    (["diff"], "recsh: 'diff' takes two files (or git's seven arguments)"),
    (["diff", "a.json"], "recsh: 'diff' takes two files (or git's seven arguments)"),
    (
      ["diff", "--format", "xml", "a.json", "b.json"],
      "recsh: unknown format \"xml\"; the formats are table|json|jsonl|csv|tsv"
    ),
    (["diff", "a.json", "b.json", "--kind"], "recsh: --kind needs a value"),
    (
      ["diff", "--kind", "task", "--schema", "s.json", "a.json", "b.json"],
      "recsh: --kind and --schema cannot be used together"
    ),
    (["merge", "a.json", "b.json", "-o"], "recsh: -o needs a value"),
    (
      ["merge", "--kind", "task", "--schema", "s.json", "a.json", "a.json", "b.json"],
      "recsh: --kind and --schema cannot be used together"
    ),
  ])
  func badUsageExitsTwo(_ arguments: [String], _ message: String) throws {
    let result = try Self.folder().recsh(arguments)
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
  }

  /// git calls `recsh diff PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE`, and
  /// takes any status but 0 for "the external diff died".
  @Test func gitsSevenArgumentsPrintAHeaderAndExitZero() throws {
    let folder = try Self.folder()
    let changed = try folder.recsh(["diff", "t.json", "a.json", "1111", "100644", "b.json", "2222", "100644"])
    #expect(changed.status == 0, "\(changed.stderr)")
    #expect(changed.stdout == "recsh diff a/t.json b/t.json\n" + Self.table)
    let added = try folder.recsh(["diff", "t.json", "/dev/null", ".", ".", "b.json", "2222", "100644"])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout.hasSuffix("(3 records: 3 added, 0 deleted, 0 changed)\n"), "\(added.stdout)")
  }

  /// Real git, configured with the README's lines: `git diff` shows the records that changed.
  @Test func gitDiffWithTheREADMEsLinesShowsRecords() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let script = """
      set -e
      git init -q .
      git config user.email test@example.com && git config user.name Test && git config commit.gpgsign false
      echo '*.json diff=recsh' > .gitattributes
      git config diff.recsh.command "$RECSH diff"
      git add . && git commit -q -m one
      "$RECSH" t.json -c 'use a1; set title uno; save' > /dev/null
      git diff
      """
    let result = try RecshBinary.runShell(
      script, environment: ["HOME": folder.url.path, "GIT_CONFIG_NOSYSTEM": "1"], directory: folder.url)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout
        == "recsh diff a/t.json b/t.json\n~ a1aaaaaa  title: \"one\" → \"uno\"\n"
        + "(1 record: 0 added, 0 deleted, 1 changed)\n", "\(result.stdout)")
  }

  @Test func recordsWithoutAKeyAreMatchedByPosition() throws {
    let folder = try TempFolder()
    try folder.write("a.json", #"[{"title": "A", "year": 2001}, {"title": "B", "year": 2002}]"#)
    try folder.write("b.json", #"[{"title": "A", "year": 2001}, {"title": "B", "year": 2003}]"#)
    let result = try folder.recsh(["diff", "a.json", "b.json"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout == "~ @2  year: 2002 → 2003\n(1 record: 0 added, 0 deleted, 1 changed)\n")
  }

  @Test func aFileNamedDiffOpensAsDotSlashDiff() throws {
    let folder = try Self.folder()
    try folder.threeTasks("diff")
    let result = try folder.recsh(["./diff", "-c", "count"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "3\n")
  }
}
