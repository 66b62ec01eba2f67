import Testing

@testable import RecordKit

/// Round-trip properties on random documents from a seeded generator: reading what was
/// written gives the value back, and writing that again gives the same bytes.
extension JSONWriterTests {
  /// SplitMix64: small, fast, and the same sequence on every platform for a seed.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var mixed = state
      mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
      mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
      return mixed ^ (mixed >> 31)
    }
  }

  static let stringPieces: [String] =
    (0..<32).compactMap { Unicode.Scalar($0).map { String(Character($0)) } } + [
      "\"", "\\", "/", "\u{7F}", "é", "e\u{301}", "😀", "👩‍👩‍👧", "\u{2028}", "\u{2029}", "\u{FEFF}",
      "\u{FFFF}", "\u{10FFFF}", "東京", "title", "a b", "\\u0041", "{}", "[", "\"key\":", " ",
    ]

  static let numberSpellings = [
    "0", "-0", "1.50", "1e3", "-0.0", "12345678901234567890", "1E+2", "1e-7", "-1.5E-300",
    "100000000000000000000000",
  ]

  struct RandomDocuments {
    var generator: SeededGenerator

    mutating func value(depth: Int = 0) -> JSONValue {
      switch Int.random(in: 0..<(depth >= 4 ? 4 : 7), using: &generator) {
      case 0: return .null
      case 1: return .bool(Bool.random(using: &generator))
      case 2: return .number(number())
      case 3: return .string(string())
      case 4, 5:
        return .array((0..<Int.random(in: 0..<5, using: &generator)).map { _ in value(depth: depth + 1) })
      default:
        var members: [JSONObject.Member] = []
        for _ in 0..<Int.random(in: 0..<5, using: &generator) {
          let key = string()
          guard !members.contains(where: { $0.key.utf8.elementsEqual(key.utf8) }) else { continue }
          members.append(JSONObject.Member(key: key, value: value(depth: depth + 1)))
        }
        return .object(JSONObject(members))
      }
    }

    mutating func string() -> String {
      (0..<Int.random(in: 0..<6, using: &generator)).map { _ in
        JSONWriterTests.stringPieces.randomElement(using: &generator) ?? ""
      }.joined()
    }

    /// A spelling from the list, or one built from the grammar's parts at random.
    mutating func number() -> String {
      if Bool.random(using: &generator) {
        return JSONWriterTests.numberSpellings.randomElement(using: &generator) ?? "0"
      }
      var spelling = Bool.random(using: &generator) ? "-" : ""
      spelling +=
        Bool.random(using: &generator) ? "0" : String(UInt64.random(in: 1...UInt64.max, using: &generator))
      if Bool.random(using: &generator) {
        spelling += "." + String(Int.random(in: 0...999, using: &generator))
      }
      if Bool.random(using: &generator) {
        spelling += ["e", "E", "e+", "E-", "e-"].randomElement(using: &generator) ?? "e"
        spelling += String(Int.random(in: 0...400, using: &generator))
      }
      return spelling
    }
  }

  @Test(arguments: [0x5EED_0001, 0x5EED_0002] as [UInt64])
  func randomDocumentsSurviveWriteReadWrite(_ seed: UInt64) {
    var documents = RandomDocuments(generator: SeededGenerator(state: seed))
    for iteration in 0..<1500 {
      let value = documents.value()
      #expect(JSONValue.isValidNumberSpellingEverywhere(in: value))
      JSONTest.expectRoundTrip(value, "seed \(seed) iteration \(iteration)")
    }
  }
}

extension JSONValue {
  /// Whether every number in the tree has a valid spelling, so a generator bug cannot
  /// pass as a writer or reader bug.
  static func isValidNumberSpellingEverywhere(in value: JSONValue) -> Bool {
    switch value {
    case .number(let spelling): isValidNumberSpelling(spelling)
    case .array(let elements): elements.allSatisfy(isValidNumberSpellingEverywhere)
    case .object(let object): object.members.allSatisfy { isValidNumberSpellingEverywhere(in: $0.value) }
    default: true
    }
  }
}
