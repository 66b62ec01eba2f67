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
