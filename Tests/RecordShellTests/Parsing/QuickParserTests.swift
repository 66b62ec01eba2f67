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

  /// The word-at-a-time test says whether a word holds a quote, a backslash, a control
  /// character or DEL exactly as looking at each byte does: random words (many with high
  /// bytes, as UTF-8 text has), and words with one such byte at each place.
  @Test func theWordTestAgreesWithTheBytes() {
    func special(_ byte: UInt8) -> Bool { byte == 0x22 || byte == 0x5C || byte < 0x20 || byte == 0x7F }
    func bytewise(_ word: UInt64) -> Bool {
      (0..<8).contains { special(UInt8(truncatingIfNeeded: word >> (8 * $0))) }
    }
    var generator = SplitMix64(seed: 19)
    var words: [UInt64] = (0..<50_000).map { _ in UInt64.random(in: .min ... .max, using: &generator) }
    let plain: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7E, 0x80, 0xC3, 0xA9, 0xFF, 0x41, 0x61]
    for byte in plain + [0x00, 0x1F, 0x22, 0x5C, 0x7F] {
      for place in 0..<8 {
        var word: UInt64 = 0
        for other in 0..<8 {
          let filler = plain[Int.random(in: 0..<plain.count, using: &generator)]
          word |= UInt64(other == place ? byte : filler) << (8 * other)
        }
        words.append(word)
      }
    }
    var held = 0
    for word in words {
      #expect(QuickParser.holdsSpecial(word) == bytewise(word), "\(String(word, radix: 16))")
      if bytewise(word) { held += 1 }
    }
    #expect(held > 1_000 && held < words.count - 1_000)
  }

  /// Bare words of every length up to 40 as the id of a `use`, sometimes with a byte that
  /// ends the word early at any place inside it: the fast lane answers exactly when the
  /// whole id is one word, with that word.
  @Test func bareWordsOfEveryLength() {
    let plain = ["a", "Z", "0", "-", "_", "é", "#", ",", "\\"]
    let ending = ["\"", "'", ";", "[", "]", "\t", "\u{7F}", "\u{01}"]
    var generator = SplitMix64(seed: 31)
    for length in 1...40 {
      for _ in 0..<30 {
        var text = (0..<length).map { _ in plain[Int.random(in: 0..<plain.count, using: &generator)] }
        if text[0] == "#" { text[0] = "a" }
        // Inside the id, so that a tab (a space) is not its last byte.
        let ends = length > 2 && Bool.random(using: &generator)
        if ends {
          text[Int.random(in: 1..<(length - 1), using: &generator)] = ending.randomElement(using: &generator)!
        }
        let id = text.joined()
        #expect(quick.parse("use " + id) == (ends ? nil : .use(ref: id)), "\(id.debugDescription)")
      }
    }
  }

  /// Quoted values of every length up to 40 (the word-at-a-time scan and the bytes after
  /// it), sometimes with a byte that sends the line to the full parser at any place.
  @Test func quotedValuesOfEveryLength() {
    let plain = ["a", "Z", " ", "é", "東", "#", ";", ",", "[", "'"]
    let refused = ["\"", "\\", "\t", "\u{7F}", "\u{01}"]
    var generator = SplitMix64(seed: 23)
    for length in 0...40 {
      for _ in 0..<30 {
        var text = (0..<length).map { _ in plain[Int.random(in: 0..<plain.count, using: &generator)] }
        let refuses = length > 0 && Bool.random(using: &generator)
        if refuses {
          text[Int.random(in: 0..<length, using: &generator)] = refused.randomElement(using: &generator)!
        }
        let value = text.joined()
        let parsed = quick.parse("set title \"\(value)\"")
        if refuses {
          #expect(parsed == nil, "\(value.debugDescription)")
        } else {
          #expect(parsed == .set([FieldAssignment("title", .quoted(value))]), "\(value.debugDescription)")
        }
      }
    }
  }
}
