import Foundation
import Testing

/// A save changes only the bytes of what changed, in the file's own layout: each layout of
/// the table, each edit, through the binary. The expected files are written here by hand,
/// as replacements of exact pieces of the input, so that a save that re-derived one style
/// and rewrote everything (or rewrote any byte it did not have to) fails.
@Suite struct LayoutKeepingTests {
  /// One layout: the file, and for each edit the piece of it that changes and what it
  /// becomes (each piece must occur exactly once in the file).
  struct Layout: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var set: (String, String)
    var unset: (String, String)
    var member: (String, String)
    var record: (String, String)
    var delete: (String, String)
    /// a1 moved after b2: the whole expected file.
    var moved: String
    /// Record a1 on one line, as `insert` takes it back after `delete`.
    var a1 = #"{"id": "a1", "n": 1, "tags": ["x", "y"]}"#
    var testDescription: String { name }
  }

  /// The edits, as recsh commands, and how many steps each makes.
  enum Edit: String, CaseIterable, Sendable {
    case set, unset, member, record, delete, move

    func commands(_ layout: Layout) -> [String] {
      switch self {
      case .set: ["use a1", "set n 7"]
      case .unset: ["use a1", "unset tags"]
      case .member: ["use b2", "set +c true"]
      case .record: ["new id c3 n 3"]
      case .delete: ["delete a1"]
      case .move: ["delete a1", "insert '\(layout.a1)'"]
      }
    }

    var steps: Int { self == .move ? 2 : 1 }
  }

  static let layouts: [Layout] = [
    Layout(
      name: "two spaces",
      text:
        "[\n  {\n    \"id\": \"a1\",\n    \"n\": 1,\n    \"tags\": [\"x\", \"y\"]\n  },\n  {\n    \"id\": \"b2\",\n    \"n\": 2\n  }\n]\n",
      set: ("\"n\": 1", "\"n\": 7"),
      unset: (",\n    \"tags\": [\"x\", \"y\"]", ""),
      member: ("\"n\": 2\n", "\"n\": 2,\n    \"c\": true\n"),
      record: ("\"n\": 2\n  }\n", "\"n\": 2\n  },\n  {\n    \"id\": \"c3\",\n    \"n\": 3\n  }\n"),
      delete: ("{\n    \"id\": \"a1\",\n    \"n\": 1,\n    \"tags\": [\"x\", \"y\"]\n  },\n  ", ""),
      moved:
        "[\n  {\n    \"id\": \"b2\",\n    \"n\": 2\n  },\n  {\n    \"id\": \"a1\",\n    \"n\": 1,\n    \"tags\": [\"x\", \"y\"]\n  }\n]\n"
    ),
    Layout(
      name: "four spaces, lists over lines",
      text:
        "[\n    {\n        \"id\": \"a1\",\n        \"n\": 1,\n        \"tags\": [\n            \"x\",\n            \"y\"\n        ]\n    },\n    {\n        \"id\": \"b2\",\n        \"n\": 2\n    }\n]\n",
      set: ("\"n\": 1", "\"n\": 7"),
      unset: (",\n        \"tags\": [\n            \"x\",\n            \"y\"\n        ]", ""),
      member: ("\"n\": 2\n", "\"n\": 2,\n        \"c\": true\n"),
      record: (
        "\"n\": 2\n    }\n", "\"n\": 2\n    },\n    {\n        \"id\": \"c3\",\n        \"n\": 3\n    }\n"
      ),
      delete: (
        "{\n        \"id\": \"a1\",\n        \"n\": 1,\n        \"tags\": [\n            \"x\",\n            \"y\"\n        ]\n    },\n    ",
        ""
      ),
      moved:
        "[\n    {\n        \"id\": \"b2\",\n        \"n\": 2\n    },\n    {\n        \"id\": \"a1\",\n        \"n\": 1,\n        \"tags\": [\n            \"x\",\n            \"y\"\n        ]\n    }\n]\n"
    ),
    Layout(
      name: "three spaces and \":\"",
      text:
        "[\n   {\n      \"id\":\"a1\",\n      \"n\":1,\n      \"tags\":[\"x\",\"y\"]\n   },\n   {\n      \"id\":\"b2\",\n      \"n\":2\n   }\n]",
      set: ("\"n\":1", "\"n\":7"),
      unset: (",\n      \"tags\":[\"x\",\"y\"]", ""),
      member: ("\"n\":2\n", "\"n\":2,\n      \"c\":true\n"),
      record: ("\"n\":2\n   }\n", "\"n\":2\n   },\n   {\n      \"id\":\"c3\",\n      \"n\":3\n   }\n"),
      delete: ("{\n      \"id\":\"a1\",\n      \"n\":1,\n      \"tags\":[\"x\",\"y\"]\n   },\n   ", ""),
      moved:
        "[\n   {\n      \"id\":\"b2\",\n      \"n\":2\n   },\n   {\n      \"id\":\"a1\",\n      \"n\":1,\n      \"tags\":[\"x\",\"y\"]\n   }\n]"
    ),
    Layout(
      name: "tabs",
      text:
        "[\n\t{\n\t\t\"id\": \"a1\",\n\t\t\"n\": 1,\n\t\t\"tags\": [\"x\", \"y\"]\n\t},\n\t{\n\t\t\"id\": \"b2\",\n\t\t\"n\": 2\n\t}\n]\n",
      set: ("\"n\": 1", "\"n\": 7"),
      unset: (",\n\t\t\"tags\": [\"x\", \"y\"]", ""),
      member: ("\"n\": 2\n", "\"n\": 2,\n\t\t\"c\": true\n"),
      record: ("\"n\": 2\n\t}\n", "\"n\": 2\n\t},\n\t{\n\t\t\"id\": \"c3\",\n\t\t\"n\": 3\n\t}\n"),
      delete: ("{\n\t\t\"id\": \"a1\",\n\t\t\"n\": 1,\n\t\t\"tags\": [\"x\", \"y\"]\n\t},\n\t", ""),
      moved:
        "[\n\t{\n\t\t\"id\": \"b2\",\n\t\t\"n\": 2\n\t},\n\t{\n\t\t\"id\": \"a1\",\n\t\t\"n\": 1,\n\t\t\"tags\": [\"x\", \"y\"]\n\t}\n]\n"
    ),
    Layout(
      name: "CRLF",
      text:
        "[\r\n  {\r\n    \"id\": \"a1\",\r\n    \"n\": 1,\r\n    \"tags\": [\"x\", \"y\"]\r\n  },\r\n  {\r\n    \"id\": \"b2\",\r\n    \"n\": 2\r\n  }\r\n]\r\n",
      set: ("\"n\": 1", "\"n\": 7"),
      unset: (",\r\n    \"tags\": [\"x\", \"y\"]", ""),
      member: ("\"n\": 2\r\n", "\"n\": 2,\r\n    \"c\": true\r\n"),
      record: (
        "\"n\": 2\r\n  }\r\n", "\"n\": 2\r\n  },\r\n  {\r\n    \"id\": \"c3\",\r\n    \"n\": 3\r\n  }\r\n"
      ),
      delete: ("{\r\n    \"id\": \"a1\",\r\n    \"n\": 1,\r\n    \"tags\": [\"x\", \"y\"]\r\n  },\r\n  ", ""),
      moved:
        "[\r\n  {\r\n    \"id\": \"b2\",\r\n    \"n\": 2\r\n  },\r\n  {\r\n    \"id\": \"a1\",\r\n    \"n\": 1,\r\n    \"tags\": [\"x\", \"y\"]\r\n  }\r\n]\r\n"
    ),
    Layout(
      name: "one line",
      text: "[{\"id\": \"a1\", \"n\": 1, \"tags\": [\"x\", \"y\"]}, {\"id\": \"b2\", \"n\": 2}]\n",
      set: ("\"n\": 1", "\"n\": 7"),
      unset: (", \"tags\": [\"x\", \"y\"]", ""),
      member: ("\"n\": 2}", "\"n\": 2, \"c\": true}"),
      record: ("\"n\": 2}]", "\"n\": 2}, {\"id\": \"c3\", \"n\": 3}]"),
      delete: ("{\"id\": \"a1\", \"n\": 1, \"tags\": [\"x\", \"y\"]}, ", ""),
      moved: "[{\"id\": \"b2\", \"n\": 2}, {\"id\": \"a1\", \"n\": 1, \"tags\": [\"x\", \"y\"]}]\n"
    ),
    Layout(
      name: "one line, compact, no final line break",
      text: "[{\"id\":\"a1\",\"n\":1,\"tags\":[\"x\",\"y\"]},{\"id\":\"b2\",\"n\":2}]",
      set: ("\"n\":1", "\"n\":7"),
      unset: (",\"tags\":[\"x\",\"y\"]", ""),
      member: ("\"n\":2}", "\"n\":2,\"c\":true}"),
      record: ("\"n\":2}]", "\"n\":2},{\"id\":\"c3\",\"n\":3}]"),
      delete: ("{\"id\":\"a1\",\"n\":1,\"tags\":[\"x\",\"y\"]},", ""),
      moved: "[{\"id\":\"b2\",\"n\":2},{\"id\":\"a1\",\"n\":1,\"tags\":[\"x\",\"y\"]}]"
    ),
    Layout(
      name: "escapes kept",
      text:
        "[\n  {\n    \"id\": \"a1\",\n    \"n\": 1,\n    \"tags\": [\"caf\\u00e9\", \"y\"],\n    \"w\": \"\\u00e9t\\u00e9\"\n  },\n  {\n    \"id\": \"b2\",\n    \"n\": 2,\n    \"v\": \"\\/\"\n  }\n]\n",
      set: ("\"n\": 1", "\"n\": 7"),
      unset: ("\n    \"tags\": [\"caf\\u00e9\", \"y\"],", ""),
      member: ("\"v\": \"\\/\"\n", "\"v\": \"\\/\",\n    \"c\": true\n"),
      record: (
        "\"v\": \"\\/\"\n  }\n", "\"v\": \"\\/\"\n  },\n  {\n    \"id\": \"c3\",\n    \"n\": 3\n  }\n"
      ),
      delete: (
        "{\n    \"id\": \"a1\",\n    \"n\": 1,\n    \"tags\": [\"caf\\u00e9\", \"y\"],\n    \"w\": \"\\u00e9t\\u00e9\"\n  },\n  ",
        ""
      ),
      moved:
        "[\n  {\n    \"id\": \"b2\",\n    \"n\": 2,\n    \"v\": \"\\/\"\n  },\n  {\n    \"id\": \"a1\",\n    \"n\": 1,\n    \"tags\": [\"caf\\u00e9\", \"y\"],\n    \"w\": \"\\u00e9t\\u00e9\"\n  }\n]\n",
      a1: #"{"id": "a1", "n": 1, "tags": ["café", "y"], "w": "été"}"#
    ),
    Layout(
      name: "nested objects",
      text:
        "[\n  {\n    \"id\": \"a1\",\n    \"n\": 1,\n    \"at\": {\n      \"city\": \"Oslo\",\n      \"zip\": \"0150\"\n    },\n    \"tags\": [\"x\", \"y\"]\n  },\n  {\n    \"id\": \"b2\",\n    \"n\": 2\n  }\n]\n",
      set: ("\"n\": 1", "\"n\": 7"),
      unset: (",\n    \"tags\": [\"x\", \"y\"]", ""),
      member: ("\"n\": 2\n", "\"n\": 2,\n    \"c\": true\n"),
      record: ("\"n\": 2\n  }\n", "\"n\": 2\n  },\n  {\n    \"id\": \"c3\",\n    \"n\": 3\n  }\n"),
      delete: (
        "{\n    \"id\": \"a1\",\n    \"n\": 1,\n    \"at\": {\n      \"city\": \"Oslo\",\n      \"zip\": \"0150\"\n    },\n    \"tags\": [\"x\", \"y\"]\n  },\n  ",
        ""
      ),
      moved:
        "[\n  {\n    \"id\": \"b2\",\n    \"n\": 2\n  },\n  {\n    \"id\": \"a1\",\n    \"n\": 1,\n    \"at\": {\n      \"city\": \"Oslo\",\n      \"zip\": \"0150\"\n    },\n    \"tags\": [\"x\", \"y\"]\n  }\n]\n",
      a1: #"{"id": "a1", "n": 1, "at": {"city": "Oslo", "zip": "0150"}, "tags": ["x", "y"]}"#
    ),
    Layout(
      name: "mixed: one record inline, a blank line, one over lines",
      text:
        "[\n  {\"id\": \"a1\", \"n\": 1, \"tags\": [\"x\", \"y\"]},\n\n  {\n    \"id\": \"b2\",\n    \"n\": 2\n  }\n]\n",
      set: ("\"n\": 1", "\"n\": 7"),
      unset: (", \"tags\": [\"x\", \"y\"]", ""),
      member: ("\"n\": 2\n", "\"n\": 2,\n    \"c\": true\n"),
      record: ("\"n\": 2\n  }\n", "\"n\": 2\n  },\n\n  {\n    \"id\": \"c3\",\n    \"n\": 3\n  }\n"),
      delete: ("{\"id\": \"a1\", \"n\": 1, \"tags\": [\"x\", \"y\"]},\n\n  ", ""),
      moved:
        "[\n  {\n    \"id\": \"b2\",\n    \"n\": 2\n  },\n\n  {\"id\": \"a1\", \"n\": 1, \"tags\": [\"x\", \"y\"]}\n]\n"
    ),
  ]

  /// `text` with `piece` (which must occur exactly once) replaced.
  static func replacing(_ text: String, _ change: (String, String)) -> String? {
    let parts = text.components(separatedBy: change.0)
    guard parts.count == 2 else { return nil }
    return parts[0] + change.1 + parts[1]
  }

  static func expected(_ layout: Layout, _ edit: Edit) -> String? {
    switch edit {
    case .set: replacing(layout.text, layout.set)
    case .unset: replacing(layout.text, layout.unset)
    case .member: replacing(layout.text, layout.member)
    case .record: replacing(layout.text, layout.record)
    case .delete: replacing(layout.text, layout.delete)
    case .move: layout.moved
    }
  }

  static var cases: [(Layout, Edit)] {
    layouts.flatMap { layout in Edit.allCases.map { (layout, $0) } }
  }

  @Test(arguments: cases)
  func anEditChangesOnlyItsBytesAndUndoGivesTheFileBack(_ layout: Layout, _ edit: Edit) throws {
    let folder = try TempFolder()
    try folder.write("d.json", layout.text)
    let expected = try #require(
      Self.expected(layout, edit), "the piece to change occurs once in \(layout.name)")
    let commands = edit.commands(layout).flatMap { ["-c", $0] }
    let edited = try folder.recsh(["d.json"] + commands + ["-c", "save"])
    #expect(edited.status == 0, "\(edited.stderr)")
    let saved = try folder.read("d.json")
    #expect(saved == expected, "\(layout.name), \(edit): \(saved.debugDescription)")
    #expect((try? JSONSerialization.jsonObject(with: Data(saved.utf8))) != nil, "valid JSON")
    // Undone in a later session: the file as it was, byte for byte.
    let undone = try folder.recsh(["d.json", "-c", "undo \(edit.steps)", "-c", "save"])
    #expect(undone.status == 0, "\(undone.stderr)")
    #expect(try folder.read("d.json") == layout.text, "\(layout.name), \(edit) undone in a later session")
    // Undone in the same session.
    try folder.write("d.json", layout.text)
    try FileManager.default.removeItem(atPath: folder.logPath("d.json"))
    let same = try folder.recsh(
      ["d.json"] + commands + ["-c", "save", "-c", "undo \(edit.steps)", "-c", "save"])
    #expect(same.status == 0, "\(same.stderr)")
    #expect(try folder.read("d.json") == layout.text, "\(layout.name), \(edit) undone in the same session")
  }

  /// A file of one record on one line gets its second record on that line.
  @Test func aOneRecordFileOnOneLineStaysOnOneLine() throws {
    let folder = try TempFolder()
    try folder.write("d.json", "[{\"id\": \"a1\", \"n\": 1}]")
    let result = try folder.recsh(["d.json", "-c", "new id b2 n 2", "-c", "save"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try folder.read("d.json") == "[{\"id\": \"a1\", \"n\": 1}, {\"id\": \"b2\", \"n\": 2}]")
  }

  /// What git shows for one set of a one-line member: one line out, one line in.
  @Test func gitCountsOneLineChangedForOneSet() throws {
    let folder = try TempFolder()
    let layout = Self.layouts[2]
    try folder.write("d.json", layout.text)
    let script = """
      git init -q . && git -c user.email=t@t -c user.name=t add d.json && \
      git -c user.email=t@t -c user.name=t commit -qm one && \
      "$RECSH" d.json -c 'use a1' -c 'set n 7' -c save >/dev/null && git diff --numstat
      """
    let result = try RecshBinary.runShell(script, directory: folder.url)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "1\t1\td.json\n")
  }
}

/// The session's bytes never change under it: another program rewriting the file in place
/// (the same inode, not a rename) while a session runs changes neither what the session
/// shows nor what it writes: `save!` writes the session's records over the bytes it read.
@Suite struct PrivateCopyTests {
  static let text =
    "[\n   {\"id\": \"a1\", \"n\": 1, \"w\": \"caf\\u00e9\"},\n   {\"id\": \"b2\", \"n\": 2}\n]\n"

  /// Overwrites `path` in place: truncated and written through the same inode.
  static func rewriteInPlace(_ path: String, _ text: String) throws {
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(text.utf8))
    try handle.close()
  }

  /// A session on `d.json` holding `text` that runs `before` (read up to the record it
  /// shows, so it is done), then lets another program `change` the file, then runs
  /// `after`: how the session ended, and its folder.
  static func session(
    _ before: String, then change: (TempFolder) throws -> Void, then after: String
  ) throws -> (result: RecshBinary.Result, folder: TempFolder) {
    let folder = try TempFolder()
    try folder.write("d.json", text)
    let session = try InteractivePipe(arguments: ["d.json"], directory: folder.url)
    session.send(before)
    _ = try session.readUntil("caf")
    try change(folder)
    session.send(after)
    return (session.finish(), folder)
  }

  /// The records `folder`'s `d.json` holds, as Foundation reads them.
  static func savedRecords(in folder: TempFolder) throws -> [[String: Any]]? {
    try JSONSerialization.jsonObject(with: Data(try folder.read("d.json").utf8)) as? [[String: Any]]
  }

  @Test(arguments: [false, true])
  func anInPlaceRewriteByAnotherProgramChangesNothingTheSessionWrites(_ undoing: Bool) throws {
    let (result, folder) = try Self.session(
      "use a1\nset n 7\nshow\n",
      then: { folder in
        let inode =
          try FileManager.default.attributesOfItem(atPath: folder.path("d.json"))[.systemFileNumber] as? Int
        try Self.rewriteInPlace(
          folder.path("d.json"), #"[{"id": "a1", "n": 100, "w": "other"}, {"id": "zz", "n": 0}]"# + "\n")
        let after =
          try FileManager.default.attributesOfItem(atPath: folder.path("d.json"))[.systemFileNumber] as? Int
        #expect(after == inode, "rewritten in place")
      }, then: (undoing ? "undo\n" : "") + "show a1\nsave!\nquit\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("w   café"), "\(result.stdout)")
    #expect(!result.stdout.contains("other"))
    let expected = undoing ? Self.text : Self.text.replacingOccurrences(of: "\"n\": 1,", with: "\"n\": 7,")
    #expect(try folder.read("d.json") == expected)
  }
}

extension PrivateCopyTests {
  /// After a save, the bytes written are read back for the next save only when they are
  /// still what was written; rewritten in place by another program, `save!` writes the
  /// session's records (in recsh's own layout), never the other program's.
  @Test func anInPlaceRewriteAfterASaveLeavesTheSessionsRecords() throws {
    let (result, folder) = try Self.session(
      "use a1\nset n 7\nsave\nshow\n",
      then: { try Self.rewriteInPlace($0.path("d.json"), #"[{"id": "zz", "n": 0}]"# + "\n") },
      then: "set n 8\nsave!\nquit\n")
    #expect(result.status == 0, "\(result.stderr)")
    let saved = try Self.savedRecords(in: folder)
    #expect(saved?.count == 2)
    #expect(saved?.first?["id"] as? String == "a1")
    #expect(saved?.first?["n"] as? Int == 8)
    #expect(saved?.last?["id"] as? String == "b2")
  }
}

/// JSONTestSuite's `y_` documents (every valid JSON text of the suite) as the value of a
/// member of a record: a set of another member, undone, saves the file byte for byte; the
/// set itself leaves the document's bytes as they were (escapes, spellings, white space).
@Suite struct ConformanceBytesTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "shared/conformance/JSONTestSuite/test_parsing")

  static var documents: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
      .filter { $0.hasPrefix("y_") && $0.hasSuffix(".json") }.sorted()
  }

  @Test func theSuiteIsThere() {
    #expect(Self.documents.count == 95, "looked in \(Self.folder.path)")
  }

  /// Duplicate keys, which recsh refuses in a record.
  static let refused: Set = ["y_object_duplicated_key.json", "y_object_duplicated_key_and_value.json"]

  @Test(arguments: documents.filter { !refused.contains($0) })
  func aMemberHoldingTheDocumentKeepsItsBytes(_ name: String) throws {
    let document = try Data(contentsOf: Self.folder.appendingPathComponent(name))
    // The suite's documents are UTF-8 but for a byte-order mark in none of the y_ files.
    let text = String(decoding: document, as: UTF8.self)
    let file = "[\n  {\"id\": \"r1\", \"v\": " + text + ", \"n\": 1},\n  {\"id\": \"r2\", \"n\": 2}\n]\n"
    let folder = try TempFolder()
    try folder.write("d.json", file)
    let edited = try folder.recsh(["d.json", "-c", "use r1", "-c", "set n 5", "-c", "save"])
    #expect(edited.status == 0, "\(name): \(edited.stderr)")
    #expect(
      try folder.read("d.json") == file.replacingOccurrences(of: ", \"n\": 1}", with: ", \"n\": 5}"),
      "\(name)")
    let undone = try folder.recsh(["d.json", "-c", "undo", "-c", "save"])
    #expect(undone.status == 0, "\(name): \(undone.stderr)")
    #expect(try folder.read("d.json") == file, "\(name)")
  }

  /// The documents that are themselves files of records (empty arrays): saved unchanged.
  @Test(arguments: ["y_array_empty.json", "y_structure_whitespace_array.json"])
  func aDocumentOfRecordsSavesUnchanged(_ name: String) throws {
    let text = String(decoding: try Data(contentsOf: Self.folder.appendingPathComponent(name)), as: UTF8.self)
    let folder = try TempFolder()
    try folder.write("d.json", text)
    #expect(try folder.recsh(["d.json", "-c", "save"]).status == 0)
    #expect(try folder.read("d.json") == text)
  }
}

extension PrivateCopyTests {
  /// The session keeps no copy of its file, but keeps it open: another program saving the
  /// way editors do (a new file renamed over the path) leaves the bytes the session read
  /// reachable, and `save!` writes the session's records over them, byte for byte where
  /// nothing changed.
  @Test(arguments: [false, true])
  func aRenameOverTheFileLeavesTheBytesTheSessionRead(_ editing: Bool) throws {
    let (result, folder) = try Self.session(
      (editing ? "use a1\nset n 7\n" : "") + "show a1\n",
      then: { folder in
        try folder.write("other.json", #"[{"id": "a1", "n": 100, "w": "other"}]"# + "\n")
        try FileManager.default.removeItem(atPath: folder.path("d.json"))
        try FileManager.default.moveItem(atPath: folder.path("other.json"), toPath: folder.path("d.json"))
      }, then: "save!\nquit\n")
    #expect(result.status == 0, "\(result.stderr)")
    let expected = editing ? Self.text.replacingOccurrences(of: "\"n\": 1,", with: "\"n\": 7,") : Self.text
    #expect(try folder.read("d.json") == expected)
  }

  /// Rewritten in place before the session changed anything, the file no longer holds the
  /// bytes the session read, and its history holds no copy yet: `save!` writes the
  /// session's records (in recsh's own layout), never the other program's.
  @Test func anInPlaceRewriteBeforeAnyEditLeavesTheSessionsRecords() throws {
    let (result, folder) = try Self.session(
      "show a1\n",
      then: { try Self.rewriteInPlace($0.path("d.json"), #"[{"id": "zz", "n": 0, "w": "other"}]"# + "\n") },
      then: "save!\nquit\n")
    #expect(result.status == 0, "\(result.stderr)")
    let saved = try Self.savedRecords(in: folder)
    #expect(saved?.map { $0["id"] as? String } == ["a1", "b2"])
    #expect(saved?.first?["w"] as? String == "café")
    #expect(saved?.map { $0["n"] as? Int } == [1, 2])
  }
}
