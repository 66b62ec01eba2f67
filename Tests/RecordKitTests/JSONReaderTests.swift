import Testing

@testable import RecordKit

/// The team's corpus for `JSONReader`: what must be accepted (and as what), and what
/// must be refused, with the exact message and `LINE:COLUMN`.
@Suite struct JSONReaderTests {
  struct Accepted: Sendable, CustomTestStringConvertible {
    let name: String
    let source: [UInt8]
    let expected: JSONValue
    var testDescription: String { name }

    init(_ name: String, _ text: String, _ expected: JSONValue) {
      self.init(name, bytes: Array(text.utf8), expected)
    }

    init(_ name: String, bytes: [UInt8], _ expected: JSONValue) {
      self.name = name
      source = bytes
      self.expected = expected
    }
  }

  struct Rejected: Sendable, CustomTestStringConvertible {
    let name: String
    let source: [UInt8]
    let message: String
    let line: Int
    let column: Int
    var testDescription: String { name }

    init(_ name: String, _ text: String, _ message: String, at line: Int, _ column: Int) {
      self.init(name, bytes: Array(text.utf8), message, at: line, column)
    }

    init(_ name: String, bytes: [UInt8], _ message: String, at line: Int, _ column: Int) {
      self.name = name
      source = bytes
      self.message = message
      self.line = line
      self.column = column
    }
  }

  static func nested(_ depth: Int) -> JSONValue {
    (0..<depth).reduce(JSONValue.array([])) { inner, _ in .array([inner]) }
  }

  static let accepted: [Accepted] = [
    Accepted("zero", "0", .number("0")),
    Accepted("minus zero keeps its sign", "-0", .number("-0")),
    Accepted("minus zero point zero", "-0.0", .number("-0.0")),
    Accepted("trailing zero kept", "1.50", .number("1.50")),
    Accepted("exponent kept as spelled", "1e3", .number("1e3")),
    Accepted("capital exponent with plus", "1E+2", .number("1E+2")),
    Accepted("negative exponent", "2.5e-10", .number("2.5e-10")),
    Accepted("twenty-digit integer", "12345678901234567890", .number("12345678901234567890")),
    Accepted(
      "hundred-digit integer", String(repeating: "9", count: 100),
      .number(String(repeating: "9", count: 100))),
    Accepted("huge exponent", "[1e999999]", .array([.number("1e999999")])),
    Accepted("plain string", #""plain""#, .string("plain")),
    Accepted("empty string", #""""#, .string("")),
    Accepted(
      "every short escape", #""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{8}\u{C}\n\r\t")),
    Accepted("unicode escape", #""\u0041\u00e9\u00E9""#, .string("Aéé")),
    Accepted("escaped NUL", #""a\u0000b""#, .string("a\u{0}b")),
    Accepted("surrogate pair", #""\uD83D\uDE00""#, .string("😀")),
    Accepted("lowercase surrogate pair", #""\ud834\udd1e""#, .string("𝄞")),
    Accepted("raw emoji and accents", "\"😀 café 東京\"", .string("😀 café 東京")),
    Accepted("raw line separator", "\"a\u{2028}b\"", .string("a\u{2028}b")),
    Accepted("raw DEL", "\"a\u{7F}b\"", .string("a\u{7F}b")),
    Accepted("escaped BOM", #""\uFEFF""#, .string("\u{FEFF}")),
    Accepted("raw BOM inside a string", "\"\u{FEFF}x\"", .string("\u{FEFF}x")),
    Accepted("noncharacter U+FFFF", "\"\u{FFFF}\"", .string("\u{FFFF}")),
    Accepted("top scalar U+10FFFF", "\"\u{10FFFF}\"", .string("\u{10FFFF}")),
    Accepted("BOM at the start", "\u{FEFF}{\"a\":1}", .object(JSONObject(["a": .number("1")]))),
    Accepted("all four whitespace kinds", " \t\n\r[ 1 ,\t2 ]\r\n", .array([.number("1"), .number("2")])),
    Accepted("top-level true", "true", .bool(true)),
    Accepted("top-level null", " null ", .null),
    Accepted(
      "empty containers", #"[[],{},[{}]]"#,
      .array([.array([]), .object(JSONObject()), .array([.object(JSONObject())])])),
    Accepted(
      "key order kept", #"{"b":1,"a":2}"#,
      .object(JSONObject([.init(key: "b", value: .number("1")), .init(key: "a", value: .number("2"))]))),
    Accepted(
      "NFC and NFD keys are two keys", "{\"\u{E9}\":1,\"e\u{301}\":2}",
      .object(
        JSONObject([.init(key: "\u{E9}", value: .number("1")), .init(key: "e\u{301}", value: .number("2"))]))),
    Accepted("empty key", #"{"":0}"#, .object(JSONObject(["": .number("0")]))),
    Accepted(
      "256 levels of arrays", String(repeating: "[", count: 256) + String(repeating: "]", count: 256),
      nested(255)),
    Accepted(
      "256 levels of objects",
      String(repeating: #"{"a":"#, count: 255) + "{}" + String(repeating: "}", count: 255),
      (0..<255).reduce(JSONValue.object(JSONObject())) { inner, _ in .object(JSONObject(["a": inner])) }),
  ]

  @Test(arguments: accepted)
  func documentIsAcceptedAsTheExpectedValue(_ example: Accepted) throws {
    let value = try JSONReader.parseDocument(example.source)
    #expect(value == example.expected)
  }

  static let rejected: [Rejected] = [
    Rejected("empty file", "", "empty document", at: 1, 1),
    Rejected("whitespace only", "   \n  ", "empty document", at: 2, 3),
    Rejected("byte-order mark only", "\u{FEFF}", "empty document", at: 1, 1),
    Rejected("trailing comma in array", "[1,2,]", "trailing comma before ']'", at: 1, 5),
    Rejected("trailing comma in object", #"{"a":1,}"#, "trailing comma before '}'", at: 1, 7),
    Rejected("trailing comma before spaces", #"["a" , ]"#, "trailing comma before ']'", at: 1, 6),
    Rejected(
      "duplicate key on the next line", "{\"title\":\"a\",\n \"title\":\"b\"}",
      #"duplicate key "title""#, at: 2, 2),
    Rejected("duplicate key nested", #"{"a":{"b":1,"b":2}}"#, #"duplicate key "b""#, at: 1, 13),
    Rejected("duplicate key spelled with an escape", #"{"a":1,"\u0061":2}"#, #"duplicate key "a""#, at: 1, 8),
    Rejected(
      "duplicate key with a control character", #"{"a\n":1,"a\n":2}"#, #"duplicate key "a\n""#, at: 1, 10),
    Rejected(
      "duplicate key in a big object",
      "{\n" + (0..<20).map { "\"k\($0)\": 0,\n" }.joined() + "\"k5\": 0\n}", #"duplicate key "k5""#, at: 22, 1
    ),
    Rejected("missing comma", "[1 2]", "expected ',' or ']' after an array element, found '2'", at: 1, 4),
    Rejected("missing colon", #"{"a" 1}"#, "expected ':' after an object key, found '1'", at: 1, 6),
    Rejected("number key", "{1:2}", "expected a string key, found '1'", at: 1, 2),
    Rejected("single-quoted key", "{'a':1}", #"expected a string key, found "'""#, at: 1, 2),
    Rejected("comma opening an object", "{,}", "expected a string key, found ','", at: 1, 2),
    Rejected("double comma in object", #"{"a":1,,}"#, "expected a string key, found ','", at: 1, 8),
    Rejected("double comma in array", "[1,,2]", "expected a value, found ','", at: 1, 4),
    Rejected(
      "colon in array", #"["a":1]"#, "expected ',' or ']' after an array element, found ':'", at: 1, 5),
    Rejected(
      "missing comma between members", #"{"a":1 "b":2}"#,
      #"expected ',' or '}' after an object member, found '"'"#, at: 1, 8),
    Rejected("close without open", "]", "expected a value, found ']'", at: 1, 1),
    Rejected("garbage after the document", "[1] x", "unexpected 'x' after the document", at: 1, 5),
    Rejected("extra close", "[1]]", "unexpected ']' after the document", at: 1, 4),
    Rejected("second document", #"{"a":1}{}"#, "unexpected '{' after the document", at: 1, 8),
    Rejected("two numbers", "1 2", "unexpected '2' after the document", at: 1, 3),
    Rejected("literal run on", "nulls", "unexpected 's' after the document", at: 1, 5),
    Rejected("garbage lines later", "[1]\n\n  x", "unexpected 'x' after the document", at: 3, 3),
    Rejected("NUL after the document", "[1]\u{0}", "unexpected U+0000 after the document", at: 1, 4),
    Rejected("leading zero", "01", "leading zero in number", at: 1, 1),
    Rejected("negative leading zero", "-01", "leading zero in number", at: 1, 2),
    Rejected("plus sign", "+1", "expected a value, found '+'", at: 1, 1),
    Rejected("no integer part", ".5", "expected a value, found '.'", at: 1, 1),
    Rejected("no fraction digits", "1.", "expected a digit after '.' in number", at: 1, 3),
    Rejected("no exponent digits", "1e", "expected a digit in the exponent of number", at: 1, 3),
    Rejected("exponent sign only", "1e+", "expected a digit in the exponent of number", at: 1, 4),
    Rejected("minus only", "-", "expected a digit after '-' in number", at: 1, 2),
    Rejected("minus then letter", "[-a]", "expected a digit after '-' in number", at: 1, 3),
    Rejected("hex number", "[0x1]", "expected ',' or ']' after an array element, found 'x'", at: 1, 3),
    Rejected("NaN", "NaN", "expected a value, found 'N'", at: 1, 1),
    Rejected("Infinity", "[Infinity]", "expected a value, found 'I'", at: 1, 2),
    Rejected("minus Infinity", "-Infinity", "expected a digit after '-' in number", at: 1, 2),
    Rejected("truncated true", "tru", "invalid literal, expected 'true'", at: 1, 1),
    Rejected("misspelled null", "[nul]", "invalid literal, expected 'null'", at: 1, 2),
    Rejected("capitalized True", "[True]", "expected a value, found 'T'", at: 1, 2),
    Rejected("true run on", "[truex]", "expected ',' or ']' after an array element, found 'x'", at: 1, 6),
    Rejected("line comment first", "// c\n[]", "comments are not allowed in JSON", at: 1, 1),
    Rejected("block comment inside", "[1 /* c */]", "comments are not allowed in JSON", at: 1, 4),
    Rejected("comment after the document", #"{"a":1} // c"#, "comments are not allowed in JSON", at: 1, 9),
    Rejected("hash comment", "[1]\n# c", "unexpected '#' after the document", at: 2, 1),
    Rejected("unterminated string", #""abc"#, "unexpected end of input in string", at: 1, 5),
    Rejected("end after backslash", #""\"#, "unexpected end of input in string", at: 1, 3),
    Rejected("end inside \\u escape", #""\u00"#, "unexpected end of input in string", at: 1, 6),
    Rejected("end after comma", "[1,", "unexpected end of input in array", at: 1, 4),
    Rejected("end after element", "[1,2", "unexpected end of input in array", at: 1, 5),
    Rejected("end after bracket", "[", "unexpected end of input in array", at: 1, 2),
    Rejected("end after colon", #"{"a":"#, "unexpected end of input in object", at: 1, 6),
    Rejected("end after key", #"{"a""#, "unexpected end of input in object", at: 1, 5),
    Rejected("end after brace", "{", "unexpected end of input in object", at: 1, 2),
    Rejected("raw tab in string", "\"a\tb\"", "unescaped control character U+0009 in string", at: 1, 3),
    Rejected(
      "raw newline in string", "\"line\nbreak\"", "unescaped control character U+000A in string", at: 1, 6),
    Rejected("raw NUL in string", "\"nul\u{0}\"", "unescaped control character U+0000 in string", at: 1, 5),
    Rejected("raw U+001F in string", "\"\u{1F}\"", "unescaped control character U+001F in string", at: 1, 2),
    Rejected(
      "raw tab after an escape", "\"\\n\t\"", "unescaped control character U+0009 in string", at: 1, 4),
    Rejected("unknown escape", #""\x""#, #"invalid escape '\x' in string"#, at: 1, 2),
    Rejected(
      "escaped tab character", "\"\\\t\"", #"invalid escape: '\' followed by U+0009 in string"#, at: 1, 2),
    Rejected(
      "short \\u escape", #""\u12""#, #"invalid \u escape in string: expected 4 hex digits"#, at: 1, 2),
    Rejected(
      "non-hex \\u escape", #""\u12G4""#, #"invalid \u escape in string: expected 4 hex digits"#, at: 1, 2),
    Rejected("lone high surrogate", #""\uD800""#, #"lone surrogate \uD800 in string"#, at: 1, 2),
    Rejected("lone low surrogate", #""\uDC00""#, #"lone surrogate \uDC00 in string"#, at: 1, 2),
    Rejected("inverted surrogates", #""\uDC00\uD800""#, #"lone surrogate \uDC00 in string"#, at: 1, 2),
    Rejected("high surrogate then letter", #""\uD800\u0041""#, #"lone surrogate \uD800 in string"#, at: 1, 2),
    Rejected("high surrogate then raw text", #""ab\uD83Dx""#, #"lone surrogate \uD83D in string"#, at: 1, 4),
    Rejected("high surrogate then \\n", #""\uD83D\n""#, #"lone surrogate \uD83D in string"#, at: 1, 2),
    Rejected(
      "bad UTF-8 in a string", bytes: [0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D], "invalid UTF-8 at byte offset 2",
      at: 1, 3),
    Rejected("overlong slash", bytes: [0x22, 0xC0, 0xAF, 0x22], "invalid UTF-8 at byte offset 1", at: 1, 2),
    Rejected("overlong NUL", bytes: [0x22, 0xC0, 0x80, 0x22], "invalid UTF-8 at byte offset 1", at: 1, 2),
    Rejected(
      "encoded surrogate", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 at byte offset 1", at: 1, 2),
    Rejected(
      "code point past U+10FFFF", bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
      "invalid UTF-8 at byte offset 1",
      at: 1, 2),
    Rejected(
      "truncated sequence after an accent", bytes: [0x22, 0xC3, 0xA9, 0xE2, 0x82, 0x22],
      "invalid UTF-8 at byte offset 3", at: 1, 3),
    Rejected(
      "bad UTF-8 after an escape", bytes: [0x22, 0x5C, 0x6E, 0xFF, 0x22], "invalid UTF-8 at byte offset 3",
      at: 1, 4),
    Rejected(
      "bad UTF-8 in a key", bytes: Array(#"{""#.utf8) + [0xFF] + Array(#"":1}"#.utf8),
      "invalid UTF-8 at byte offset 2", at: 1, 3),
    Rejected(
      "bad UTF-8 outside strings", bytes: [0x5B, 0xFF, 0x5D], "invalid UTF-8 at byte offset 1", at: 1, 2),
    Rejected(
      "Latin-1 file", bytes: [0x22, 0x63, 0x61, 0x66, 0xE9, 0x22], "invalid UTF-8 at byte offset 4", at: 1, 5),
    Rejected("UTF-16LE", bytes: [0x5B, 0, 0x31, 0, 0x5D, 0], "the file is UTF-16LE, not UTF-8", at: 1, 1),
    Rejected(
      "UTF-16BE with BOM", bytes: [0xFE, 0xFF, 0, 0x5B, 0, 0x5D], "the file is UTF-16BE, not UTF-8", at: 1, 1),
    Rejected(
      "UTF-16LE with BOM", bytes: [0xFF, 0xFE, 0x5B, 0, 0x5D, 0], "the file is UTF-16LE, not UTF-8", at: 1, 1),
    Rejected("UTF-32LE", bytes: [0x31, 0, 0, 0], "the file is UTF-32LE, not UTF-8", at: 1, 1),
    Rejected("UTF-32BE", bytes: [0, 0, 0, 0x31], "the file is UTF-32BE, not UTF-8", at: 1, 1),
    Rejected("BOM between values", "[1,\u{FEFF}2]", "expected a value, found U+FEFF", at: 1, 4),
    Rejected("second BOM", "\u{FEFF}\u{FEFF}[]", "expected a value, found U+FEFF", at: 1, 1),
    Rejected("no-break space", "[1,\u{A0}2]", "expected a value, found U+00A0", at: 1, 4),
    Rejected("line separator outside strings", "[\u{2028}1]", "expected a value, found U+2028", at: 1, 2),
    Rejected("form feed as whitespace", "[\u{C}]", "expected a value, found U+000C", at: 1, 2),
    Rejected("bare word", "[é]", "expected a value, found U+00E9 'é'", at: 1, 2),
    Rejected(
      "columns count scalars", "{\n  \"tâche\": 1,\n  \"é\" 2}",
      "expected ':' after an object key, found '2'",
      at: 3, 7),
    Rejected("emoji is one column", "[\"😀\", x]", "expected a value, found 'x'", at: 1, 7),
    Rejected(
      "CRLF ends a line once", "[\r\n1\r\n2]", "expected ',' or ']' after an array element, found '2'", at: 3,
      1),
    Rejected(
      "lone CR ends a line", "[1\r2]", "expected ',' or ']' after an array element, found '2'", at: 2, 1),
    Rejected(
      "257 levels of arrays", String(repeating: "[", count: 257) + String(repeating: "]", count: 257),
      "nesting deeper than 256 levels", at: 1, 257),
    Rejected(
      "257 levels of objects",
      String(repeating: #"{"a":"#, count: 256) + "{}" + String(repeating: "}", count: 256),
      "nesting deeper than 256 levels", at: 1, 1281),
    Rejected(
      "100,000 open brackets", String(repeating: "[", count: 100_000), "nesting deeper than 256 levels",
      at: 1, 257),
    Rejected(
      "100,000 nested objects", String(repeating: #"{"a":"#, count: 100_000),
      "nesting deeper than 256 levels",
      at: 1, 1281),
    Rejected(
      "100,000 mixed levels", String(repeating: #"[{"a":"#, count: 50_000), "nesting deeper than 256 levels",
      at: 1, 769),
  ]

  @Test(arguments: rejected)
  func documentIsRejectedWithMessageAndPosition(_ example: Rejected) {
    guard let error = JSONTest.rejection(of: example.source) else { return }
    #expect(error.message == example.message)
    #expect(error.line == example.line)
    #expect(error.column == example.column)
  }

  @Test func errorDescriptionIsLineColonColumnColonMessage() {
    let error = JSONTest.rejection(of: "[\n  1,\n]")
    #expect(error?.description == "2:4: trailing comma before ']'")
    #expect(error?.offset == 5)
  }

  @Test func invalidUTF8IsReportedAtItsByteOffset() {
    let error = JSONTest.rejection(of: [0x5B, 0x0A, 0x22, 0x61, 0xFF, 0x22, 0x5D])
    #expect(error?.reason == .invalidUTF8(offset: 4))
    #expect(error?.offset == 4)
    #expect(error.map { "\($0.line):\($0.column)" } == "2:3")
  }
}
