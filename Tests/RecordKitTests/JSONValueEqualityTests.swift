import Testing

@testable import RecordKit

/// `JSONValue` equality is by the bytes a value is written as, not Swift's canonical
/// string equivalence: the round-trip promise is about bytes.
@Suite struct JSONValueEqualityTests {
  @Test func stringsInNFCAndNFDAreDifferentValues() {
    #expect(JSONValue.string("\u{E9}") != .string("e\u{301}"))
    #expect(JSONValue.string("\u{E9}") == .string("\u{E9}"))
  }

  @Test func keysInNFCAndNFDMakeDifferentObjects() {
    let nfc = JSONValue.object(JSONObject(["\u{E9}": .null]))
    let nfd = JSONValue.object(JSONObject(["e\u{301}": .null]))
    #expect(nfc != nfd)
  }

  @Test func numbersCompareBySpelling() {
    #expect(JSONValue.number("1.50") != .number("1.5"))
    #expect(JSONValue.number("1e3") == .number("1e3"))
  }

  @Test func equalValuesHashAlike() {
    let value = JSONValue.array([.string("é"), .object(JSONObject(["k": .number("1")]))])
    #expect(Set([value, value]).count == 1)
  }
}
