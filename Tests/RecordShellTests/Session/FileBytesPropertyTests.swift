import Foundation
import RecordKit
import Testing

@testable import RecordShell

/// Saves write over the bytes read, over random sessions (the generator of
/// `SeeingChangesPropertyTests`: field sets and unsets of every type, list elements, `new`,
/// `insert`, deletions, bulk edits, groups, `rollback`, undo, redo, `goto` onto other
/// branches, `earlier`/`later`), with saves between and, half the time, the session closed
/// and the file opened again (the history and its start bytes come from the log), in files
/// of several layouts:
///
/// - every save writes a file that reads back as exactly the session's records (what the
///   plain writer would write for them, compared as records);
/// - back at the start (`goto 0`, in this session or a later one), a save writes the file
///   that was first opened, byte for byte.
@Suite struct FileBytesPropertyTests {
  static let sessions =
    ProcessInfo.processInfo.environment["RECSH_BYTES_MODEL_SESSIONS"].flatMap { Int($0) } ?? 200

  /// The generator's start records in layouts of several kinds.
  static let layouts: [[UInt8]] = [
    SeeingChangesPropertyTests.start,
    Array(
      #"""
      [
         {
            "id":"a1","title":"one",
            "done":false,
            "priority":2,
            "tags":[
               "x"
            ],
            "cost":2.50
         },
         {"id":"b2","title":"two","done":true,"tags":[],"due":"2026-12-01","meta":{"k":[1,{"n":null}]}},

         {
            "id":"c3",
            "title":"three \"quoted\"\nline",
            "priority":5,
            "note":"it\u0027s"
         }
      ]
      """#.utf8),
    Array(
      "[\r\n\t{\"id\": \"a1\", \"title\": \"one\", \"done\": false, \"priority\": 2, \"tags\": [\"x\"], \"cost\": 2.50},\r\n\t{\"id\": \"b2\", \"title\": \"two\", \"done\": true, \"tags\": [], \"due\": \"2026-12-01\", \"meta\": {\"k\": [1, {\"n\": null}]}},\r\n\t{\"id\": \"c3\", \"title\": \"three \\\"quoted\\\"\\nline\", \"priority\": 5, \"note\": \"it's\"}\r\n]\r\n"
        .utf8),
  ]

  /// Opens `name` in `folder` with its log (the history kept across sessions); again while
  /// a child process another test starts holds the log's lock for a moment (`retryingLock`).
  static func open(_ folder: TestDirectory, _ name: String) throws -> Session<TaskRecord> {
    try retryingLock {
      try Session<TaskRecord>.open(
        path: folder.path(name), fileSystem: PosixFileSystem(), undoLimit: 0, recovery: .refuse,
        stateFolder: testState(for: folder.path(name))
      ).session
    }
  }

  /// Closes every open group (keeping its changes), so that `goto` may run.
  static func closeGroups(_ session: inout Session<TaskRecord>) {
    while !session.editor.openGroups.isEmpty { _ = try? session.run(line: "end") }
  }

  /// The records the file holds, as the plain writer writes them.
  static func recordsInFile(_ folder: TestDirectory, _ name: String) throws -> [UInt8] {
    let loaded = try RecordFile<TaskRecord>.decode(try folder.read(name))
    return RecordFile<TaskRecord>.encode(loaded.document.records)
  }

  @Test(arguments: 0..<layouts.count)
  func everySaveHoldsTheRecordsAndTheStartGivesBackTheBytes(_ layout: Int) throws {
    let start = Self.layouts[layout]
    let base = UInt64.random(in: 0...UInt64.max >> 1)
    var reopened = 0
    var saves = 0
    for offset in 0..<UInt64(Self.sessions) {
      let seed = base &+ offset
      var g = SeededRandom(seed: seed)
      var lines: [String] = []
      do {
        try TestDirectory.with { folder in
          try folder.write("t.json", start)
          var session = try Self.open(folder, "t.json")
          var serial = 0
          for _ in 0..<(Int(g.next() % 30) + 1) {
            let line: String
            switch g.next() % 10 {
            case 0: line = "save"
            case 1 where g.next() % 3 == 0: line = "reopen"
            default:
              line = SeeingChangesPropertyTests.randomLine(&g, count: session.document.count, serial: &serial)
            }
            lines.append(line)
            if line == "reopen" {
              Self.closeGroups(&session)
              _ = try session.run(line: "save")
              session.close()
              session = try Self.open(folder, "t.json")
              reopened += 1
              continue
            }
            _ = try? session.run(line: line)
            if line == "save", session.editor.openGroups.isEmpty {
              saves += 1
              #expect(
                try Self.recordsInFile(folder, "t.json")
                  == RecordFile<TaskRecord>.encode(session.document.records),
                "seed \(seed), layout \(layout): \(lines)")
            }
          }
          Self.closeGroups(&session)
          _ = try session.run(line: "save")
          #expect(
            try Self.recordsInFile(folder, "t.json")
              == RecordFile<TaskRecord>.encode(session.document.records),
            "seed \(seed), layout \(layout): \(lines)")
          // Back at the start, in this session or (half the time) a later one.
          if g.next() % 2 == 0 {
            session.close()
            session = try Self.open(folder, "t.json")
            lines.append("reopen")
          }
          _ = try session.run(line: "goto 0")
          _ = try session.run(line: "save")
          #expect(try folder.read("t.json") == start, "seed \(seed), layout \(layout): \(lines) goto 0")
          session.close()
        }
      } catch {
        Issue.record("seed \(seed), layout \(layout): \(lines): \(error)")
      }
    }
    #expect(reopened > Self.sessions / 10, "sessions were reopened")
    #expect(saves > Self.sessions / 2, "saves were made between edits")
  }
}
