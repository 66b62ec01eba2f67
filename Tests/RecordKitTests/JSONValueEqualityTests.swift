import Testing

@testable import RecordKit

/// `JSONValue` equality is by the bytes a value is written as, not Swift's canonical
/// string equivalence: the round-trip promise is about bytes.
@Suite struct JSONValueEqualityTests {
  @Test func stringsInNFCAndNFDAreDifferentValues() {
    #expect(JSONValue.string("\u{E9}") != .string("e\u{301}"))
    #expect(JSONValue.string("\u{E9}") == .string("\u{E9}"))
  }

  /// Strings of every length up to past two words, the same and differing at each byte
  /// (eight at a time, then the tail), small (inline) and large, against a byte loop.
  @Test func sameBytesAgreesWithAByteLoopAtEveryLengthAndPlace() {
    for length in 0...40 {
      let base = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
      // A copy made apart, so the two never share storage.
      let copy = String(decoding: Array(base.utf8), as: UTF8.self)
      #expect(JSONValue.sameBytes(base, copy))
      #expect(!JSONValue.sameBytes(base, base + "x"))
      for place in 0..<length {
        var bytes = Array(base.utf8)
        bytes[place] = UInt8(ascii: "Z")
        let other = String(decoding: bytes, as: UTF8.self)
        #expect(!JSONValue.sameBytes(base, other), "length \(length), byte \(place)")
        #expect(JSONValue.string(base) != .string(other))
      }
    }
    #expect(!JSONValue.sameBytes("\u{E9}", "e\u{301}"))
  }

  /// Runs of bytes cut out of longer arrays whose bytes around them differ: the same
  /// runs are the same whatever lies beside them, and one differing byte anywhere in
  /// them (the words, the overlapping last word, the first and last four or two) makes
  /// them differ.
  @Test func sameBytesComparesOnlyTheRunsBytes() {
    for length in 0...40 {
      let run = (0..<length).map { UInt8(truncatingIfNeeded: 31 &* $0 &+ 7) }
      let left = [0xAA, 0xAA, 0xAA] + run + [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]
      let right = [0x55] + run + [0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8]
      left.withUnsafeBufferPointer { left in
        right.withUnsafeBufferPointer { right in
          let (x, y) = (
            UnsafeBufferPointer(rebasing: left[3..<(3 + length)]),
            UnsafeBufferPointer(rebasing: right[1..<(1 + length)])
          )
          #expect(CanonicalJSON.sameBytes(x, y), "length \(length)")
          if length > 0 {
            #expect(!CanonicalJSON.sameBytes(x, UnsafeBufferPointer(rebasing: right[1..<length])))
          }
        }
      }
      for place in 0..<length {
        var other = right
        other[1 + place] ^= 0x20
        left.withUnsafeBufferPointer { left in
          other.withUnsafeBufferPointer { other in
            #expect(
              !CanonicalJSON.sameBytes(
                UnsafeBufferPointer(rebasing: left[3..<(3 + length)]),
                UnsafeBufferPointer(rebasing: other[1..<(1 + length)])),
              "length \(length), byte \(place)")
          }
        }
      }
    }
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
