import Foundation
import Testing

/// Bytes that are not UTF-8 are refused on every way in — `-c`, `--command=`, a sourced
/// file and the prompt (a pipe and `-s`: `ScriptModeTests`) — with the column and byte
/// where they are, and nothing changes; never stored as U+FFFD.
@Suite struct InvalidUTF8Tests {
  /// `set title "caf` + 0xE9 + `"`: the bad byte is the 15th of its line.
  static let badLine = Array("set title \"caf".utf8) + [0xE9] + Array("\"".utf8)

  /// Runs recsh in `folder` with arguments given as bytes, through `sh` (a `Process`
  /// takes only `String` arguments, which cannot hold such bytes).
  static func recsh(_ arguments: [[UInt8]], in folder: TempFolder) throws -> RecshBinary.Result {
    // Each argument goes through the environment as octal escapes that `printf` turns back
    // into its bytes; the `x` keeps trailing line feeds from `$(…)`, and is cut off again.
    var environment: [String: String] = [:]
    var script = ""
    var words: [String] = []
    for (index, argument) in arguments.enumerated() {
      environment["ARG\(index)"] = argument.map { "\\" + String($0, radix: 8) }.joined()
      script += "A\(index)=\"$(printf \"$ARG\(index)\"; echo x)\"; A\(index)=\"${A\(index)%x}\"; "
      words.append("\"$A\(index)\"")
    }
    script += "exec \"$RECSH\" " + words.joined(separator: " ")
    return try RecshBinary.runShell(script, environment: environment, directory: folder.url)
  }

  @Test func aCommandArgumentIsRefusedWithItsPlace() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let before = try folder.read("t.json")
    let text = Array("use a1\n".utf8) + Self.badLine + Array("\nsave".utf8)
    let result = try Self.recsh([Array("t.json".utf8), Array("-c".utf8), text], in: folder)
    #expect(result.status == 1)
    #expect(result.stderr == "<command>:2: error: column 15: invalid UTF-8 at byte offset 14\n")
    #expect(try folder.read("t.json") == before)
    let inline = try Self.recsh(
      [Array("t.json".utf8), Array("--command=use a1; ".utf8) + Self.badLine], in: folder)
    #expect(inline.status == 1)
    #expect(inline.stderr == "<command>:1: error: column 23: invalid UTF-8 at byte offset 22\n")
    #expect(try folder.read("t.json") == before)
  }

  @Test func aSourcedFileIsRefusedWithItsPlace() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let before = try folder.read("t.json")
    try Data(Array("use a1\n".utf8) + Self.badLine + Array("\n".utf8)).write(
      to: folder.url.appendingPathComponent("bad.rsh"))
    let result = try folder.recsh(["t.json", "-c", "source bad.rsh\nsave"])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "bad.rsh:2: error: column 15: invalid UTF-8 at byte offset 14\n<command>:1: note: in a file sourced from here\n"
    )
    #expect(try folder.read("t.json") == before)
  }

  @Test func aLineTypedAtThePromptIsRefusedAndTheShellGoesOn() throws {
    let (folder, terminal) = try PtyTests.started()
    try PtyTests.run("use @1", on: terminal, then: PtyTests.firstSelected)
    terminal.send(bytes: Self.badLine + Array("\r".utf8))
    try terminal.expect("error: column 15: invalid UTF-8 at byte offset 14")
    try terminal.waitForPrompt(PtyTests.firstSelected)
    terminal.send("show\r")
    try terminal.expect("title     one")
    try terminal.waitForPrompt(PtyTests.firstSelected)
    // Typed and deleted again before Return, a bad byte leaves the line good.
    terminal.send(bytes: Array("set title \"x".utf8) + [0xFF, 0x7F] + Array("y\"\r".utf8))
    try terminal.waitForPrompt("*> ")
    try PtyTests.run("save", on: terminal, then: "> ")
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
    #expect(try folder.read("t.json").contains("\"title\": \"xy\""))
  }
}
