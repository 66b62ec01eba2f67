/// A `pattern`: its text and the compiled regular expression, searched unanchored.
///
/// JSON Schema means ECMA-262 regular expressions. Swift's `Regex` syntax is close to it for
/// what schemas use (classes, quantifiers, anchors, groups, `\p{…}`), and the options set
/// here bring the meaning closer: matching by Unicode scalar (as ECMA's `u` mode does),
/// not by grapheme; `\d` and `\w` (and so `\b`) ASCII-only as in ECMA. Known differences:
/// Swift accepts some syntax ECMA refuses (possessive quantifiers `a++`, `(?i)` flags,
/// `\A`, `\z`), and ECMA's `\s` and Swift's may differ on a few rare spaces.
///
/// Not `Sendable`: the standard library's `Regex` is not.
///
/// A pattern that is plain ASCII text, optionally anchored (`^978-`, `^draft$`, `-x-`),
/// is matched by comparing bytes: the common case of a schema's pattern, which `Regex`
/// matches at about a microsecond a time, checked for every record of a file.
package struct SchemaPattern: Equatable {
  package let source: String
  private let regex: Regex<AnyRegexOutput>
  /// The text of a plain pattern, and how it is anchored.
  private let literal: (text: [UInt8], start: Bool, end: Bool)?

  /// Compiles `source`; throws the regex parser's error when it is not a regular expression.
  package init(_ source: String) throws {
    self.source = source
    regex = try Regex(source)
      .matchingSemantics(.unicodeScalar)
      .asciiOnlyDigits()
      .asciiOnlyWordCharacters()
    literal = Self.literal(source)
  }

  /// `source` as anchored plain text, when it is one: ASCII with no regex syntax but a
  /// leading `^` and a trailing `$`.
  private static func literal(_ source: String) -> (text: [UInt8], start: Bool, end: Bool)? {
    var bytes = Array(source.utf8)
    let start = bytes.first == UInt8(ascii: "^")
    if start { bytes.removeFirst() }
    let end = bytes.last == UInt8(ascii: "$")
    if end { bytes.removeLast() }
    let syntax = Set(#"\.[](){}*+?|^$/"#.utf8)
    guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && !syntax.contains($0) }) else { return nil }
    return (bytes, start, end)
  }

  /// Two patterns are equal when written alike.
  package static func == (lhs: SchemaPattern, rhs: SchemaPattern) -> Bool {
    lhs.source == rhs.source
  }

  /// Whether the pattern matches somewhere in `text` (JSON Schema patterns are not anchored).
  /// Costs what the regex engine costs, which for a pathological pattern can be a lot.
  package func matches(_ text: String) -> Bool {
    guard let literal else { return text.contains(regex) }
    let bytes = text.utf8
    switch (literal.start, literal.end) {
    case (true, true): return bytes.elementsEqual(literal.text)
    case (true, false): return bytes.starts(with: literal.text)
    case (false, true):
      return bytes.count >= literal.text.count && bytes.suffix(literal.text.count).elementsEqual(literal.text)
    case (false, false):
      let all = Array(bytes)
      let width = literal.text.count
      guard all.count >= width else { return false }
      return (0...(all.count - width)).contains { all[$0..<($0 + width)].elementsEqual(literal.text) }
    }
  }
}
