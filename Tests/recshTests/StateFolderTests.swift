import Foundation
import Glibc
import Testing

/// Where recsh keeps its state, through the built binary: nothing beside the user's files,
/// nothing written by a session that changes nothing, one folder per user that must be
/// private, a first edit refused when another session holds or changed the file, and an
/// earlier recsh's beside-the-file history moved in.
@Suite struct StateFolderTests {
  /// Every entry under `path` (hidden ones too) with its size, modification time and mode:
  /// what "left as it was" compares.
  static func snapshot(_ path: String) -> [String: String] {
    var entries: [String: String] = [:]
    guard let walker = FileManager.default.enumerator(atPath: path) else { return entries }
    for case let name as String in walker {
      var status = stat()
      guard lstat(path + "/" + name, &status) == 0 else { continue }
      entries[name] =
        "\(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec) \(String(status.st_mode, radix: 8))"
    }
    return entries
  }

  @Test(arguments: [
    ["-c", "list"], ["-c", "count"], ["-c", "fields"], ["-c", "schema"], ["-c", "diff"], ["-c", "history"],
    ["-c", "history info"], ["-c", "list; show a1aaaaaa; count done=false; history all"],
  ])
  func aSessionThatChangesNothingWritesNothing(_ arguments: [String]) throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    // A history from an earlier session, so that the state folder has something to keep as it is.
    #expect(try folder.recsh(["t.json", "-c", "use a1aaaaaa; set title earlier; save"]).status == 0)
    let data = Self.snapshot(folder.url.path)
    let state = Self.snapshot(folder.statePath)
    #expect(!state.isEmpty)
    // Later than the last write, so a write now would show in the modification times.
    usleep(20_000)
    let result = try folder.recsh(["t.json"] + arguments)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Self.snapshot(folder.url.path) == data, "the data folder is as it was")
    #expect(Self.snapshot(folder.statePath) == state, "the state folder is as it was")
  }

  @Test func aFileNeverEditedLeavesNoStateFolderAtAll() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    for arguments in [
      ["t.json", "-c", "list"], ["t.json", "-c", "history info"], ["diff", "t.json", "t.json"],
    ] {
      #expect(try folder.recsh(arguments).status == 0)
    }
    #expect(!FileManager.default.fileExists(atPath: folder.statePath), "nothing made on first need only")
  }

  /// A save with no edit writes the file's own bytes back and nothing else: no log, no
  /// copy of the file in one (for a file of any kind), and the file is byte-identical.
  @Test func aSaveOfAFileNeverEditedStartsNoHistory() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let books = #"[{"isbn": "1", "year": 2001}, {"isbn": "2", "year": 1999}]"# + "\n"
    try books.write(to: folder.url.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
    let before = try Data(contentsOf: folder.url.appendingPathComponent("t.json"))
    for arguments in [
      ["t.json", "-c", "save"], ["b.json", "-c", "save"], ["t.json", "-c", "begin; end; save"],
    ] {
      let result = try folder.recsh(arguments)
      #expect(result.status == 0, "\(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.statePath), "no log was started")
    #expect(try Data(contentsOf: folder.url.appendingPathComponent("t.json")) == before)
    #expect(try String(contentsOf: folder.url.appendingPathComponent("b.json"), encoding: .utf8) == books)
    // After an edit, the save notes it in the log as before.
    #expect(try folder.recsh(["t.json", "-c", "use a1aaaaaa; set title x; save"]).status == 0)
    #expect(FileManager.default.fileExists(atPath: folder.statePath))
  }

  @Test func anEditAndASaveLeaveNothingBesideTheFile() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try folder.recsh(["t.json", "-c", "use a1aaaaaa; set title x; save; new title y; save"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["t.json"])
    // The state folder is private, and holds the file's log, named by the file.
    var status = stat()
    #expect(stat(folder.statePath, &status) == 0)
    #expect(status.st_mode & 0o777 == 0o700)
    let entries = folder.stateEntries()
    #expect(entries.count == 1)
    #expect(entries.first?.wholeMatch(of: /t\.json-[0-9a-f]{16}\.log/) != nil, "\(entries)")
    #expect(stat(folder.logPath("t.json"), &status) == 0)
    #expect(status.st_mode & 0o777 == 0o600)
  }

  @Test func theStateFolderComesFromTheOptionBeforeTheEnvironment() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let other = folder.url.path + ".other"
    defer { try? FileManager.default.removeItem(atPath: other) }
    let result = try folder.recsh(["--state-dir", other, "t.json", "-c", "use a1aaaaaa; set title x"])
    #expect(result.status == 0)
    #expect(folder.stateEntries().isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: other).count == 1)
    let undone = try folder.recsh(["--state-dir", other, "t.json", "-c", "redo; show a1aaaaaa"])
    #expect(undone.stdout.contains("title     x\n"), "the history is found there again")
  }

  @Test func twoFilesOfOneNameInTwoFoldersKeepTheirOwnHistories() throws {
    let folder = try TempFolder()
    for sub in ["a", "b"] {
      try FileManager.default.createDirectory(atPath: folder.path(sub), withIntermediateDirectories: false)
      try folder.threeTasks(sub + "/t.json")
    }
    #expect(try folder.recsh(["a/t.json", "-c", "use a1aaaaaa; set title in-a; save"]).status == 0)
    #expect(try folder.recsh(["b/t.json", "-c", "use b2bbbbbb; set title in-b; save"]).status == 0)
    #expect(folder.stateEntries().count == 2)
    let a = try folder.recsh(["a/t.json", "-c", "history"])
    let b = try folder.recsh(["b/t.json", "-c", "history"])
    #expect(a.stdout.contains("Set title") && b.stdout.contains("Set title"))
    #expect(try folder.recsh(["a/t.json", "-c", "undo; save"]).status == 0)
    #expect(try folder.read("a/t.json").contains("\"title\": \"one\""))
    #expect(try folder.read("b/t.json").contains("\"title\": \"in-b\""), "b's history is its own")
    // The same file named through its folder's path is the same history.
    let again = try RecshBinary.run(
      [folder.path("b/t.json"), "-c", "undo; show b2bbbbbb"], directory: folder.url,
      environment: ["RECSH_STATE_DIR": folder.statePath])
    #expect(again.stdout.contains("title     two\n"), "\(again.stderr)")
  }

  @Test(arguments: [0o777, 0o770, 0o707])
  func aStateFolderOthersCanWriteIsRefusedAtTheFirstEdit(_ mode: Int) throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    try FileManager.default.createDirectory(atPath: folder.statePath, withIntermediateDirectories: false)
    #expect(chmod(folder.statePath, mode_t(mode)) == 0)
    let list = try folder.recsh(["t.json", "-c", "list"])
    #expect(list.status == 0, "reading still works")
    #expect(list.stdout.hasSuffix("(3 records)\n"))
    let before = try folder.read("t.json")
    let edit = try folder.recsh(["-k", "t.json", "-c", "use a1aaaaaa; set title x; save"])
    #expect(edit.status == 3)
    let who = mode & 0o070 != 0 ? (mode & 0o007 != 0 ? "group and others" : "group") : "others"
    #expect(
      edit.stderr
        == "<command>:1: error: recsh's state folder \"\(folder.statePath)\" is unsafe: \(who) can write it "
        + "(mode \(String(mode, radix: 8))); 'chmod 700' makes it private; no edit is made until it is fixed "
        + "(or --state-dir names another)\n")
    #expect(try folder.read("t.json") == before)
    #expect(folder.stateEntries().isEmpty, "nothing written into it")
  }

  /// Another owner needs root to arrange; the in-process tests check it through the seam
  /// (`StateFolderSessionTests`), and this one runs it for real where the tests are root.
  @Test func aStateFolderOfAnotherUserIsRefusedWhenTheTestsCanMakeOne() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    try FileManager.default.createDirectory(atPath: folder.statePath, withIntermediateDirectories: false)
    #expect(chmod(folder.statePath, 0o700) == 0)
    guard geteuid() == 0 else {
      // Not root: chown must fail, and the seam's test covers the refusal.
      #expect(chown(folder.statePath, 12345, 12345) != 0)
      return
    }
    #expect(chown(folder.statePath, 12345, 12345) == 0)
    #expect(try folder.recsh(["t.json", "-c", "list"]).status == 0)
    let edit = try folder.recsh(["t.json", "-c", "use a1aaaaaa; set title x"])
    #expect(edit.status == 3)
    #expect(
      edit.stderr.contains("is unsafe: it belongs to another user (uid 12345, not 0)"), "\(edit.stderr)")
  }

  @Test func aSecondSessionsEditAfterTheFirstOneSavedIsRefused() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let second = try InteractivePipe(arguments: ["t.json"], directory: folder.url)
    second.send("list\n")
    _ = try second.readUntil("(3 records)")
    #expect(try folder.recsh(["t.json", "-c", "use a1aaaaaa; set title first; save"]).status == 0)
    second.send("use b2bbbbbb\nset title second\nsave\n")
    let result = second.finish()
    #expect(result.status == 3)
    #expect(
      result.stderr.hasSuffix(
        "<stdin>:3: error: \"t.json\" or its history was changed by another session since this one opened it; "
          + "'open! t.json' reloads it\n"), "\(result.stderr)")
    let file = try folder.read("t.json")
    #expect(file.contains("\"title\": \"first\"") && !file.contains("second"))
    let history = try folder.recsh(["t.json", "-c", "history"])
    #expect(history.stdout.components(separatedBy: "Set title").count == 2, "one step, the first session's")
  }

  /// An earlier recsh kept the history beside the file: the first edit moves it into the
  /// state folder, once, with a message, and the history goes on from it.
  @Test func anOldHistoryBesideTheFileIsMovedInAtTheFirstEdit() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    // Made by this recsh, then put where an earlier one kept it.
    #expect(try folder.recsh(["t.json", "-c", "use a1aaaaaa; set title old; save"]).status == 0)
    try FileManager.default.moveItem(
      atPath: folder.logPath("t.json"), toPath: folder.path(".t.json.recsh-journal"))
    let old = try Data(contentsOf: URL(fileURLWithPath: folder.path(".t.json.recsh-journal")))
    let reader = try folder.recsh(["t.json", "-c", "history"])
    #expect(reader.stdout.contains("Set title"), "read from beside the file")
    #expect(folder.exists(".t.json.recsh-journal") && folder.stateEntries().isEmpty, "reading moves nothing")
    let edit = try folder.recsh(["t.json", "-c", "undo; save"])
    #expect(edit.status == 0, "\(edit.stderr)")
    #expect(
      edit.stderr
        == "<command>:1: warning: moved the history of \"t.json\" from \".t.json.recsh-journal\" into recsh's "
        + "state folder, as \"\(folder.logPath("t.json"))\"\n")
    #expect(!folder.exists(".t.json.recsh-journal"))
    let moved = try Data(contentsOf: URL(fileURLWithPath: folder.logPath("t.json")))
    #expect(moved.prefix(old.count) == old, "the same log, continued")
    #expect(try folder.read("t.json").contains("\"title\": \"one\""))
    let next = try folder.recsh(["t.json", "-c", "redo; save"])
    #expect(next.status == 0)
    #expect(next.stderr.isEmpty, "moved once")
    #expect(try folder.read("t.json").contains("\"title\": \"old\""))
  }

  /// A dead session's journal beside the file is recovered as any other: refused without a
  /// choice, replayed (and moved in) with `--recover`.
  @Test func aDeadSessionsJournalBesideTheFileIsRecovered() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let child = try InteractivePipe(arguments: ["t.json"], directory: folder.url)
    child.send("use a1aaaaaa\nset title killed\nshow\n")
    _ = try child.readUntil("killed")
    kill(child.process.processIdentifier, SIGKILL)
    child.process.waitUntilExit()
    try FileManager.default.moveItem(
      atPath: folder.logPath("t.json"), toPath: folder.path(".t.json.recsh-journal"))
    let refused = try folder.recsh(["t.json", "-c", "list"])
    #expect(refused.status == 3)
    #expect(refused.stderr.contains("has a journal of 1 unsaved change"))
    let recovered = try folder.recsh(["--recover", "t.json", "-c", "show a1aaaaaa; save"])
    #expect(recovered.status == 0, "\(recovered.stderr)")
    #expect(recovered.stdout.contains("title     killed"))
    #expect(recovered.stderr.contains("moved the history of \"t.json\" from \".t.json.recsh-journal\""))
    #expect(!folder.exists(".t.json.recsh-journal"))
    #expect(try folder.read("t.json").contains("\"title\": \"killed\""))
  }

  @Test func oldConflictsBesideTheFileAreMovedInWhenItIsOpened() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let conflicts = """
      {"recsh-conflicts":1,"hash":"0000000000000000"}
      {"key":"a1aaaaaa","field":"title","base":"zero","ours":"one","theirs":"uno"}

      """
    try folder.write(".t.json.recsh-conflicts", conflicts)
    let result = try folder.recsh(["t.json", "-c", "conflicts"])
    #expect(result.status == 0)
    #expect(
      result.stderr.hasPrefix(
        "t.json: warning: moved the merge conflicts of \"t.json\" from \".t.json.recsh-conflicts\" into "
          + "recsh's state folder, as \"\(folder.conflictsPath("t.json"))\"\n"), "\(result.stderr)")
    #expect(result.stdout.contains("a1aaaaaa title: \"zero\" → \"one\" | \"uno\""))
    #expect(!folder.exists(".t.json.recsh-conflicts"))
    #expect(try folder.read(folder.conflictsPath("t.json")) == conflicts)
  }

  @Test func historyInfoSaysWhereHowBigHowManyAndTheBackups() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let none = try folder.recsh(["t.json", "-c", "history info"])
    #expect(
      none.stdout
        == """
        history of t.json: \(folder.logPath("t.json"))
        size on disk: none yet (written at this session's first change)
        steps: 0 kept (numbered up to 0)
        backups: none

        """)
    #expect(try folder.recsh(["t.json", "-c", "use a1aaaaaa; set title x; set title y; save"]).status == 0)
    // A history of another kind is set aside at that kind's first edit.
    #expect(try folder.recsh(["--kind", "contact", "t.json", "-c", "use a1aaaaaa; set name z"]).status == 0)
    let info = try folder.recsh(["--kind", "contact", "t.json", "-c", "history info"])
    let lines = info.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.count == 7, "\(info.stdout)")
    #expect(lines[0] == "history of t.json: \(folder.logPath("t.json"))")
    var status = stat()
    #expect(stat(folder.logPath("t.json"), &status) == 0)
    #expect(lines[1] == "size on disk: \(status.st_size) bytes")
    #expect(lines[2] == "steps: 1 kept (numbered up to 1)")
    #expect(lines[3].hasPrefix("oldest step: 20"))
    #expect(lines[4] == "backups: 1 (at most 3 are kept)")
    #expect(lines[5].hasPrefix("  \(folder.statePath)/t.json-") && lines[5].hasSuffix(" bytes)"))
  }

  /// Backups pile up no more than three per file: the oldest is removed, with a message.
  @Test func atMostThreeBackupsAreKept() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let kinds = ["task", "contact"]
    for round in 0..<5 {
      let kind = kinds[round % 2]
      let result = try RecshBinary.run(
        ["--kind", kind, "t.json", "-c", "use a1aaaaaa; set \(kind == "task" ? "title" : "name") r\(round)"],
        directory: folder.url,
        environment: ["RECSH_STATE_DIR": folder.statePath])
      #expect(result.status == 0, "\(result.stderr)")
      if round == 4 {
        #expect(result.stderr.contains("warning: removed the oldest backup \""), "\(result.stderr)")
        #expect(result.stderr.contains("(at most 3 are kept per file)"))
      }
    }
    #expect(folder.stateEntries().filter { $0.hasSuffix(".bak") }.count == 3)
  }
}

extension StateFolderTests {
  /// A "save as" carries the history to the new file, whose log starts from the bytes
  /// the session opened: undoing everything later gives those bytes back.
  @Test func saveAsCarriesTheHistoryToTheNewFile() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let original = try folder.read("t.json")
    let edited = try folder.recsh([
      "t.json", "-c", "use a1aaaaaa; set title x; save out.json; set title y; save",
    ])
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(try folder.read("t.json") == original, "the old file is as it was")
    let history = try folder.recsh(["out.json", "-c", "history"])
    #expect(history.stdout.components(separatedBy: "Set title").count == 3, "\(history.stdout)")
    #expect(try folder.recsh(["out.json", "-c", "undo 2; save"]).status == 0)
    #expect(try folder.read("out.json") == original, "undone across sessions: the bytes opened")
  }

  @Test func saveAsOfAnUneditedFileStartsTheNewHistoryAtItsBytes() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let original = try folder.read("t.json")
    #expect(try folder.recsh(["t.json", "-c", "save out.json"]).status == 0)
    #expect(try folder.read("out.json") == original)
    #expect(folder.stateEntries().count == 1, "the new file's log only: \(folder.stateEntries())")
    #expect(try folder.recsh(["out.json", "-c", "use c3cccccc; delete; save"]).status == 0)
    let undone = try folder.recsh(["out.json", "-c", "undo; save"])
    #expect(undone.status == 0, "\(undone.stderr)")
    #expect(try folder.read("out.json") == original)
  }
}
