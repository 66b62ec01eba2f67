import Foundation
import RecordKit
import Testing

@testable import RecordShell

/// The fast lane runs a `use` or `set` line straight from its bytes
/// (`Session.execute(_:in:)`); that must do exactly what running the command it stands for
/// does (`QuickCommand.command(in:names:)`, then `execute`).
@Suite struct QuickLaneSessionTests {
  static let file = Array(
    #"""
    [{"id": "a1", "title": "one", "priority": 2},
     {"id": "a2", "title": "two", "tags": ["x"]},
     {"id": "b10", "title": "three", "due": "2024-05-01"}]
    """#.utf8)

  /// Random lines, good and bad (refs that name nothing, name several records or a
  /// position past the end; values a field refuses; a `set` before any `use`), run on two
  /// sessions over copies of one file: the replies or the error of every line agree, and
  /// so do the records, the history and the saved file at the end. One pair of sessions
  /// cannot make its state folder, so its first change's warning is a reply to compare.
  @Test(arguments: [false, true])
  func aLineRunsAsItsCommandDoes(stateFolderBlocked: Bool) throws {
    let parser = QuickParser(kind: TaskRecord.self)
    let refs = ["a1", "a2", "b10", "a", "b", "@1", "@3", "@4", "zz"]
    let sets = [
      "title word", "title \"two words\"", "title café", "priority 3", "priority x", "priority 9",
      "done true",
      "done maybe", "due 2024-02-30", "due 2024-02-29", "due null", "tags x", "detail \"東京 a#b\"",
    ]
    var generator = SplitMix64(seed: 61)
    // A change first, so that a blocked state folder's warning is a reply (a first change
    // that fails takes it with it, on either path).
    var lines = ["use a1", "set title first"]
    for _ in 0..<400 {
      lines.append(
        Int.random(in: 0..<3, using: &generator) == 0
          ? "use " + refs[Int.random(in: 0..<refs.count, using: &generator)]
          : "set " + sets[Int.random(in: 0..<sets.count, using: &generator)])
    }
    try TestDirectory.with { quickFolder in
      try TestDirectory.with { fullFolder in
        var sessions: [Session<TaskRecord>] = try [quickFolder, fullFolder].map { folder in
          try folder.write("t.json", Self.file)
          if stateFolderBlocked { try folder.write("blocked", [0]) }
          let state = stateFolderBlocked ? StateFolder(path: folder.path("blocked/recsh")) : folder.state
          return try Session<TaskRecord>.open(path: folder.path("t.json"), stateFolder: state).session
        }
        var (warnings, failures, successes) = (0, 0, 0)
        for line in lines {
          let bytes = Array(line.utf8)
          let outcomes = bytes.withUnsafeBufferPointer { bytes in
            let quick = parser.scan(bytes: bytes)
            #expect(quick != nil, "\(line)")
            return quick.map { quick in
              (
                Result { () throws(SessionError) in try sessions[0].execute(quick, in: bytes) },
                Result { () throws(SessionError) in
                  try sessions[1].execute(quick.command(in: bytes, names: TaskRecord.fields.names))
                }
              )
            }
          }
          guard let (quick, full) = outcomes else { continue }
          // A warning names the file, which is in another folder for each session.
          let quickReplies = quick.map { $0.map { Self.naming($0, quickFolder.path) } }
          #expect(quickReplies == full.map { $0.map { Self.naming($0, fullFolder.path) } }, "\(line)")
          switch quick {
          case .success(let replies):
            (warnings, successes) = (warnings + replies.count, successes + 1)
            #expect(replies.allSatisfy { if case .warning = $0 { true } else { false } })
          case .failure: failures += 1
          }
        }
        #expect(warnings == (stateFolderBlocked ? 1 : 0))
        #expect(sessions[0].document.records == sessions[1].document.records)
        #expect(successes > 100 && failures > 50, "both kinds of lines were met")
        #expect(try sessions[0].run(line: "history all") == (try sessions[1].run(line: "history all")))
        for index in sessions.indices { _ = try sessions[index].run(line: "save") }
        #expect(try quickFolder.read("t.json") == (try fullFolder.read("t.json")))
      }
    }
  }

  /// `reply` with `folder` in its text spelled `FOLDER`.
  static func naming(_ reply: Reply, _ folder: String) -> Reply {
    guard case .warning(let text) = reply else { return reply }
    return .warning(text.replacingOccurrences(of: folder, with: "FOLDER"))
  }
}
