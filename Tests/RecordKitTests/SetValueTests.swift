import Testing

@testable import RecordKit

/// `SetValue`: a `set`'s value given as a word's bytes (the shell's fast lane) means what
/// the token of their text means, for every codec — the text codec's own byte path and the
/// default one alike — and a pair made of bytes equals the pair made of the token.
@Suite struct SetValueTests {
  /// Words a script can hold: empty, `null` and its near misses, digits, signs, spaces,
  /// quotes' contents, non-ASCII text, and 300 random ones.
  private static let words: [String] = {
    var words = [
      "", "null", "nul", "nulll", "Null", "NULL", " null", "0", "5", "-3", "+7", "007", "2.5", "1e3", "127",
      "128",
      "-128", "-129", "99999999999999999999", "true", "false", "2026-12-01", "2026-13-01", "a b", "naïve",
      "e\u{301}", "日本語", "🙂", "tab\there", "[a, b]",
    ]
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("abcnul019+-. éü日🙂\t\"\\")
    for _ in 0..<300 {
      let length = Int.random(in: 0...12, using: &generator)
      words.append(String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" }))
    }
    return words
  }()

  private func agree<Codec: FieldCodec>(_ codec: Codec, _ word: String, quoted: Bool) {
    let token: ValueToken = quoted ? .quoted(word) : .word(word)
    let fromBytes = Array(word.utf8).withUnsafeBufferPointer { codec.parse(bytes: $0, quoted: quoted) }
    #expect(fromBytes == codec.parse(token), "\(token)")
    let input = Array(word.utf8).withUnsafeBufferPointer { SetValue(bytes: $0, quoted: quoted).token }
    #expect(input == token)
  }

  @Test func bytesMeanWhatTheirTokenMeans() {
    for word in Self.words {
      for quoted in [false, true] {
        agree(TextCodec(), word, quoted: quoted)
        agree(StringCodec(), word, quoted: quoted)
        agree(IntCodec<Int8>(range: 0...5), word, quoted: quoted)
        agree(IntCodec<Int>(range: Int.min...Int.max), word, quoted: quoted)
        agree(BoolCodec(), word, quoted: quoted)
        agree(NullableCodec(TextCodec()), word, quoted: quoted)
      }
    }
  }

  @Test func aPairOfBytesEqualsThePairOfItsToken() throws {
    let title = try #require(TaskRecord.fields.names.firstIndex(of: "title"))
    for word in Self.words.prefix(40) {
      for quoted in [false, true] {
        let token: ValueToken = quoted ? .quoted(word) : .word(word)
        let equal = Array(word.utf8).withUnsafeBufferPointer { bytes in
          FieldAssignment(declared: title, named: "title", bytes: bytes, quoted: quoted)
            == FieldAssignment("title", token)
        }
        #expect(equal, "\(token)")
      }
    }
    let differs = Array("a".utf8).withUnsafeBufferPointer { bytes in
      FieldAssignment(declared: title, named: "title", bytes: bytes, quoted: true)
        == FieldAssignment("title", .word("a"))
    }
    #expect(!differs, "a quoted word is not the bare one")
  }
}
