import Testing

@testable import RecordKit

/// `pattern`: ECMA-262's meaning through PCRE2, every match bounded, plain-text patterns
/// compared by bytes in agreement with the engine.
@Suite struct SchemaPatternTests {
  static let patterns = [
    "^978-", "-x$", "^draft$", "ab", "", "^", "$", "^$", "a b", "^A-Z", "é", "^a.c", "a+", "(ab)",
  ]
  static let texts = [
    "", "978-0-13", "0978-", "draft", "drafts", "a-x", "-x-", "ab", "xaby", "a", "a b", "A-Z", "é", "abc",
    "a.c", "aac", "draft\n",
  ]

  @Test(arguments: patterns)
  func aPlainPatternMatchesAsTheEngineDoes(_ source: String) throws {
    let pattern = try SchemaPattern(source)
    for text in Self.texts {
      #expect(pattern.match(text) == pattern.programMatch(text), "\(source) on \(text.debugDescription)")
    }
  }

  /// Pattern, text, whether it matches: where ECMA-262 and PCRE2's defaults differ, and the
  /// ordinary cases around them.
  static let meanings: [(String, String, Bool)] = [
    ("^abc$", "abc", true), ("^abc$", "abc\n", false), ("abc$", "xabc", true),
    ("^\\d$", "0", true), ("^\\d$", "\u{07C0}", false), ("^\\D$", "\u{07C0}", true),
    ("^\\w$", "a", true), ("^\\w$", "é", false), ("^\\W$", "é", true), ("\\bé", "é", false),
    ("a\\bé", "aé", true),
    ("^\\s$", "\u{0B}", true), ("^\\s$", "\u{A0}", true), ("^\\s$", "\u{FEFF}", true),
    ("^\\s$", "\u{2029}", true), ("^\\s$", "\u{2003}", true), ("^\\s$", "\u{1}", false),
    ("^\\s$", "\u{2013}", false), ("^\\S$", "\u{2003}", false), ("^\\S$", "\u{2013}", true),
    ("^[\\s]$", "\u{3000}", true), ("^[^\\s]$", "\u{3000}", false), ("^[\\S]$", "x", true),
    ("^[\\S]$", "\u{85}", true), ("^[\\S]$", "\u{200A}", false), ("^[\\S\\s]$", "\u{10FFFF}", true),
    ("^.$", "\n", false), ("^.$", "\r", false), ("^.$", "\u{2028}", false), ("^.$", "\u{85}", true),
    ("^.$", "😀", true), ("^..$", "😀", false),
    ("^\\v$", "\u{0B}", true), ("^\\v$", "\n", false), ("^\\t$", "\t", true), ("^\\t$", "\\t", false),
    ("^\\cC$", "\u{3}", true), ("^\\cc$", "\u{3}", true), ("^\\0$", "\u{0}", true),
    ("^\\x41$", "A", true), ("^\\u00e9$", "é", true), ("^\\u{1F600}$", "😀", true),
    ("^\\uD83D\\uDE00$", "😀", true), ("^[\\b]$", "\u{8}", true),
    ("\\p{Letter}cole", "école", true), ("\\p{Letter}cole", "ÉCOLE", false), ("^\\p{digit}+$", "৪২", true),
    ("^\\p{L}$", "ж", true), ("^\\p{Lu}$", "ж", false), ("^\\p{Lowercase_Letter}$", "ж", true),
    ("^\\p{General_Category=Decimal_Number}$", "٣", true), ("^\\p{Script=Greek}$", "λ", true),
    ("^\\p{sc=Greek}$", "l", false), ("^\\P{L}$", "1", true),
    ("^[]$", "", false), ("^[]a$", "a", false), ("^[^]$", "\n", true),
    ("^[[:alpha:]]$", "[]", true), ("^[[:alpha:]]$", "a", false),
    ("^(a)|\\1b$", "b", true), ("^(?<y>\\d)\\k<y>$", "33", true), ("^(?:ab)+$", "abab", true),
    ("(?<=a)b", "ab", true), ("(?<!a)b", "ab", false), ("^a{2}$", "aa", true), ("^a{2,}$", "a", false),
    ("^a{,2}$", "a{,2}", true), ("^x{$", "x{", true), ("^}$", "}", true), ("^]$", "]", true),
    ("^a+?$", "aa", true), ("^a??$", "", true), ("^\\/\\-$", "/-", true), ("^[\\-a]$", "-", true),
  ]

  @Test(arguments: meanings)
  func aPatternMeansWhatECMAScriptMeans(_ source: String, _ text: String, _ matches: Bool) throws {
    let pattern = try SchemaPattern(source)
    #expect(pattern.match(text) == (matches ? .match : .noMatch), "\(source) on \(text.debugDescription)")
  }

  /// PCRE2 syntax that ECMA-262 lacks, and ECMA-262 errors PCRE2 would accept.
  static let refusals: [(String, String)] = [
    ("a\\h", "'\\h' is not an ECMA-262 escape at offset 1"),
    ("\\Aa", "'\\A' is not an ECMA-262 escape at offset 0"),
    ("a\\z", "'\\z' is not an ECMA-262 escape at offset 1"),
    ("\\Qa\\E", "'\\Q' is not an ECMA-262 escape at offset 0"),
    ("(?i)a", "'(?i' is not ECMA-262 group syntax at offset 0"),
    ("(?>a)", "'(?>' is not ECMA-262 group syntax at offset 0"),
    ("(?|a)", "'(?|' is not ECMA-262 group syntax at offset 0"),
    ("a++", "a quantifier cannot follow a quantifier at offset 2"),
    ("a*+", "a quantifier cannot follow a quantifier at offset 2"),
    ("a{2}{3}", "a quantifier cannot follow a quantifier at offset 4"),
    ("a??+", "a quantifier cannot follow a quantifier at offset 3"),
    ("[a", "a character class is not closed by ']' at offset 0"),
    ("\\c1", "'\\c' must be followed by a letter at offset 0"),
    ("\\x4", "'\\x' needs two hex digits at offset 0"),
    ("\\u12", "'\\u' needs four hex digits at offset 0"),
    ("\\u{110000}", "'\\u{…}' needs a code point up to 10FFFF at offset 0"),
    ("\\uD800", "a lone surrogate (\\uD800) matches no text at offset 0"),
    ("\\01", "'\\0' cannot be followed by a digit at offset 0"),
    ("[\\B]", "'\\B' cannot stand in a character class at offset 1"),
    ("\\p", "'\\p' needs a property in braces at offset 0"),
    ("(*UCP)\\d", "nothing to repeat before '*' at offset 1"),
    ("(*ACCEPT)a", "nothing to repeat before '*' at offset 1"),
    ("*a", "nothing to repeat before '*' at offset 0"),
    ("a|+b", "nothing to repeat before '+' at offset 2"),
    ("^*", "nothing to repeat before '*' at offset 1"),
    ("\\b+", "nothing to repeat before '+' at offset 2"),
    ("({2})", "nothing to repeat before '{' at offset 1"),
    ("a\\", "a pattern cannot end with '\\' at offset 1"),
  ]

  @Test(arguments: refusals)
  func syntaxECMAScriptLacksIsRefused(_ source: String, _ problem: String) {
    #expect(throws: SchemaPattern.Refusal(problem: problem)) { try SchemaPattern(source) }
  }

  @Test(arguments: ["(a", "a)", "\\p{NoSuchProperty}", "(?<=a+)b", "\\2(a)"])
  func patternsPCRE2CannotCompileAreRefusedInItsWords(_ source: String) {
    #expect(throws: SchemaPattern.Refusal.self) { try SchemaPattern(source) }
  }

  /// The classic catastrophic patterns, each with a value that makes a backtracking engine
  /// try every way to split it: every answer is a non-match or the bound, never a match.
  static let hostile: [(String, String, PatternMatch)] = [
    ("^(a+)+$", String(repeating: "a", count: 10_000) + "!", .tooCostly),
    ("^(a|aa)+$", String(repeating: "a", count: 10_000) + "!", .tooCostly),
    ("^(a|a?)+$", String(repeating: "a", count: 10_000) + "!", .tooCostly),
    ("^(\\w+\\s?)*$", String(repeating: "a", count: 10_000) + "!", .tooCostly),
    ("(.*a){12}", String(repeating: "a", count: 11) + String(repeating: "x", count: 10_000), .tooCostly),
    ("(.*a){12}$", String(repeating: "a", count: 50) + String(repeating: "x", count: 10_000), .tooCostly),
    // PCRE2's own match limit counts per start position: this took half a second under it.
    ("(a|aa)+$", String(repeating: String(repeating: "a", count: 18) + "!", count: 500), .tooCostly),
    // PCRE2 looks for the required 'y' first and answers at once.
    ("(x+x+)+y", String(repeating: "x", count: 10_000), .noMatch),
  ]

  @Test(arguments: hostile)
  func aCatastrophicPatternReachesItsBoundInsteadOfHanging(
    _ source: String, _ text: String, _ expected: PatternMatch
  ) throws {
    let pattern = try SchemaPattern(source)
    #expect(pattern.match(text) == expected)
  }

  @Test func theBoundHoldsWithoutTheJITToo() throws {
    let text = String(repeating: "a", count: 10_000) + "!"
    let pattern = try CompiledPattern(pcre2: "^(a+)+$")
    #expect(pattern.isJIT)
    #expect(pattern.matchWithoutJIT(text) == .tooCostly)
    #expect(pattern.matchWithoutJIT("aaa") == .match)
    #expect(pattern.matchWithoutJIT("aab") == .noMatch)
  }

  /// A long value that an ordinary pattern matches is a match, not the bound: one JIT frame
  /// per repetition runs past PCRE2's default 32 KiB JIT stack at 10,000 characters.
  @Test func aLongValueMatchesAnOrdinaryPattern() throws {
    let long = String(repeating: "ab", count: 50_000)
    #expect(try SchemaPattern("^(?:a|b)*$").match(long) == .match)
    #expect(try SchemaPattern("^(a|b)*$").match(long) == .match)
    #expect(try SchemaPattern("^[a-z]+$").match(long) == .match)
    #expect(try SchemaPattern("^[a-z]+$").match(long + "1") == .noMatch)
  }

  @Test func aPatternMatchesAValueWithNULAndTheEmptyValue() throws {
    #expect(try SchemaPattern("^a\\0b$").match("a\u{0}b") == .match)
    #expect(try SchemaPattern("^$").programMatch("") == .match)
    #expect(try SchemaPattern("^.+$").match("") == .noMatch)
  }

  @Test func theTooCostlyReportNamesThePattern() {
    let violation = SchemaViolation(.patternTooCostly("^(a+)+$"), at: JSONPointer(), keyword: JSONPointer())
    #expect(violation.message == "pattern ^(a+)+$ is too costly for this value")
  }
}
