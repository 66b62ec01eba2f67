import Testing

@testable import RecordKit

/// Loading reads records straight from the bytes, and falls back to a tree per record
/// for anything unusual: both ways must load the same records and refuse a file with
/// the same error at the same place.
extension RecordFileTests {
  /// What loading `bytes` gives, one way or the other.
  static func outcome<Root: Record>(_ bytes: [UInt8], as kind: Root.Type, streaming: Bool) -> Result<
    [Root], RecordFileError
  > {
    Result { () throws(RecordFileError) in
      try RecordFile<Root>.decode(bytes, streaming: streaming).document.records
    }
  }

  static func expectBothWaysAgree(_ text: String, _ comment: Comment? = nil) {
    let bytes = Array(text.utf8)
    let streamed = outcome(bytes, as: TaskRecord.self, streaming: true)
    let tree = outcome(bytes, as: TaskRecord.self, streaming: false)
    #expect(streamed == tree, comment ?? "\(text)")
    let streamedContacts = outcome(bytes, as: ContactRecord.self, streaming: true)
    let treeContacts = outcome(bytes, as: ContactRecord.self, streaming: false)
    #expect(streamedContacts == treeContacts, comment ?? "\(text)")
  }

  @Test(arguments: [
    #"[{"id": "a", "title": "t", "done": true, "priority": 5, "tags": ["x", "y"], "due": null}]"#,
    #"[{"title": "t", "id": "a"}]"#,
    #"[{"id": "", "title": "t"}]"#,
    #"[{"id": 7}]"#,
    #"[{}]"#,
    #"[{"id": "a", "title": 5, "x": }]"#,
    #"[{"id": "a", "title": 5, "title": "again"}]"#,
    #"[{"id": "a", "title": "t", "title": "again"}]"#,
    #"[{"id": "a", "zz": 1, "zz": 2}]"#,
    #"[{"id": "a", "priority": 2.0}]"#,
    #"[{"id": "a", "priority": -0}]"#,
    #"[{"id": "a", "priority": 6}]"#,
    #"[{"id": "a", "priority": 99999999999999999999}]"#,
    #"[{"id": "a", "priority": -9223372036854775808}]"#,
    #"[{"id": "a", "priority": 1e0}]"#,
    #"[{"id": "a", "tags": ["x", 1]}]"#,
    #"[{"id": "a", "tags": []}, {"id": "b", "tags": "x"}]"#,
    #"[{"id": "a", "due": "2026-02-30"}]"#,
    #"[{"id": "a", "due": "2026-02-28T10:00Z"}]"#,
    #"[{"id": "a", "done": "true"}]"#,
    #"[{"id": "a", "t\u0069tle": "escaped key"}]"#,
    #"[{"\u0069d": "a", "title": "escaped id key"}]"#,
    #"[{"id": "a", "title": "t\u00e9\n", "caf\u00e9": {"n": [1, {}]}}]"#,
    #"[{"id": "a", "name": "Ann", "address": {"city": "Lyon", "floor": 3}}]"#,
    #"[{"id": "a", "address": "Lyon"}]"#,
    #"[{"id": "a", "address": {"city": 5}}]"#,
    #"[{"id": "a", "address.city": "Lyon"}]"#,
    #"[{"id": "a"}, {"id": "a"}]"#,
    #"[{"id": "a"}, 5]"#,
    #"[{"id": "a", "title": "t",}]"#,
    #"[{"id": "a", "title" "t"}]"#,
    #"[{"id": "a", "title": "t" "done": true}]"#,
    "[{\"id\": \"a\", \"title\": \"\u{212A}\"}]",
    "[{\"id\": \"a\", \"\u{212A}ey\": 1, \"Key\": 2}]",
  ])
  func streamingAndTreeLoadingAgree(_ text: String) {
    Self.expectBothWaysAgree(text)
  }

  /// Found by fuzzing: streaming read a key's colon before checking the key for a
  /// duplicate, so a repeated key followed by something other than `:` was refused as
  /// a missing colon, while the tree (and the contract) name the duplicate first.
  @Test(arguments: [
    (#"[{"id": "a", "title": "t", "title".0}]"#, "title", 27),
    (#"[{"id": "a", "color": 1, "color" 2}]"#, "color", 25),
    (#"[{"id": "a", "id"}]"#, "id", 13),
  ])
  func aRepeatedKeyWithoutItsColonIsRefusedAsADuplicateBothWays(text: String, key: String, offset: Int) {
    let expected = RecordFileError.syntax(
      JSONSyntaxError(.duplicateKey(key), at: JSONPosition(line: 1, column: offset + 1, offset: offset)))
    for streaming in [true, false] {
      #expect(Self.outcome(Self.bytes(text), as: TaskRecord.self, streaming: streaming) == .failure(expected))
    }
    Self.expectBothWaysAgree(text)
  }

  @Test func aRecordWhoseIdIsNotFirstIsLoadedAllTheSame() throws {
    let loaded = try RecordFile<TaskRecord>.decode(Self.bytes(#"[{"title": "t", "id": "a", "zz": 1}]"#))
    #expect(loaded.document.records[0].id == "a")
    #expect(loaded.document.records[0].title == "t")
    #expect(loaded.document.records[0].custom.keys == ["zz"])
  }

  @Test(arguments: [0x5EED_0001, 0x5EED_0002] as [UInt64])
  func damagedRecordFilesAreLoadedOrRefusedAlikeBothWays(_ seed: UInt64) {
    var generator = JSONWriterTests.SeededGenerator(state: seed)
    let seeds = [
      Self.sample,
      #"[{"id": "c1", "name": "Ann", "address": {"city": "Lyon", "zip": "69001", "floor": 3}, "tags": ["a"]}]"#,
    ]
    let interesting = Array(#"[]{}",:\u0eE+-.tfn1 "#.utf8) + [0, 0x0A, 0x80, 0xC3, 0xFF]
    for iteration in 0..<1500 {
      var bytes = Array(seeds.pick(using: &generator).utf8)
      for _ in 0..<Int.random(in: 1...3, using: &generator) where !bytes.isEmpty {
        let at = Int.random(in: 0..<bytes.count, using: &generator)
        let byte = interesting.pick(using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: bytes[at] = byte
        case 1: bytes.insert(byte, at: at)
        case 2: bytes.remove(at: at)
        default: bytes.removeSubrange(at...)
        }
      }
      let comment: Comment = "seed \(seed) iteration \(iteration): \(String(decoding: bytes, as: UTF8.self))"
      #expect(
        Self.outcome(bytes, as: TaskRecord.self, streaming: true)
          == Self.outcome(bytes, as: TaskRecord.self, streaming: false), comment)
      #expect(
        Self.outcome(bytes, as: ContactRecord.self, streaming: true)
          == Self.outcome(bytes, as: ContactRecord.self, streaming: false), comment)
    }
  }
}

extension RecordFileTests {
  @Test(arguments: [1, 7, 300, 4096, RecordFile<TaskRecord>.defaultChunkSize], [RecordLayout.array, .lines])
  func savingInChunksWritesTheSameBytes(chunkSize: Int, layout: RecordLayout) throws {
    var generator = SplitMix64(seed: 0xC4_0001)
    let records = (0..<300).map { Self.randomTask($0, using: &generator) }
    var chunks: [[UInt8]] = []
    RecordFile<TaskRecord>.encode(records, layout: layout, chunkSize: chunkSize) { chunks.append(Array($0)) }
    let whole = RecordFile<TaskRecord>.encode(records, layout: layout)
    #expect(chunks.joined().elementsEqual(whole))
    #expect(chunks.dropLast().allSatisfy { $0.count >= chunkSize })
    #expect(chunks.count <= max(1, whole.count / chunkSize + 1))
    #expect(try RecordFile<TaskRecord>.decode(whole, layout: layout).document.records == records)
  }
}
