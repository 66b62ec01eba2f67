import Testing

@testable import RecordKit

/// `DecimalNumber` compares JSON number spellings by their exact value.
@Suite struct DecimalNumberTests {
  static let orderings: [(String, String, Comparison)] = [
    ("1", "1.0", .equal),
    ("1e3", "1000", .equal),
    ("1E+3", "1000.000", .equal),
    ("0.1e1", "10e-1", .equal),
    ("-0", "0", .equal),
    ("-0.0e5", "0", .equal),
    ("1E-2", "0.01", .equal),
    ("9007199254740993", "9007199254740992", .greater),
    ("9007199254740992", "9007199254740992.0", .equal),
    ("0.1", "0.10000000000000001", .less),
    ("1e400", "1e399", .greater),
    ("-1e400", "-1e399", .less),
    ("1e-400", "0", .greater),
    ("-1e-400", "0", .less),
    ("1e99999999999999999999", "1e99999999999999999998", .greater),
    ("10e999999999999999999", "1e1000000000000000000", .equal),
    ("1e-99999999999999999999", "1e-99999999999999999998", .less),
    ("123456789012345678901234567890", "123456789012345678901234567891", .less),
    ("-2", "-10", .greater),
    ("2.5", "2.49999", .greater),
    ("100", "99.999999999999999999999", .greater),
  ]

  enum Comparison: Sendable { case less, equal, greater }

  @Test(arguments: orderings)
  func spellingsCompareByExactValue(_ left: String, _ right: String, _ expected: Comparison) throws {
    let a = try #require(DecimalNumber(left))
    let b = try #require(DecimalNumber(right))
    #expect((a < b) == (expected == .less), "\(a) vs \(b)")
    #expect((a == b) == (expected == .equal), "\(a) vs \(b)")
    #expect((b < a) == (expected == .greater), "\(a) vs \(b)")
  }

  static let integers: [(String, Bool)] = [
    ("1.0", true), ("1e3", true), ("1.5e1", true), ("1.55e1", false), ("1e-1", false), ("0", true),
    ("-0.0", true), ("1e400", true), ("1e-400", false), ("12345678901234567890123", true),
    ("-7.000000000000000000001", false), ("2.50e1", true), ("2.55e1", false),
  ]

  @Test(arguments: integers)
  func wholeValuesAreIntegersWhateverTheSpelling(_ spelling: String, _ isInteger: Bool) throws {
    #expect(try #require(DecimalNumber(spelling)).isInteger == isInteger)
  }

  @Test(arguments: ["01", ".5", "1.", "+1", "NaN", "1e", "--1", ""])
  func nonJSONSpellingsAreNotNumbers(_ spelling: String) {
    #expect(DecimalNumber(spelling) == nil)
  }

  @Test func lengthsConvertToIntAndSaturate() {
    #expect(DecimalNumber("3.0")?.nonNegativeIntClamped == 3)
    #expect(DecimalNumber("2e1")?.nonNegativeIntClamped == 20)
    #expect(DecimalNumber("0")?.nonNegativeIntClamped == 0)
    #expect(DecimalNumber("1e100")?.nonNegativeIntClamped == Int.max)
    #expect(DecimalNumber("-1")?.nonNegativeIntClamped == nil)
    #expect(DecimalNumber("1.5")?.nonNegativeIntClamped == nil)
  }

  /// Random values `m × 10^e`, each written in several ways, against a model that
  /// compares `m₁ × 10^(e₁+8)` and `m₂ × 10^(e₂+8)` as `Int`s.
  @Test func randomSpellingsAgreeWithAnIntegerModel() throws {
    let seed = UInt64.random(in: 0...(1 << 40))
    var generator = SplitMix64(seed: seed)
    for _ in 0..<3000 {
      let (m1, e1) = (generator.int(4001) - 2000, generator.int(13) - 6)
      let (m2, e2) =
        generator.int(4) == 0 ? (m1 * 10, e1 - 1) : (generator.int(4001) - 2000, generator.int(13) - 6)
      let s1 = Self.spelling(m1, e1, using: &generator)
      let s2 = Self.spelling(m2, e2, using: &generator)
      let a = try #require(DecimalNumber(s1), "seed \(seed): \(s1)")
      let b = try #require(DecimalNumber(s2), "seed \(seed): \(s2)")
      let scaled1 = m1 * Self.power(e1 + 8)
      let scaled2 = m2 * Self.power(e2 + 8)
      #expect((a < b) == (scaled1 < scaled2), "seed \(seed): \(s1) < \(s2)")
      #expect((a == b) == (scaled1 == scaled2), "seed \(seed): \(s1) == \(s2)")
      #expect(a.isInteger == (scaled1 % Self.power(8) == 0), "seed \(seed): \(s1) is an integer")
    }
  }

  static func power(_ exponent: Int) -> Int {
    (0..<exponent).reduce(1) { result, _ in result * 10 }
  }

  /// `m × 10^e` as a JSON number: trailing zeros added, the point moved, the exponent
  /// adjusted, in any combination.
  static func spelling(_ m: Int, _ e: Int, using generator: inout SplitMix64) -> String {
    let sign = m < 0 || (m == 0 && generator.int(2) == 0) ? "-" : ""
    guard m != 0 else { return sign + ["0", "0.0", "0e7", "0.000E-3"].pick(using: &generator) }
    let zeros = generator.int(4)
    let digits = String(m.magnitude) + String(repeating: "0", count: zeros)
    var exponent = e - zeros
    var text: String
    switch generator.int(3) {
    case 0:
      text = digits
    case 1:
      let point = 1 + generator.int(digits.count)
      text = String(digits.prefix(point)) + (point < digits.count ? "." + digits.dropFirst(point) : "")
      exponent += digits.count - point
    default:
      let leading = generator.int(3)
      text = "0." + String(repeating: "0", count: leading) + digits
      exponent += digits.count + leading
    }
    if exponent != 0 || generator.int(2) == 0 {
      let marker = generator.int(2) == 0 ? "e" : "E"
      let plus = exponent >= 0 && generator.int(2) == 0 ? "+" : ""
      text += marker + plus + String(exponent)
    }
    return sign + text
  }
}
