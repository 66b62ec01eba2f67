import Foundation

/// A fresh folder per test, removed when the test's value goes away.
final class TempFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("recsh-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

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
