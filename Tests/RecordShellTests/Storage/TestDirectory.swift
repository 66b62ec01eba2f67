import Foundation
import Glibc
import Testing

@testable import RecordShell

/// A fresh folder for one test, removed afterwards, with the few file helpers the
/// storage tests need. The tests run in parallel, so each gets its own folder.
struct TestDirectory {
  let path: String

  /// Runs `body` with a new empty folder under the system's temporary folder (or under
  /// `parent`: a test that reopens files thousands of times asks for a folder in memory).
  static func with<Result>(
    in parent: String = NSTemporaryDirectory(), _ body: (TestDirectory) throws -> Result
  )
    throws -> Result
  {
    var template = Array((parent + "/recsh-storage-XXXXXX").utf8CString)
    let created = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
    }
    let path = try #require(created)
    defer {
      try? FileManager.default.removeItem(atPath: path)
      try? FileManager.default.removeItem(atPath: path + ".state")
    }
    return try body(TestDirectory(path: path))
  }

  /// The state folder sessions on this folder's files use (`testState(for:)`).
  var state: StateFolder { testState(for: path + "/t.json") }

  /// The backups set aside in the state folder for `name`'s log, full paths, sorted.
  func backups(of name: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []
    return names.filter { $0.hasPrefix(name + "-") && $0.hasSuffix(".bak") }.sorted().map {
      state.path + "/" + $0
    }
  }

  /// The history log of `name` in this folder.
  func logPath(_ name: String) -> String { state.logPath(forDataFile: path(name)) }

  /// The full path of `name` in this folder (an absolute path, say a log's, as it is).
  func path(_ name: String) -> String { name.hasPrefix("/") ? name : path + "/" + name }

  /// Creates or replaces `name` with `bytes` and the given permission bits.
  @discardableResult
  func write(_ name: String, _ bytes: [UInt8], mode: mode_t = 0o644) throws -> String {
    let file = path(name)
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    #expect(chmod(file, mode) == 0)
    return file
  }

  func read(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
  }

  /// The names in this folder, sorted, hidden ones included.
  func entries(in subfolder: String? = nil) throws -> [String] {
    let folder = subfolder.map { path($0) } ?? path
    return try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
  }

  /// The status of `name` as `stat` or `lstat` sees it, independent of the seam.
  func status(_ name: String, followingLinks: Bool = true) throws -> Glibc.stat {
    var buffer = Glibc.stat()
    let result = followingLinks ? stat(path(name), &buffer) : lstat(path(name), &buffer)
    #expect(result == 0, "stat \(name): errno \(errno)")
    return buffer
  }

  func permissions(_ name: String) throws -> mode_t {
    try status(name).st_mode & 0o7777
  }

  func exists(_ name: String) -> Bool {
    var buffer = Glibc.stat()
    return lstat(path(name), &buffer) == 0
  }
}

/// The state folder of a test session on `dataPath`: a sibling of the file's folder,
/// `FOLDER.state`, removed with it (`TestDirectory.with`), so the folder holds only the
/// data files and no test's history meets another's or the user's.
/// Every test session comes here for its state folder, so this is also where the lock's
/// attempts are raised for tests (`Journal.lockAttempts`, `retryingLock`).
func testState(for dataPath: String) -> StateFolder {
  Journal.lockAttempts = 200
  let folder = dataPath.lastIndex(of: "/").map { String(dataPath[..<$0]) } ?? "."
  return StateFolder(path: folder + ".state")
}

/// The process umask, read from /proc because `umask(2)` can only be read by changing it,
/// which would race with the tests that create files in parallel.
func currentUmask() throws -> mode_t {
  let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
  let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
  let digits = line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces)
  return try #require(mode_t(digits, radix: 8))
}

/// Whether `name` looks like a temporary file left by a save.
func isTemporaryName(_ name: String) -> Bool {
  name.hasPrefix(".") && name.contains(".recsh-") && name.hasSuffix(".tmp")
}

/// `count` bytes of a repeating, recognisable pattern.
func sampleBytes(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
  (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
}
