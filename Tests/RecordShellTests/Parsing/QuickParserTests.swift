import RecordKit
import Testing

@testable import RecordShell

/// The parser's fast lane must give exactly what the full parser gives, or step aside.
@Suite struct QuickParserTests {
  let quick = QuickParser(kind: TaskRecord.self)
  /// The selected record has a custom key `color`, which only the full parser knows.
  let context = ParseContext(kind: TaskRecord.self, customFields: ["color"])

  @Test(arguments: [
    ("use k3x9p2aa", ShellCommand.use(ref: "k3x9p2aa")),
    ("  use\t@12  ", .use(ref: "@12")),
    ("use k3x\r", .use(ref: "k3x")),
    ("set title \"Renew passport\"", .set([FieldAssignment("title", .quoted("Renew passport"))])),
    ("set title café", .set([FieldAssignment("title", .word("café"))])),
    ("set priority 3", .set([FieldAssignment("priority", .word("3"))])),
    ("set done true ", .set([FieldAssignment("done", .word("true"))])),
    ("set detail \"東京 👍🏽 a#b, c\"", .set([FieldAssignment("detail", .quoted("東京 👍🏽 a#b, c"))])),
    ("set due null", .set([FieldAssignment("due", .word("null"))])),
    ("set title a,b\\c", .set([FieldAssignment("title", .word("a,b\\c"))])),
  ])
  func takesTheCommonLines(line: String, expected: ShellCommand) throws {
    #expect(quick.parse(line) == expected)
    #expect(try ShellParser.parse(line, context: context) == [expected])
  }

  @Test(arguments: [
    "use", "use a b", "use \"k3x\"", "use k3x # comment", "use k3x; show", "USE k3x", "use!",
    "set", "set title", "set title \"a\\\"b\"", "set title \"a\"b", "set title 'a'", "set title [a]",
    "set title a b", "set title x priority 2", "set id x", "set color red", "set +color red",
    "set nosuch 1", "set title \"unterminated", "set title #x", "set title \"tab\there\"", "set \"title\" x",
    "show", "# use k3x", "",
  ])
  func leavesTheRestToTheFullParser(line: String) {
    #expect(quick.parse(line) == nil)
  }

  /// Random lines made of the pieces either parser treats specially: whenever the
  /// fast lane answers, the full parser gives the same single command.
  @Test func agreesWithTheFullParserOnRandomLines() {
    let pieces = [
      "use", "set", "us", "sett", "Use", "k3x9p2aa", "@2", "title", "priority", "done", "due", "id",
      "color", "+color", "tags", "3", "9", "-1", "true", "null", "café", "東京", "\"a b\"", "\"\"",
      "\"x\\\"y\"", "\"é\"", "'q'", "[a, b]", "#", "a#b", ";", ",", "\\", "\"glued\"x", "x\"glued\"",
    ]
    let separators = [" ", " ", "  ", "\t", "\r", ""]
    var generator = SplitMix64(seed: 7)
    var answered = 0
    for _ in 0..<20_000 {
      var line = Bool.random(using: &generator) ? "" : separators.randomElement(using: &generator)!
      line += ["use", "set", "set"].randomElement(using: &generator)!
      for _ in 0..<Int.random(in: 0...3, using: &generator) {
        line += separators.randomElement(using: &generator)! + pieces.randomElement(using: &generator)!
      }
      if Bool.random(using: &generator) { line += separators.randomElement(using: &generator)! }
      guard let fast = quick.parse(line) else { continue }
      answered += 1
      #expect((try? ShellParser.parse(line, context: context)) == [fast], "\(line.debugDescription)")
    }
    // The lane must actually be taken: about a fifth of these lines are simple ones.
    #expect(answered > 1_000)
  }
}
