import Testing

@testable import RecordKit

/// `KeyCodes`, the table of keys a record's text names by a code, and `KeyedText`, that
/// form's walk, making and spelling out: against the canonical text it stands for.
@Suite struct KeyCodesTests {
  private static func token(_ key: String) -> [UInt8] { CanonicalJSON.token(of: key) }

  private static func code(_ table: KeyCodes, _ key: String) -> Int? {
    token(key).withUnsafeBufferPointer { table.code(for: $0) }
  }

  @Test func keysGetTheNextCodeOnceAndKeepIt() {
    let table = KeyCodes(capacity: 3)
    #expect(Self.code(table, "title") == 0)
    #expect(Self.code(table, "year") == 1)
    #expect(Self.code(table, "title") == 0)
    #expect(Self.code(table, "") == 2)
    #expect(table.count == 3)
    // Full: a new key has none, the known ones keep theirs.
    #expect(Self.code(table, "genre") == nil)
    #expect(Self.code(table, "year") == 1)
    #expect(table.count == 3)
    #expect(Array(table.token(0)) == Self.token("title"))
    #expect(Array(table.token(2)) == Self.token(""))
  }

  /// Keys given codes while the index grows many times over are all found again, each
  /// with its own code (keys of one length that differ in one byte: hashes close together).
  @Test func keysAreFoundAgainAfterTheIndexGrows() {
    let table = KeyCodes(capacity: 6000)
    let keys = (0..<5000).map { "k\($0)" } + (0..<200).map { String(UnicodeScalar(UInt8(32 + $0 % 90))) }
    var given: [String: Int] = [:]
    for key in keys where given[key] == nil {
      given[key] = Self.code(table, key)
      #expect(given[key] == given.count - 1, "codes in the order the keys came")
    }
    #expect(table.count == given.count)
    for key in keys.reversed() { #expect(Self.code(table, key) == given[key], "\(key)") }
    #expect(table.count == given.count, "no key given a second code")
  }

  @Test func aLongKeyStaysSpelled() {
    let table = KeyCodes(capacity: 10)
    let long = String(repeating: "k", count: KeyCodes.longestToken - 2)
    #expect(Self.code(table, long) == 0)
    #expect(Self.code(table, long + "k") == nil)
    #expect(table.count == 1)
  }

  @Test func codesAreWrittenInOneOrThreeBytesAndReadBack() {
    for code in [0, 1, 29, 30, 31, 285, 286, 30 + 65535] {
      var bytes: [UInt8] = [0, 0, 0]
      let width = bytes.withUnsafeMutableBufferPointer { room in
        room.baseAddress.map { KeyCodes.write(code, at: $0) } ?? 0
      }
      #expect(Array(bytes[..<width]) == KeyCodes.bytes(of: code))
      #expect(width == KeyCodes.width(of: code))
      #expect(width == (code < 30 ? 1 : 3))
      #expect(bytes[0] < 0x20 && bytes[0] > 0, "a code's first byte is a control byte, never 0")
      let read = bytes.withUnsafeBufferPointer { KeyCodes.read($0, at: 0) }
      #expect(read.code == code && read.width == width)
    }
  }

  @Test func threadsGivingCodesAtOnceAgree() async {
    let table = KeyCodes(capacity: 1000)
    let keys = (0..<300).map { "key\($0)" }
    let answers = await withTaskGroup(of: [String: Int].self) { group in
      for task in 0..<8 {
        group.addTask {
          var mine: [String: Int] = [:]
          // Each task meets the keys in its own order.
          var generator = SplitMix64(seed: UInt64(task + 1))
          for key in keys.shuffled(using: &generator) { mine[key] = Self.code(table, key) }
          return mine
        }
      }
      var all: [[String: Int]] = []
      for await answer in group { all.append(answer) }
      return all
    }
    #expect(answers.count == 8)
    for answer in answers { #expect(answer == answers[0]) }
    #expect(Set(answers[0].values).count == keys.count)
    #expect(table.count == keys.count)
    for (key, code) in answers[0] { #expect(Array(table.token(code)) == Self.token(key)) }
  }

  /// Random objects keyed by a table too small for all their keys (some keys coded in one
  /// byte, some in three, some spelled): the keyed text is never longer, spells out to the
  /// same bytes, walks to the same members, and is the same bytes however it was made.
  @Test(arguments: [0x4B_0001, 0x4B_0002] as [UInt64])
  func keyedTextStandsForItsCanonicalText(_ seed: UInt64) {
    let table = KeyCodes(capacity: 40)
    var documents = JSONWriterTests.RandomDocuments(generator: .init(state: seed))
    var generator = SplitMix64(seed: seed)
    var keys = (0..<60).map { "k\($0)" }
    keys += ["", "é", "with \"quote\"", "tab\t", String(repeating: "long", count: 80)]
    var recent = [Int32](repeating: -1, count: KeyedText.recentPlaces)
    var coded = 0
    for step in 0..<2000 {
      var members: [JSONObject.Member] = []
      for _ in 0..<Int(generator.next() % 8) {
        let key = keys[Int(generator.next() % UInt64(keys.count))]
        guard !members.contains(where: { JSONValue.sameBytes($0.key, key) }) else { continue }
        members.append(JSONObject.Member(key: key, value: documents.value()))
      }
      let canonical = CanonicalJSON.text(of: .object(JSONObject(members)))
      let context: Comment = "seed \(seed) step \(step)"
      let keyed = Self.keyed(canonical, table, &recent)
      #expect(keyed.count <= canonical.count, context)
      // Keyed without a cache (every key from the table), and from a cache that remembers
      // nothing yet.
      var none: [Int32] = []
      #expect(Self.keyed(canonical, table, &none) == keyed, context)
      var fresh = [Int32](repeating: -1, count: KeyedText.recentPlaces)
      #expect(Self.keyedFromMarks(canonical, table, &fresh) == keyed, context)
      keyed.withUnsafeBufferPointer { text in
        let count = KeyedText.canonicalCount(of: text, codes: table)
        if count != nil { coded += 1 }
        if let count {
          var spelled = [UInt8](repeating: 0, count: count)
          spelled.withUnsafeMutableBufferPointer { room in
            if let out = room.baseAddress { KeyedText.decode(text, into: out, codes: table) }
          }
          #expect(spelled == canonical, context)
        } else {
          #expect(keyed == canonical, context)
        }
        var walked: [([UInt8], [UInt8])] = []
        KeyedText.forEachMember(text, codes: table) { start, key, value in
          #expect(start < value.lowerBound, context)
          walked.append((Array(key), Array(text[value])))
          return true
        }
        Self.expectMembers(walked, of: canonical, context)
      }
    }
    #expect(table.count == 40, "the table filled: later keys stayed spelled")
    #expect(coded > 1000, "most texts held a code")
  }

  /// A keyed read (the reader writing each key as its code, as a file's records are read)
  /// writes the text that keying each record's canonical text writes, and marks each
  /// member with its key's token and its value: records that keep one order of keys with
  /// some left out (the reader's shape), now and then a key out of it, escaped or too long
  /// for a code.
  @Test(arguments: [0x5C_0001, 0x5C_0002] as [UInt64])
  func aKeyedReadWritesTheKeyedForm(_ seed: UInt64) throws {
    var documents = JSONWriterTests.RandomDocuments(generator: .init(state: seed))
    var generator = SplitMix64(seed: seed)
    let common = (0..<12).map { "keyed read \($0)" }
    let rare = ["é", "with \"quote\"", "tab\t", String(repeating: "long", count: 80), "x/y", ""]
    var objects: [[UInt8]] = []
    for _ in 0..<600 {
      var members: [JSONObject.Member] = []
      for key in common where generator.next() % 8 != 0 {
        members.append(JSONObject.Member(key: key, value: documents.value()))
      }
      if generator.next() % 4 == 0 {
        let key = rare[Int(generator.next() % UInt64(rare.count))]
        let place = Int(generator.next() % UInt64(members.count + 1))
        members.insert(JSONObject.Member(key: key, value: documents.value()), at: place)
      }
      objects.append(CanonicalJSON.text(of: .object(JSONObject(members))))
    }
    let source = Array("[\n".utf8) + Array(objects.joined(separator: Array(",\n".utf8))) + Array("\n]".utf8)
    var writer = JSONWriter(compact: true)
    var marks = MemberMarks()
    var read = 0
    var coded = 0
    try source.withUnsafeBufferPointer { buffer in
      var reader = JSONReader(unsafeBytes: buffer)
      _ = try reader.peek()
      #expect(try reader.enterArray())
      repeat {
        _ = try reader.peek()
        writer.reset()
        marks.removeAll()
        try reader.readCanonicalObject(into: &writer, members: &marks, keying: true)
        let canonical = objects[read]
        let context: Comment = "seed \(seed) record \(read)"
        var none: [Int32] = []
        #expect(writer.bytes == Self.keyed(canonical, .shared, &none), context)
        if writer.bytes.count < canonical.count { coded += 1 }
        var walked: [([UInt8], [UInt8])] = []
        writer.bytes.withUnsafeBufferPointer { text in
          for place in 0..<marks.count {
            let (key, value) = marks.member(place, of: text)
            walked.append((Array(key), Array(text[value])))
          }
        }
        Self.expectMembers(walked, of: canonical, context)
        read += 1
      } while try reader.advanceInArray()
    }
    #expect(read == objects.count)
    #expect(coded > 500, "most records' keys had codes")
  }

  /// Expects `walked` to be the members of the object `canonical` (canonical text), in
  /// order: each key token and value.
  private static func expectMembers(
    _ walked: [([UInt8], [UInt8])], of canonical: [UInt8], _ context: Comment
  ) {
    var expected: [([UInt8], [UInt8])] = []
    canonical.withUnsafeBufferPointer { original in
      CanonicalJSON.forEachMember(original, 0..<original.count) { key, value in
        expected.append((Array(original[key]), Array(original[value])))
        return true
      }
    }
    #expect(walked.map(\.0) == expected.map(\.0), context)
    #expect(walked.map(\.1) == expected.map(\.1), context)
  }

  /// `canonical` keyed by `table` (`KeyedText.encode`), walking its members through
  /// `marks` when given.
  private static func keyed(
    _ canonical: [UInt8], _ table: KeyCodes, _ recent: inout [Int32], marks: MemberMarks? = nil
  ) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: canonical.count)
    let count = canonical.withUnsafeBufferPointer { text in
      out.withUnsafeMutableBufferPointer { room in
        room.baseAddress.map { KeyedText.encode(text, marks: marks, into: $0, codes: table, recent: &recent) }
          ?? 0
      }
    }
    return Array(out[..<count])
  }

  /// `keyed`, walking the members as the reader marked them when it read `canonical`.
  private static func keyedFromMarks(_ canonical: [UInt8], _ table: KeyCodes, _ recent: inout [Int32])
    -> [UInt8]
  {
    var writer = JSONWriter(compact: true)
    var marks = MemberMarks()
    canonical.withUnsafeBufferPointer { buffer in
      var reader = JSONReader(unsafeBytes: buffer)
      _ = try? reader.peek()
      try? reader.readCanonicalObject(into: &writer, members: &marks)
    }
    #expect(writer.bytes == canonical, "the reader wrote the text it read")
    return keyed(canonical, table, &recent, marks: marks)
  }
}
