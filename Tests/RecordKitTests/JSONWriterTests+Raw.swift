import Testing

@testable import RecordKit

/// The writer stores bytes through pointers, words at a time: what it writes must not
/// depend on where in a word an escape falls, nor on how the output is cut into chunks.
extension JSONWriterTests {
  /// The escaping rules, one byte at a time, as the reference for the word-at-a-time copy.
  static func quotedByteByByte(_ text: String) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "\"")]
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
      case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
      case 0x08: out += Array(#"\b"#.utf8)
      case 0x0C: out += Array(#"\f"#.utf8)
      case 0x0A: out += Array(#"\n"#.utf8)
      case 0x0D: out += Array(#"\r"#.utf8)
      case 0x09: out += Array(#"\t"#.utf8)
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default: out.append(byte)
      }
    }
    return out + [UInt8(ascii: "\"")]
  }

  @Test func anEscapeIsWrittenTheSameAtEveryPlaceInAWord() {
    for special in ["\"", "\\", "\n", "\u{1}", "\u{1F}"] {
      for length in 0..<24 {
        for place in 0...length {
          var text = String(repeating: "a", count: length)
          text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: place))
          text += "é"
          var writer = JSONWriter()
          writer.string(text)
          #expect(
            writer.bytes == Self.quotedByteByByte(text), "\(length) \(place) \(special.debugDescription)")
        }
      }
    }
  }

  @Test func randomStringsAreEscapedByteForByte() {
    var generator = SeededGenerator(state: 0x57_0001)
    let pieces = ["a", "bc", "\"", "\\", "\n", "\t", "\u{0}", "\u{7F}", "é", "東京", "👍🏽", "/", " "]
    for _ in 0..<2000 {
      let text = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in
        pieces.randomElement(using: &generator) ?? ""
      }.joined()
      var writer = JSONWriter()
      writer.string(text)
      #expect(writer.bytes == Self.quotedByteByByte(text), "\(text.debugDescription)")
    }
  }

  @Test(arguments: [0, 1, -1, 5, 10, -10, 1234567890, Int.max, Int.min])
  func anIntegerIsWrittenAsStringSpellsIt(_ value: Int) {
    var writer = JSONWriter()
    writer.integer(value)
    #expect(writer.bytes == Array(String(value).utf8))
  }

  @Test func anEncodedKeyIsWrittenLikeAKeyString() {
    for name in ["id", "title", "a\"b", "caf\u{E9}", ""] {
      var byString = JSONWriter()
      byString.beginObject()
      byString.key(name)
      byString.null()
      byString.endObject()
      var byKey = JSONWriter()
      byKey.beginObject()
      byKey.key(JSONWriter.Key(name))
      byKey.null()
      byKey.endObject()
      #expect(byKey.bytes == byString.bytes)
    }
  }

  @Test func aDocumentBiggerThanTheFirstBufferIsWrittenWhole() {
    let text = String(repeating: "long \"text\" ", count: 5000)
    #expect(
      JSONWriter.write(.array([.string(text), .number("1")])) == Array("[\n  ".utf8)
        + Self.quotedByteByByte(text) + Array(",\n  1\n]\n".utf8))
  }
}

extension JSONWriterTests {
  /// `copy` of every count up to past sixteen (the overlapping words, the call beyond),
  /// from every offset within a word: the bytes arrive in order and the bytes around the
  /// target are left as they were.
  @Test func aCopyOfAnyCountMovesExactlyThoseBytes() {
    let source = (0..<64).map { UInt8(truncatingIfNeeded: 37 &* $0 &+ 11) }
    for count in 0...40 {
      for offset in 0..<8 {
        var target = [UInt8](repeating: 0xEE, count: 64)
        source.withUnsafeBufferPointer { from in
          target.withUnsafeMutableBufferPointer { to in
            JSONWriter.copy(count, from: from.baseAddress! + offset, to: to.baseAddress! + 3)
          }
        }
        let context = Comment(rawValue: "count \(count), offset \(offset)")
        #expect(Array(target[3..<(3 + count)]) == Array(source[offset..<(offset + count)]), context)
        #expect(
          target[..<3].allSatisfy { $0 == 0xEE } && target[(3 + count)...].allSatisfy { $0 == 0xEE }, context)
      }
    }
  }
}
