import Testing

@testable import RecordKit

/// `IDHash` and the `IDIndex` behind `Document`'s lookups by id.
@Suite struct IDIndexTests {
  /// Random bytes of every length up to 40 (every path of the hash: empty, 1–3, 4–7,
  /// 8–16 bytes, and more in blocks of 16): changing any one byte, or adding a zero byte,
  /// changes the hash; the same bytes in another buffer hash the same.
  @Test func everyByteAndTheLengthTakePart() {
    var generator = SplitMix64(seed: 41)
    for length in 0...40 {
      for _ in 0..<20 {
        let bytes = (0..<length).map { _ in UInt8(generator.int(256)) }
        let hash = Self.hash(bytes)
        #expect(Self.hash(Array(bytes)) == hash)
        #expect(Self.hash(bytes + [0]) != hash, "length \(length)")
        for position in 0..<length {
          var changed = bytes
          changed[position] ^= UInt8(generator.int(255) + 1)
          #expect(Self.hash(changed) != hash, "length \(length), byte \(position)")
        }
      }
    }
  }

  /// An ASCII string hashes as its UTF-8 bytes do, whether it is held inline (up to 15
  /// bytes) or on the heap; any string hashes the same whatever made it.
  @Test func aStringHashesAsItsBytes() {
    for id in [
      "", "a", "b7", "k3x9p2aa", "exactly15bytes!", "sixteen-bytes-id", "naïve", "日本語の id",
      String(repeating: "z", count: 70),
    ] {
      if id.utf8.allSatisfy({ $0 < 0x80 }) { #expect(IDHash.hash(id) == Self.hash(Array(id.utf8)), "\(id)") }
      let rebuilt = String(decoding: Array(id.utf8), as: UTF8.self)
      #expect(IDHash.hash(rebuilt) == IDHash.hash(id), "\(id)")
      let substring = ("<" + id + ">").dropFirst().dropLast()
      #expect(IDHash.hash(String(substring)) == IDHash.hash(id), "\(id)")
    }
  }

  /// A document's index against an array of ids as its model: random inserts and removals
  /// (which shift positions and, removing, move later entries of a probe run back), ids
  /// of many lengths, some sharing long prefixes, many of at most 8 ASCII bytes, some of
  /// those a byte apart or holding a zero byte; every id is found where the model has it,
  /// and ids not there are not found. Lookups begun ahead (`IDLookahead`), before the
  /// changes or after, find the same, and the record they warm is the one they find.
  @Test func lookupsMatchAModelThroughInsertsAndRemovals() {
    var generator = SplitMix64(seed: 42)
    var document = Document<TaskRecord>()
    var model: [String] = []
    var made = 0
    var (likelyRight, likelyWrong) = (0, 0)
    func newID() -> String {
      made += 1
      let body = String(made, radix: 36)
      switch generator.int(6) {
      case 0: return body
      case 1: return "shared-prefix-of-some-length-" + body
      case 2: return "é" + body
      case 3: return String(repeating: "x", count: generator.int(20)) + body
      // Up to 8 bytes from a small alphabet: many ids a byte apart, some with a zero byte.
      case 4: return String((0..<generator.int(9)).map { _ in Array("ab\u{0}")[generator.int(3)] })
      default: return String(("k0000000" + body).suffix(8))
      }
    }
    // Lookups begun before the changes below, by ids some of which come later: a lookahead
    // depends on the bytes alone, so it holds through every change.
    var lookaheads: [[UInt8]: IDLookahead] = [:]
    for _ in 0..<300 {
      let id = Array(newID().utf8)
      lookaheads[id] = id.withUnsafeBufferPointer { Document<TaskRecord>.lookahead(ofASCIIID: $0) }
    }
    made = 0
    for step in 0..<6_000 {
      if model.isEmpty || generator.int(100) < 60 {
        var id = newID()
        while model.contains(id) { id = newID() }
        let position = generator.int(model.count + 1)
        var record = TaskRecord(id: id)
        // Some with a title, whose bytes `warmField` asks for.
        if generator.int(2) == 0 { record.title = "title of " + id }
        document.insert(record, numbered: document.nextNumber, at: position)
        model.insert(id, at: position)
      } else {
        let position = generator.int(model.count)
        document.remove(at: position)
        model.remove(at: position)
      }
      if step % 500 == 0 || step == 5_999 {
        for (position, id) in model.enumerated() {
          #expect(document.position(ofID: id) == position, "step \(step): \(id)")
          let ascii = id.utf8.allSatisfy { $0 < 0x80 }
          #expect(
            Array(id.utf8).withUnsafeBufferPointer { document.position(ofASCIIID: $0) }
              == (ascii ? position : nil),
            "step \(step): \(id)")
          let bytes = Array(id.utf8)
          let lookahead = bytes.withUnsafeBufferPointer { Document<TaskRecord>.lookahead(ofASCIIID: $0) }
          #expect((lookahead != nil) == ascii, "step \(step): \(id)")
          for begun in [lookahead, lookaheads[bytes]] {
            guard let begun else { continue }
            #expect(
              bytes.withUnsafeBufferPointer { document.position(ofASCIIID: $0, lookahead: begun) } == position
            )
            // The guess is a record there; warming it reads nothing it should not.
            #expect(document.likelyPosition(for: begun).map { (0..<model.count).contains($0) } == true)
            document.warmSlot(for: begun)
            document.warmRecord(for: begun)
            for field in TaskRecord.fields.fields.indices { document.warmField(field, for: begun) }
            if document.likelyPosition(for: begun) == position { likelyRight += 1 } else { likelyWrong += 1 }
          }
        }
        for absent in ["", "nope", "shared-prefix-of-some-length-", "é", "ab\u{0}", "aaaaaaaaa", "k000000"]
        where !model.contains(absent) {
          #expect(document.position(ofID: absent) == nil, "step \(step): \(absent)")
          #expect(Array(absent.utf8).withUnsafeBufferPointer { document.position(ofASCIIID: $0) } == nil)
          Array(absent.utf8).withUnsafeBufferPointer { bytes in
            guard let begun = Document<TaskRecord>.lookahead(ofASCIIID: bytes) else { return }
            #expect(document.position(ofASCIIID: bytes, lookahead: begun) == nil)
            document.warmRecord(for: begun)
          }
        }
      }
    }
    #expect(model.count > 1_000)
    // The tags make the first candidate of a walk its id's nearly always.
    #expect(likelyWrong * 100 < likelyRight, "\(likelyWrong) guesses wrong, \(likelyRight) right")
  }

  /// Ids are the same when they are the same `String` (canonically equivalent), as they
  /// were before the hash was `IDHash`: "café" with a precomposed é and with e and a
  /// combining accent is one id, and so are the three characters whose canonical form is
  /// ASCII and that ASCII (the Kelvin sign and K, the Greek question mark and `;`, the
  /// Greek varia and `` ` ``), found either way, by a `String` or by the ASCII bytes; a file
  /// that holds both is refused as holding one id twice.
  @Test func idsAreTheSameWhenTheirStringsAre() throws {
    let pairs = [
      ("caf\u{E9}", "cafe\u{301}"), ("K", "\u{212A}"), ("a;b", "a\u{37E}b"), ("`x`", "\u{1FEF}x\u{1FEF}"),
      ("Kelvin\u{212A}0123456789abcdef", "KelvinK0123456789abcdef"),
    ]
    for (first, second) in pairs {
      #expect(first == second, "as Swift compares them")
      #expect(IDHash.hash(first) == IDHash.hash(second), "\(first.debugDescription)")
      for (held, asked) in [(first, second), (second, first)] {
        let document = try Document(records: [TaskRecord(id: "other"), TaskRecord(id: held)])
        #expect(document.position(ofID: asked) == 1, "\(held.debugDescription) by \(asked.debugDescription)")
        let byBytes = Array(asked.utf8).withUnsafeBufferPointer { document.position(ofASCIIID: $0) }
        #expect(byBytes == (asked.utf8.allSatisfy { $0 < 0x80 } ? 1 : nil), "\(asked.debugDescription)")
      }
      #expect(throws: DocumentError.self) {
        try Document(records: [TaskRecord(id: first), TaskRecord(id: second)])
      }
    }
    let document = try Document(records: ["K", "k", "caf\u{E9}"].map(TaskRecord.init(id:)))
    #expect(document.position(ofID: "cafe") == nil)
    #expect(document.position(ofID: "k") == 1)
  }

  private static func hash(_ bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBufferPointer { IDHash.hash(bytes: $0) }
  }
}
