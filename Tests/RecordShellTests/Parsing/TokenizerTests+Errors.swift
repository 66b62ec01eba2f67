import Testing

@testable import RecordShell

/// What the tokenizer refuses: the exact message and where it points.
extension TokenizerTests {
  static func error(of input: String) -> TokenizerError? {
    do {
      _ = try Tokenizer.tokenize(input)
      return nil
    } catch {
      return error
    }
  }

  static func error(ofBytes input: [UInt8]) -> TokenizerError? {
    do {
      _ = try input.withUnsafeBufferPointer { (bytes) throws(TokenizerError) in
        try Tokenizer.tokenize(utf8: bytes)
      }
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: [
    ("set title \"Buy milk", "column 11: unterminated string"),
    ("set title café \"x", "column 16: unterminated string"),
    ("set title 'it's'", "column 16: unterminated string"),
    ("\"a\\", "column 1: unterminated string"),
    ("日本 '語", "column 4: unterminated string"),
    ("set tags [a, b", "column 10: unterminated list"),
    ("[a, [b, c]", "column 1: unterminated list"),
    ("[a, [b", "column 5: unterminated list"),
    ("\"a\\qb\"", "column 3: unknown escape \\q"),
    ("set title \"x\\é\"", "column 13: unknown escape \\é"),
    ("\"\\ \"", "column 2: unknown escape: '\\' followed by U+0020"),
    ("\"\\\u{7}\"", "column 2: unknown escape: '\\' followed by U+0007"),
    ("\"\\u{D800}\"", "column 2: \\u{D800} is not a unicode scalar value"),
    ("café \"\\u{110000}\"", "column 7: \\u{110000} is not a unicode scalar value"),
    ("\"\\u1F600\"", "column 2: malformed unicode escape: expected \\u{…} with 1 to 6 hex digits"),
    ("\"\\u{}\"", "column 2: malformed unicode escape: expected \\u{…} with 1 to 6 hex digits"),
    ("\"\\u{1234567}\"", "column 2: malformed unicode escape: expected \\u{…} with 1 to 6 hex digits"),
    ("\"ab\\u{12G}\"", "column 4: malformed unicode escape: expected \\u{…} with 1 to 6 hex digits"),
    ("set tags a]", "column 11: unexpected ']' with no list open"),
    ("]", "column 1: unexpected ']' with no list open"),
    ("[a]]", "column 4: unexpected ']' with no list open"),
    ("[,]", "column 2: unexpected ',' in a list"),
    ("[a,,b]", "column 4: unexpected ',' in a list"),
    ("[a; b]", "column 3: unexpected ';' in a list"),
    ("[a,]", "column 3: trailing comma before ']'"),
    ("[é, b ,\n]", "column 7: trailing comma before ']'"),
    ("[a b]", "column 4: expected ',' or ']' after a list element"),
    ("[[a] [b]]", "column 6: expected ',' or ']' after a list element"),
    ("[\"a\" 'b']", "column 6: expected ',' or ']' after a list element"),
    ("set tags a[b]", "column 11: unexpected '[' inside a word"),
    ("\"a\"[b]", "column 4: unexpected '[' inside a word"),
    ("[a]b", "column 4: unexpected 'b' right after ']'"),
    ("[a]\"b\"", "column 4: unexpected '\"' right after ']'"),
    ("[a]'b'", "column 4: unexpected \"'\" right after ']'"),
    ("[a],[b]", "column 4: unexpected ',' right after ']'"),
    ("[[a]b]", "column 5: unexpected 'b' right after ']'"),
    ("[a]é", "column 4: unexpected 'é' right after ']'"),
    ("[a]\u{A0}", "column 4: unexpected U+00A0 right after ']'"),
    ("set title a\u{1B}b", "column 12: unexpected control character U+001B"),
    ("é\u{7F}", "column 2: unexpected control character U+007F"),
    ("\u{0}", "column 1: unexpected control character U+0000"),
    (String(repeating: "[", count: 33), "column 33: lists nested deeper than 32 levels"),
    ("a\n\"b", "line 2, column 1: unterminated string"),
    ("set detail \"x\ny\\q\"", "line 2, column 2: unknown escape \\q"),
    ("set tags [a,\n b c]", "line 2, column 4: expected ',' or ']' after a list element"),
    ("[a,\n # c\n", "column 1: unterminated list"),
  ])
  func badInputIsRefusedWithItsColumn(input: String, message: String) {
    #expect(Self.error(of: input)?.description == message)
  }

  @Test(
    arguments: [
      ([0x61, 0x20, 0xFF], "column 3: invalid UTF-8 at byte offset 2"),
      (Array("café ".utf8) + [0xC3], "column 6: invalid UTF-8 at byte offset 6"),
      (Array("a\n".utf8) + [0xED, 0xA0, 0x80], "line 2, column 1: invalid UTF-8 at byte offset 2"),
      (Array("\"é".utf8) + [0x80], "column 3: invalid UTF-8 at byte offset 3"),
      ([0xC0, 0xAF], "column 1: invalid UTF-8 at byte offset 0"),
      (Array("]".utf8) + [0xF5], "column 2: invalid UTF-8 at byte offset 1"),
    ] as [([UInt8], String)])
  func bytesThatAreNotUTF8AreRefusedBeforeAnythingElse(input: [UInt8], message: String) {
    #expect(Self.error(ofBytes: input)?.description == message)
  }

  @Test func theErrorKeepsItsReasonAndPositionAsValues() {
    #expect(
      Self.error(of: "set title \"x\\q\"") == TokenizerError(.unknownEscape("q"), line: 1, column: 13))
    #expect(Self.error(of: "[a,]")?.reason == .trailingComma)
  }

  @Test func theFirstErrorStopsTheWholeLine() {
    #expect(Self.error(of: "new; set title \"x\\q\"; list")?.column == 18)
  }
}
