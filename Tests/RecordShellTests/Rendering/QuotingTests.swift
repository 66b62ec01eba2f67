import RecordKit
import Testing

@testable import RecordShell

/// The quoting of a CSV cell and of an exported script's strings: every quote and
/// backslash is found by scalar, also one that a combining mark joins into one character
/// with the next; what a terminal would not show is escaped in a script.
@Suite struct QuotingTests {
  @Test func aCSVCellDoublesEveryQuoteEvenOneJoinedToACombiningMark() {
    let csv = RecordOutput.separated(
      header: ["t"], rows: [[.string("a\"\u{301}b")], [.string("plain")]], tabs: false)
    #expect(csv == "t\r\n\"a\"\"\u{301}b\"\r\nplain")
  }

  @Test(arguments: [
    ("plain", "'plain'"),
    ("it's", #""it's""#),
    ("q\"\u{301}'", "\"q\\\"\u{301}'\""),
    ("back\\slash's", #""back\\slash's""#),
    ("tab\there", #""tab\there""#),
    ("a\u{202E}b", #""a\u{202e}b""#),
  ])
  func aScriptStringReadsBackAsItself(_ text: String, _ expected: String) throws {
    let quoted = ScriptWords.quoted(text)
    #expect(quoted == expected)
    // The tokenizer reads it back as the same text.
    let commands = try Tokenizer.tokenize("set title " + quoted)
    #expect(commands.first?.tokens.last?.value == .quoted(text))
  }
}
