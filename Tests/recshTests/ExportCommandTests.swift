import Foundation
import Testing

/// `export`, `insert` and the `==` filter through the built binary: the script a session's
/// edits become, that it reproduces them on the original file, that on a file changed
/// since it stops at the first guard and saves nothing, and the errors.
@Suite struct ExportCommandTests {
  /// `DiffCommandTests.edits`: a1's priority and title, a tag for b2, n1 made, c3 deleted.
  static let edits = DiffCommandTests.edits

  /// The script, line for line: guards first, then the edits in one group, then `save`.
  static let script = """
    assert a1aaaaaa title== one priority== 1
    assert b2bbbbbb tags== [work]
    assert c3cccccc title== three 'color'== red
    begin 'Replay of the saved state to now'
    use a1aaaaaa; set title uno priority 5
    use b2bbbbbb; set tags [work, home]
    delete c3cccccc
    new id n1 title fresh
    end
    save

    """

  @Test func theScriptGuardsThenEditsThenSaves() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try folder.recsh(["-c", Self.edits + "; export today.rsh", "t.json"])
    #expect(result.status == 0, "\(result.stderr)")
    let text = try folder.read("today.rsh")
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.prefix(3).allSatisfy { $0.hasPrefix("# ") }, "\(text)")
    #expect(
      lines[0].hasPrefix("# recsh script: the edits to 't.json' from the saved state to now, exported "))
    #expect(lines.dropFirst(3).joined(separator: "\n") == Self.script)
  }

  @Test func runOnTheOriginalTheScriptMakesTheSameFile() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    try folder.threeTasks("copy.json")
    let made = try folder.recsh(["-c", Self.edits + "; export today.rsh; save", "t.json"])
    #expect(made.status == 0, "\(made.stderr)")
    let replay = try folder.recsh(["-s", "today.rsh", "copy.json"])
    #expect(replay.status == 0, "\(replay.stderr)")
    #expect(replay.stderr.isEmpty)
    #expect(try folder.read("copy.json") == folder.read("t.json"))
    // One undo step takes it all back.
    let undone = try folder.recsh(["-c", "history; undo; diff saved now", "copy.json"])
    #expect(undone.stdout.contains("Replay of the saved state to now"), "\(undone.stdout)")
    #expect(undone.stdout.hasSuffix("(4 records: 1 added, 1 deleted, 2 changed)\n"), "\(undone.stdout)")
  }

  @Test func onAFileChangedSinceItStopsAtTheGuardAndSavesNothing() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    try folder.threeTasks("copy.json")
    _ = try folder.recsh(["-c", Self.edits + "; export today.rsh", "t.json"])
    _ = try folder.recsh(["-c", "use b2; add tags mine; save", "copy.json"])
    let before = try folder.read("copy.json")
    let replay = try folder.recsh(["-s", "today.rsh", "copy.json"])
    #expect(replay.status == 1)
    #expect(
      replay.stderr.hasPrefix(
        "today.rsh:5: error: assert failed: record b2bbbbbb does not match tags==[work] (tags is [work, mine])\n"
      ),
      "\(replay.stderr)")
    #expect(try folder.read("copy.json") == before)
    // A deleted record is a failed guard too, naming it.
    _ = try folder.recsh(["-c", "delete c3; save", "copy.json"])
    let gone = try folder.recsh(["-s", "today.rsh", "copy.json"])
    #expect(gone.status == 1)
    #expect(gone.stderr.contains("today.rsh:5: error: "), "\(gone.stderr)")
  }

  @Test func recordsWithoutAKeyAreNamedByPositionAndReplacedWholeWhenSetCannot() throws {
    let folder = try TempFolder()
    let books = """
      [
        {"title": "Dune", "year": 1965, "rating": 4.50, "meta": {"pages": 412}},
        {"title": "Emma", "year": 1815},
        {"title": "Ulysses", "year": 1922}
      ]

      """
    try folder.write("b.json", books)
    try folder.write("copy.json", books)
    let made = try folder.recsh([
      "-c",
      "use @2; set year 1816; delete @3; insert @1 '{\"title\": \"Alpha\", \"year\": 2000}'; "
        + "use @2; set meta.pages 413; set +note \"it's\"; export e.rsh; save",
      "b.json",
    ])
    #expect(made.status == 0, "\(made.stderr)")
    let script = try folder.read("e.rsh").split(separator: "\n").dropFirst(3).joined(separator: "\n")
    #expect(
      script == """
        assert @2 year== 1815
        assert @1 title== Dune year== 1965 rating== 4.50 meta.pages== 412
        assert @3 title== Ulysses year== 1922
        begin 'Replay of the saved state to now'
        use @2; set year 1816
        delete @3
        delete @1
        insert @1 '{"title": "Alpha", "year": 2000}'
        insert @2 "{\\"title\\": \\"Dune\\", \\"year\\": 1965, \\"rating\\": 4.50, \\"meta\\": {\\"pages\\": 413}, \\"note\\": \\"it's\\"}"
        end
        save
        """)
    let replay = try folder.recsh(["-s", "e.rsh", "copy.json"])
    #expect(replay.status == 0, "\(replay.stderr)")
    #expect(try folder.read("copy.json") == folder.read("b.json"))
  }

  @Test func betweenAnyTwoStates() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    // Steps 1 to 4; the script from step 3 back to step 1 undoes b2's tag and n1.
    let made = try folder.recsh(["-c", Self.edits + "; export back.rsh 3 1", "t.json"])
    #expect(made.status == 0, "\(made.stderr)")
    let script = try folder.read("back.rsh").split(separator: "\n").dropFirst(3).joined(separator: "\n")
    #expect(
      script == """
        assert b2bbbbbb tags== [work, home]
        assert n1 title== fresh
        begin 'Replay of step 3 to step 1'
        use b2bbbbbb; set tags [work]
        delete n1
        end
        save
        """)
  }

  @Test(arguments: [
    ("export e.rsh; export e.rsh", "\"e.rsh\" already exists; 'export! e.rsh' overwrites it"),
    ("export sub", "cannot save \"sub\": it is a directory, not a regular file"),
    ("export! sub", "cannot save \"sub\": it is a directory, not a regular file"),
    ("export e.rsh 99999", "no step 99999: steps are numbered 1 to 4, 0 is the start"),
    (
      "export e.rsh saved nowish",
      "'diff' expects a state: a step number, saved, now, start or a time back (10m), found 'nowish'"
    ),
    ("export", "'export' needs more: usage: export[!] FILE [FROM [TO]]"),
    (
      "export none/e.rsh",
      "cannot save \"none/e.rsh\": ENOENT: no such file or directory (creating a temporary file in \"none\")"
    ),
  ])
  func badExportsAreRefused(_ command: String, _ message: String) throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    try FileManager.default.createDirectory(atPath: folder.path("sub"), withIntermediateDirectories: false)
    let result = try folder.recsh(["-c", Self.edits + "; " + command, "t.json"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("<command>:1: error: \(message)\n"), "\(result.stderr)")
    #expect(!folder.exists("sub/e.rsh"))
  }

  @Test func aDocumentNeverSavedHasNoSavedState() throws {
    let folder = try TempFolder()
    let result = try folder.recsh(["-c", "new id x1 title a; export e.rsh", "new.json"])
    #expect(result.status == 1)
    #expect(
      result.stderr.hasPrefix(
        "<command>:1: error: 'saved' names the state of the file, and this document was never on disk; 'save FILE' writes it\n"
      ), "\(result.stderr)")
    let fromStart = try folder.recsh(["-c", "new id x1 title a; export e.rsh start now", "new.json"])
    #expect(fromStart.status == 0, "\(fromStart.stderr)")
    #expect(try folder.read("e.rsh").contains("\nnew id x1 title a\n"))
  }

  @Test(arguments: [
    (
      "insert @1 '{\"id\": \"z1\", \"title\": \"top\"}'; list fields id",
      "@1  z1\n@2  a1aaaaaa\n@3  b2bbbbbb\n@4  c3cccccc\n(4 records)\n"
    ),
    (
      "insert @3 '{\"id\": \"z1\", \"title\": \"mid\"}'; list fields id",
      "@1  a1aaaaaa\n@2  b2bbbbbb\n@3  z1\n@4  c3cccccc\n(4 records)\n"
    ),
    ("insert '{\"id\": \"z1\", \"x\": 1.50}'; show", "due       (not set)\nx         1.50  (custom)\n"),
    ("insert @4 '{\"id\": \"z1\"}'; undo; count", "3\n"),
  ])
  func insertPutsAWholeRecordAnywhere(_ commands: String, _ expected: String) throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try folder.recsh(["-c", commands, "t.json"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasSuffix(expected), "\(result.stdout)")
  }

  @Test(arguments: [
    ("insert @5 '{\"id\": \"z1\"}'", "no record @5"),
    (
      "insert @0 '{\"id\": \"z1\"}'",
      "'insert' expects @N (where the record goes) before the record, found '@0'"
    ),
    ("insert '{\"id\": \"a1aaaaaa\"}'", "a record with id 'a1aaaaaa' already exists"),
    ("insert '[1]'", "not a record of this file: expected an object, found an array"),
    (
      "insert '{\"id\": \"z\", \"priority\": 9}'",
      "not a record of this file: field 'priority': expected an integer 0–5, found 9"
    ),
    ("insert '{\"id\": 1,}'", "not a record of this file: 1:9: "),
    ("insert", "'insert' needs more: usage: insert [@N] JSON"),
    // `==` of a list field takes a list.
    (
      "count tags==work",
      "in the filter tags==work: field 'tags': expected a list of strings like [a, \"b c\"], found work"
    ),
  ])
  func badInsertsAndFiltersAreRefused(_ command: String, _ message: String) throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try folder.recsh(["-c", command + "; count", "t.json"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("<command>:1: error: \(message)"), "\(result.stderr)")
  }

  @Test(arguments: [
    ("count tags== [work]", "1"),
    ("count tags== []", "0"),
    ("count tags=work", "1"),
    ("count tags!=work", "2"),
    ("count priority==1", "1"),
    ("count due==null", "3"),
    ("count title==one", "1"),
  ])
  func exactlyComparesWholeValues(_ command: String, _ expected: String) throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try folder.recsh(["-c", command, "t.json"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == expected + "\n")
  }
}
