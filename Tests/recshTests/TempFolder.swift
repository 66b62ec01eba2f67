import Foundation

@testable import RecordShell

/// The state folder (`RECSH_STATE_DIR`) of a recsh the tests run in `directory`: a sibling,
/// `DIRECTORY.state`, so the working folder holds only the user's files and a test's
/// histories never meet another's (nor the user's own state folder).
func stateFolder(for directory: URL) -> String { directory.path + ".state" }

/// A fresh folder per test, removed when the test's value goes away.
final class TempFolder {
  let url: URL

  init() throws {
    // In-process sessions of these tests (a model beside the binary) wait out a lock held
    // for a moment by a child process between fork and exec (`Journal.lockAttempts`).
    Journal.lockAttempts = 200
    url = FileManager.default.temporaryDirectory.appendingPathComponent("recsh-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
    try? FileManager.default.removeItem(atPath: statePath)
  }

  /// The full path of `name` in this folder (an absolute path, say a log's, as it is).
  func path(_ name: String) -> String { name.hasPrefix("/") ? name : url.appendingPathComponent(name).path }

  /// The state folder recsh uses when run in this folder (`stateFolder(for:)`).
  var statePath: String { stateFolder(for: url) }

  /// The history log recsh keeps for the file `name` of this folder.
  func logPath(_ name: String) -> String {
    StateFolder(path: statePath).logPath(forDataFile: path(name))
  }

  /// The merge conflicts recsh keeps for the file `name` of this folder.
  func conflictsPath(_ name: String) -> String {
    StateFolder(path: statePath).conflictsPath(forDataFile: path(name))
  }

  /// The names in the state folder, sorted; none when it does not exist.
  func stateEntries() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: statePath)) ?? []).sorted()
  }

  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    try text.write(toFile: path(name), atomically: false, encoding: .utf8)
    return path(name)
  }

  func read(_ name: String) throws -> String {
    try String(contentsOfFile: path(name), encoding: .utf8)
  }

  func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

  /// Runs recsh with this folder as the working directory.
  func recsh(_ arguments: [String], stdin: String = "") throws -> RecshBinary.Result {
    try RecshBinary.run(arguments, stdin: stdin, directory: url)
  }

  func recsh(_ arguments: [String], stdinBytes: [UInt8]) throws -> RecshBinary.Result {
    try RecshBinary.run(arguments, stdinBytes: stdinBytes, directory: url)
  }

  /// A task file with records a1, b2, c3 (titles "one", "two", "three").
  @discardableResult
  func threeTasks(_ name: String = "t.json") throws -> String {
    try write(
      name,
      """
      [
        {
          "id": "a1aaaaaa",
          "title": "one",
          "done": false,
          "priority": 1
        },
        {
          "id": "b2bbbbbb",
          "title": "two",
          "tags": [
            "work"
          ]
        },
        {
          "id": "c3cccccc",
          "title": "three",
          "color": "red"
        }
      ]

      """)
  }
}
