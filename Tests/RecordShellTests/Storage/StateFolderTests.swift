import Foundation
import Glibc
import Testing

@testable import RecordShell

/// Where recsh keeps a data file's state: which folder, under which names, and when a
/// folder may not be used.
struct StateFolderTests {
  /// An environment of `values`, and a home folder that is asked only when `HOME` is not set.
  static func resolve(_ values: [String: String], explicit: String? = nil, home: String? = "/home/u")
    -> String?
  {
    StateFolder.resolve(explicit: explicit, environment: { values[$0] }, home: { home })?.path
  }

  @Test func theFolderComesFromTheOptionThenTheEnvironmentThenHome() {
    let all = ["RECSH_STATE_DIR": "/s", "XDG_STATE_HOME": "/x", "HOME": "/h"]
    #expect(Self.resolve(all, explicit: "/o") == "/o")
    #expect(Self.resolve(all) == "/s")
    #expect(Self.resolve(["XDG_STATE_HOME": "/x", "HOME": "/h"]) == "/x/recsh")
    // The XDG convention: a relative XDG_STATE_HOME is invalid and ignored.
    #expect(Self.resolve(["XDG_STATE_HOME": "x", "HOME": "/h"]) == "/h/.local/state/recsh")
    #expect(Self.resolve(["RECSH_STATE_DIR": "", "HOME": "/h"]) == "/h/.local/state/recsh")
    #expect(Self.resolve([:]) == "/home/u/.local/state/recsh")
    #expect(Self.resolve([:], home: nil) == nil)
  }

  @Test func aRelativeFolderIsTakenFromTheCurrentFolder() throws {
    let cwd = try #require(FileManager.default.currentDirectoryPath as String?)
    #expect(Self.resolve([:], explicit: "state") == cwd + "/state")
  }

  @Test func namesAreTheFileNameAndAHashOfItsCanonicalPath() throws {
    try TestDirectory.with { folder in
      try FileManager.default.createDirectory(atPath: folder.path("a"), withIntermediateDirectories: false)
      try FileManager.default.createDirectory(atPath: folder.path("b"), withIntermediateDirectories: false)
      let state = StateFolder(path: "/state")
      let first = state.logPath(forDataFile: folder.path("a/tasks.json"))
      let second = state.logPath(forDataFile: folder.path("b/tasks.json"))
      #expect(first != second, "two tasks.json in two folders never meet")
      let name = try #require(first.split(separator: "/").last.map(String.init))
      #expect(name.wholeMatch(of: /tasks\.json-[0-9a-f]{16}\.log/) != nil, "\(name)")
      #expect(first.hasPrefix("/state/"))
      // The same file named another way (a relative path, a linked folder) is the same file.
      #expect(symlink(folder.path("a"), folder.path("link")) == 0)
      #expect(state.logPath(forDataFile: folder.path("link/tasks.json")) == first)
      #expect(state.logPath(forDataFile: folder.path("a/./tasks.json")) == first)
      #expect(
        state.conflictsPath(forDataFile: folder.path("a/tasks.json"))
          == String(first.dropLast(".log".count)) + ".conflicts")
    }
  }

  @Test(arguments: [
    (0o777, "group and others can write it (mode 777)"), (0o770, "group can write it (mode 770)"),
    (0o702, "others can write it (mode 702)"),
  ])
  func aFolderOthersCanWriteIsUnsafe(mode: Int, reason: String) throws {
    try TestDirectory.with { folder in
      let path = folder.path("state")
      #expect(mkdir(path, 0o700) == 0)
      #expect(chmod(path, mode_t(mode)) == 0)
      let condition = StateFolder(path: path).check(using: PosixFileSystem())
      guard case .unsafe(let why) = condition else {
        Issue.record("mode \(String(mode, radix: 8)) was \(condition)")
        return
      }
      #expect(why.hasPrefix(reason), "\(why)")
      #expect(throws: StateFolderError.self) { try StateFolder(path: path).prepare(using: PosixFileSystem()) }
    }
  }

  @Test func aFileWhereTheFolderGoesIsUnsafeAndAPrivateFolderIsUsable() throws {
    try TestDirectory.with { folder in
      try folder.write("state", [1])
      #expect(
        StateFolder(path: folder.path("state")).check(using: PosixFileSystem())
          == .unsafe("it is a regular file, not a folder"))
      #expect(mkdir(folder.path("private"), 0o700) == 0)
      #expect(StateFolder(path: folder.path("private")).check(using: PosixFileSystem()) == .usable)
      #expect(StateFolder(path: folder.path("none")).check(using: PosixFileSystem()) == .missing)
    }
  }

  @Test func preparingMakesTheFolderAndTheOnesAboveIt0700() throws {
    try TestDirectory.with { folder in
      let state = StateFolder(path: folder.path("x/y/recsh"))
      try state.prepare(using: PosixFileSystem())
      for made in ["x", "x/y", "x/y/recsh"] {
        #expect(try folder.permissions(made) == 0o700, "\(made)")
      }
      // Again: nothing to do.
      try state.prepare(using: PosixFileSystem())
    }
  }

  @Test func atMostThreeBackupsAreKeptTheOldestGoFirst() throws {
    try TestDirectory.with { folder in
      let state = StateFolder(path: folder.path("state"))
      try state.prepare(using: PosixFileSystem())
      let log = state.logPath(forDataFile: folder.path("t.json"))
      let stem = String(log.dropLast(".log".count))
      for name in ["\(stem).100.bak", "\(stem).99.bak", "\(stem).100-2.bak", "\(stem).300.bak"] {
        try folder.write(name, [0])
      }
      // Another file's backup is not this one's.
      let other = state.logPath(forDataFile: folder.path("u.json")).dropLast(".log".count) + ".1.bak"
      try folder.write(String(other), [0])
      #expect(
        state.backups(ofLog: log, using: PosixFileSystem()).map { $0.dropFirst(stem.count) } == [
          ".99.bak", ".100.bak", ".100-2.bak", ".300.bak",
        ])
      let notes = state.pruneBackups(ofLog: log, using: PosixFileSystem())
      #expect(notes == ["removed the oldest backup \"\(stem).99.bak\" (at most 3 are kept per file)"])
      #expect(state.backups(ofLog: log, using: PosixFileSystem()).count == 3)
      #expect(folder.exists(String(other)))
      // A new backup's name is never one taken.
      #expect(state.backupPath(forLog: log, time: 100, using: PosixFileSystem()) == "\(stem).100-3.bak")
    }
  }
}
