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
package struct SchemaPattern: Equatable {
  package let source: String
  private let regex: Regex<AnyRegexOutput>

  /// Compiles `source`; throws the regex parser's error when it is not a regular expression.
  package init(_ source: String) throws {
    self.source = source
    regex = try Regex(source)
      .matchingSemantics(.unicodeScalar)
      .asciiOnlyDigits()
      .asciiOnlyWordCharacters()
  }

  /// Two patterns are equal when written alike.
  package static func == (lhs: SchemaPattern, rhs: SchemaPattern) -> Bool {
    lhs.source == rhs.source
  }

  /// Whether the pattern matches somewhere in `text` (JSON Schema patterns are not anchored).
  /// Costs what the regex engine costs, which for a pathological pattern can be a lot.
  package func matches(_ text: String) -> Bool {
    text.contains(regex)
  }
}
