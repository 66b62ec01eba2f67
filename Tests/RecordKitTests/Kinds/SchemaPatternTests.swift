import Testing

@testable import RecordKit

/// `pattern`: plain-text patterns are matched by comparing bytes, and must agree with the
/// regular expression engine on every text.
@Suite struct SchemaPatternTests {
  static let patterns = [
    "^978-", "-x$", "^draft$", "ab", "", "^", "$", "^$", "a b", "^A-Z", "é", "^a.c", "a+", "(ab)",
  ]
  static let texts = [
    "", "978-0-13", "0978-", "draft", "drafts", "a-x", "-x-", "ab", "xaby", "a", "a b", "A-Z", "é", "abc",
    "a.c", "aac",
  ]

  @Test(arguments: patterns)
  func aPlainPatternMatchesAsTheRegexDoes(_ source: String) throws {
    let pattern = try SchemaPattern(source)
    let regex = try Regex(source).matchingSemantics(.unicodeScalar)
    for text in Self.texts {
      #expect(pattern.matches(text) == text.contains(regex), "\(source) on \(text.debugDescription)")
    }
  }
}
