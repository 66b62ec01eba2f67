import Foundation
import Glibc
import Testing

@testable import RecordKit
@testable import RecordShell

/// The state folder as a session meets it, in process: another user's folder refused at
/// the first edit (the binary's tests need root for that), a folder that cannot be made,
/// and the first edit's writes made once.
struct StateFolderSessionTests {
  static let start = Array(#"[{"id": "a1", "title": "one"}]"#.utf8)

  @Test func aFolderOfAnotherUserIsNeitherReadNorWritten() throws {
    try TestDirectory.with { folder in
      try folder.write("t.json", Self.start)
      try FileManager.default.createDirectory(atPath: folder.state.path, withIntermediateDirectories: false)
      #expect(chmod(folder.state.path, 0o700) == 0)
      // A history there, which must not be read: another user could have put it there.
      var first = try Session<TaskRecord>.open(path: folder.path("t.json"), stateFolder: folder.state).session
      _ = try first.run(line: "use a1; set title mine; save")
      first.close()
      let fileSystem = FaultInjectingFileSystem()
      fileSystem.owners[folder.state.path] = geteuid() + 1
      var session = try Session<TaskRecord>.open(
        path: folder.path("t.json"), fileSystem: fileSystem, stateFolder: folder.state
      )
      .session
      #expect(session.editor.history.keptCount == 0, "the history there is not read")
      let log = try folder.read(folder.logPath("t.json"))
      do {
        _ = try session.run(line: "use a1; set title theirs")
        Issue.record("an edit went on with another user's state folder")
      } catch let error as SessionError {
        #expect(
          error
            == .unsafeStateFolder(
              path: folder.state.path,
              reason: "it belongs to another user (uid \(geteuid() + 1), not \(geteuid()))"))
        #expect(error.refusesEditing)
      }
      #expect(session.document.records[0].title == "mine", "nothing changed")
      #expect(try folder.read(folder.logPath("t.json")) == log, "nothing written")
    }
  }

  @Test func aFolderThatCannotBeMadeTurnsRecoveryOffOnceAndTheEditGoesOn() throws {
    try TestDirectory.with { folder in
      try folder.write("t.json", Self.start)
      // A file where a folder above the state folder must go: mkdir fails with ENOTDIR.
      try folder.write("blocked", [0])
      let state = StateFolder(path: folder.path("blocked/recsh"))
      var session = try Session<TaskRecord>.open(path: folder.path("t.json"), stateFolder: state).session
      let replies = try session.run(line: "use a1; set title x")
      #expect(
        replies == [
          .warning(
            "cannot create the journal of \"\(folder.path("t.json"))\" (ENOTDIR: not a directory); "
              + "crash recovery is off for this file")
        ])
      #expect(try session.run(line: "set title y").isEmpty, "said once")
      _ = try session.run(line: "save")
      #expect(try folder.read("t.json") != Self.start)
      session.close()
    }
  }
}

extension StateFolderSessionTests {
  /// The log's records of the file at `path`, as a list of what each is: `base`, or the
  /// entry's first key.
  static func kinds(ofLog path: String) throws -> [String] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let contents = try JournalFraming.read(bytes)
    return contents.payloads.map { payload in
      if JournalEntry.isBase(payload.first) { return "base" }
      let text = String(decoding: payload.prefix(12), as: UTF8.self)
      return String(text.dropFirst(2).prefix { $0 != "\"" })
    }
  }

  /// The first edit costs no copy: the start records are compressed on another thread,
  /// after the step in the log when it came first, and a save and a normal end wait for
  /// them, so a log that lost its data file's old bytes never follows a save.
  @Test func theStartRecordsAreCompressedAwayFromTheEditAndReachTheLogBeforeASave() throws {
    try TestDirectory.with { folder in
      let records = (0..<2000).map { #"{"id": "r\#($0)", "title": "title number \#($0)"}"# }
      let start = Array(("[" + records.joined(separator: ",\n") + "]\n").utf8)
      try folder.write("t.json", start)
      var session = try Session<TaskRecord>.open(path: folder.path("t.json"), stateFolder: folder.state)
        .session
      _ = try session.run(line: "use r1")
      // Every base to the thread, whatever its size.
      _ = try session.run(line: "set title first; save")
      let journal = try #require(session.persistence.journal)
      journal.inlineBaseLimit = 0
      _ = try session.run(line: "history clear")
      _ = try session.run(line: "set title second")
      let written = try Self.kinds(ofLog: journal.path)
      #expect(journal.isCompressingBase || written.contains("base"))
      _ = try session.run(line: "save")
      #expect(!journal.isCompressingBase)
      let kinds = try Self.kinds(ofLog: journal.path)
      let base = try #require(kinds.lastIndex(of: "base"))
      let save = try #require(kinds.lastIndex(of: "save"))
      #expect(base < save, "\(kinds)")
      #expect(kinds.filter { $0 == "base" }.count == 1)
      // Compressed: a fraction of the file.
      let size = try #require(try FileManager.default.attributesOfItem(atPath: journal.path)[.size] as? Int)
      #expect(size < start.count / 4, "\(size) of \(start.count)")
      _ = try session.run(line: "set title third")
      session.close()
      // The next session reads it back: undo reaches the start of the cleared history.
      var next = try Session<TaskRecord>.open(path: folder.path("t.json"), stateFolder: folder.state).session
      _ = try next.run(line: "redo; undo 2; save")
      let afterFirst = String(decoding: start, as: UTF8.self).replacing(
        #""title number 1""#, with: #""first""#)
      #expect(try folder.read("t.json") == Array(afterFirst.utf8))
      next.close()
    }
  }
}

extension StateFolderSessionTests {
  /// The first change's warning (here: the state folder cannot be made) is shown even when
  /// that change fails: before its error, at its line. A change that succeeds later does
  /// not say it again. Through the fast lane (`use`/`set` lines) and the full parser alike.
  @Test(arguments: ["set priority x", "set priority x  # a comment: the full parser"])
  func aFirstChangeThatFailsStillShowsItsWarning(failing: String) throws {
    try TestDirectory.with { folder in
      try folder.write("t.json", Self.start)
      try folder.write("blocked", [0])
      let state = StateFolder(path: folder.path("blocked/recsh"))
      let session = try Session<TaskRecord>.open(path: folder.path("t.json"), stateFolder: state).session
      var events: [ScriptEvent] = []
      var runner = ScriptRunner(session: session, readFile: { _ in [] }, emit: { events.append($0) })
      runner.keepGoing = true
      var lines = TextLines(bytes: Array("use a1\n\(failing)\nset title y\n".utf8))
      runner.run(&lines, name: "s")
      let warning =
        "cannot create the journal of \"\(folder.path("t.json"))\" (ENOTDIR: not a directory); "
        + "crash recovery is off for this file"
      #expect(
        events.filter { if case .diagnostic = $0 { true } else { false } } == [
          .diagnostic(Diagnostic(.warning, warning, at: "s:2")),
          .diagnostic(
            Diagnostic(.error, "field 'priority': expected an integer 0–5, found x", at: "s:2")),
        ])
      #expect(runner.session.document.records[0].title == "y")
    }
  }
}
