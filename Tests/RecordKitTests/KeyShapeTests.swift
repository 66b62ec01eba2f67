import Testing

@testable import RecordKit

/// A record's keys taken by comparing their bytes with the keys of a record before
/// (`KeyShape`), against the tree's read, which knows no shape: random files whose records
/// keep, skip, reorder, repeat and escape keys, and go past the 16 keys that are scanned
/// and the 64 a shape holds, read both ways to the same records or the same error at the
/// same place.
@Suite struct KeyShapeTests {
  static let pool = ["isbn", "title", "year", "authors", "genre", "read", "rating", "caf\u{E9}"]

  /// A key's token as the file spells it: plain, or (`escaped`) with its first letter
  /// escaped, which reads as the same key.
  static func token(_ key: String, escaped: Bool) -> String {
    guard escaped, let first = key.unicodeScalars.first, first.isASCII else { return "\"\(key)\"" }
    let hex = String(first.value, radix: 16)
    return "\"\\u" + String(repeating: "0", count: 4 - hex.count) + hex + key.dropFirst() + "\""
  }

  /// One record's text: the pool's keys mostly in order, some left out, now and then two
  /// swapped, a key escaped, a new key, and (when `repeating`) a key repeated, plain or
  /// escaped, before or after it; now and then a record of 20 or 70 keys.
  static func record(_ number: Int, repeating: Bool, _ random: inout SplitMix64) -> String {
    func chance(_ inHundred: UInt64) -> Bool { random.next() % 100 < inHundred }
    var keys: [(key: String, escaped: Bool)]
    if chance(3) {
      keys = (0..<(chance(50) ? 20 : 70)).map { ("k\($0)", false) }
    } else {
      keys = Self.pool.filter { _ in !chance(20) }.map { ($0, false) }
    }
    if keys.count > 2, chance(10) {
      let at = Int(random.next() % UInt64(keys.count - 1))
      keys.swapAt(at, at + 1)
    }
    if !keys.isEmpty, chance(5) {
      keys[Int(random.next() % UInt64(keys.count))].escaped = true
    }
    if chance(5) { keys.insert(("new\(number % 7)", false), at: Int(random.next() % UInt64(keys.count + 1))) }
    if repeating, !keys.isEmpty, chance(8) {
      let repeated = keys[Int(random.next() % UInt64(keys.count))].key
      keys.insert((repeated, chance(30)), at: Int(random.next() % UInt64(keys.count + 1)))
    }
    let members = keys.enumerated().map { place, key in
      Self.token(key.key, escaped: key.escaped) + ": " + (place % 2 == 0 ? "\(number)" : "\"v\(number)\"")
    }
    return "{" + members.joined(separator: ", ") + "}"
  }

  /// The records an inferred kind reads from `file`, or its error.
  static func read(_ file: [UInt8], layout: RecordLayout, streaming: Bool) -> Result<
    [RunTimeRecord], RecordFileError
  > {
    Result { () throws(RecordFileError) in
      try file.withUnsafeBufferPointer { buffer throws(RecordFileError) in
        try RunTimeFile.decode(buffer, layout: layout, schema: nil, name: "shapes", streaming: streaming)
          .document.records
      }
    }
  }

  @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
  func keysReadByTheShapeAreTheTreesKeys(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var refused = 0
    for file in 0..<40 {
      let texts = (0..<Int(5 + random.next() % 40)).map { Self.record($0, repeating: file % 3 == 1, &random) }
      for layout in [RecordLayout.array, .lines] {
        var bytes = Array(
          (layout == .lines ? texts.joined(separator: "\n") : "[" + texts.joined(separator: ",\n  ") + "]")
            .utf8)
        // Now and then a byte damaged, for the errors' places.
        if file % 4 == 3 {
          let damage = Array(#"":,{} \"#.utf8)
          bytes[Int(random.next() % UInt64(bytes.count))] = damage[Int(random.next() % UInt64(damage.count))]
        }
        let shaped = Self.read(bytes, layout: layout, streaming: true)
        let tree = Self.read(bytes, layout: layout, streaming: false)
        #expect(
          shaped == tree, "seed \(seed) file \(file) \(layout): \(String(decoding: bytes, as: UTF8.self))")
        if case .failure = tree { refused += 1 }
      }
    }
    // Both answers are common: files refused (duplicates, damage) and files read.
    #expect(refused > 10 && refused < 70, "\(refused) of 80 refused")
  }

  /// A duplicate is named at its second place however the two keys were read (both met in
  /// the shape they cannot be, so one of them is read off it): `repeated` is the second's
  /// token, the last of its kind in the file.
  @Test(arguments: [
    (#"{"a": 1, "b": 2, "a": 3}"#, "a", #""a""#),
    (#"{"a": 1, "c": 2, "b": 3, "c": 4}"#, "c", #""c""#),
    (#"{"c": 1, "a": 2, "c": 3}"#, "c", #""c""#),
    (#"{"a": 1, "\u0061": 2}"#, "a", #""\u0061""#),
    (#"{"b": 1, "a": 2, "b": 3}"#, "b", #""b""#),
    (#"{"a": 1, "b": 2, "b": 3}"#, "b", #""b""#),
  ])
  func aDuplicateIsRefusedAtItsSecondPlace(second: String, key: String, repeated: String) throws {
    let text = "[{\"a\": 1, \"b\": 2},\n\(second)]"
    let file = Array(text.utf8)
    let needle = Array(repeated.utf8)
    let offset = try #require(
      (0...(file.count - needle.count)).last { Array(file[$0..<($0 + needle.count)]) == needle })
    for streaming in [true, false] {
      guard case .failure(.syntax(let error)) = Self.read(file, layout: .array, streaming: streaming) else {
        Issue.record("\(second) was read, streaming \(streaming)")
        continue
      }
      #expect(error.reason == .duplicateKey(key), "streaming \(streaming)")
      #expect(error.offset == offset, "streaming \(streaming)")
    }
  }

  @Test func aShapeIsMetAtRisingPlacesWithinItsReach() {
    var shape = KeyShape()
    let keys = ["a", "bb", "ccc", "d", "e", "f", "g"]
    let text = Array(keys.joined().utf8)
    var ranges: [Range<Int>] = []
    var start = 0
    for key in keys {
      ranges.append(start..<(start + key.utf8.count))
      start += key.utf8.count
    }
    text.withUnsafeBufferPointer { shape.set(met: 0, then: ranges[...], in: $0) }
    #expect(shape.keys.count == 7)
    func match(_ source: String, from: Int) -> Int? {
      Array(source.utf8).withUnsafeBufferPointer { shape.match($0, at: 0, from: from) }
    }
    #expect(match(#""ccc": 1"#, from: 0) == 2)
    #expect(match(#""ccc": 1"#, from: 3) == nil)
    #expect(match(#""a": 1"#, from: 1) == nil)
    // Four places from where it looks: "f" is five past "a".
    #expect(match(#""f": 1"#, from: 0) == nil)
    #expect(match(#""f": 1"#, from: 2) == 5)
    // A prefix of a key is not the key, nor is a key without a byte after it.
    #expect(match(#""cc": 1"#, from: 0) == nil)
    #expect(match(#""ccc""#, from: 0) == nil)
    // Set again from the keys met at places 1 and 4, then one more.
    let more = Array("zz".utf8)
    more.withUnsafeBufferPointer { shape.set(met: 0b10010, then: [0..<2], in: $0) }
    #expect(match(#""bb":"#, from: 0) == 0)
    #expect(match(#""e":"#, from: 1) == 1)
    #expect(match(#""zz":"#, from: 0) == 2)
    // More keys than a shape holds leave it empty.
    let many = (0..<65).map { $0..<($0 + 1) }
    Array(repeating: UInt8(ascii: "k"), count: 66).withUnsafeBufferPointer {
      shape.set(met: 0, then: many[...], in: $0)
    }
    #expect(shape.keys.isEmpty)
  }
}
