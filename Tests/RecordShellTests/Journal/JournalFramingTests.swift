import RecordKit
import Testing

@testable import RecordShell

/// The journal's record framing: whole records read back; a torn last record
/// is dropped and reported; damage with good records after it is refused.
@Suite struct JournalFramingTests {
  static func journal(_ payloads: [String]) -> (bytes: [UInt8], recordStarts: [Int]) {
    var bytes = JournalFraming.magic
    var starts: [Int] = []
    for (index, payload) in payloads.enumerated() {
      starts.append(bytes.count)
      bytes += JournalFraming.record(sequence: UInt64(index), payload: Array(payload.utf8))
    }
    return (bytes, starts)
  }

  static let payloads = [#"{"header": {}}"#, #"{"do": 1}"#, #"{"undo": true}"#, #"{"do": "caf\#u{E9}"}"#]

  @Test func wholeRecordsReadBackInOrder() throws {
    let (bytes, _) = Self.journal(Self.payloads)
    let contents = try JournalFraming.read(bytes)
    #expect(contents.payloads.map { String(decoding: $0, as: UTF8.self) } == Self.payloads)
    #expect(contents.validLength == bytes.count)
    #expect(contents.tornTail == nil)
  }

  @Test func aJournalCutAtEveryByteOfItsLastRecordKeepsEveryEarlierRecord() throws {
    let (bytes, starts) = Self.journal(Self.payloads)
    let last = try #require(starts.last)
    for cut in last..<bytes.count {
      let contents = try JournalFraming.read(Array(bytes[0..<cut]))
      #expect(contents.payloads.count == Self.payloads.count - 1, "cut at \(cut)")
      #expect(contents.validLength == last)
      #expect((contents.tornTail != nil) == (cut > last), "cut at \(cut)")
    }
  }

  @Test func everySingleBitFlipInTheLastRecordIsATornTail() throws {
    let (bytes, starts) = Self.journal(Self.payloads)
    let last = try #require(starts.last)
    for offset in last..<bytes.count {
      for bit in 0..<8 {
        var damaged = bytes
        damaged[offset] ^= UInt8(1 << bit)
        let contents = try JournalFraming.read(damaged)
        #expect(contents.payloads.count == Self.payloads.count - 1, "byte \(offset) bit \(bit)")
        #expect(contents.tornTail != nil)
      }
    }
  }

  @Test func everySingleBitFlipInAnEarlierRecordIsRefused() throws {
    let (bytes, starts) = Self.journal(Self.payloads)
    for offset in starts[1]..<starts[2] {
      for bit in 0..<8 {
        var damaged = bytes
        damaged[offset] ^= UInt8(1 << bit)
        #expect(throws: JournalError.self, "byte \(offset) bit \(bit)") { try JournalFraming.read(damaged) }
      }
    }
  }

  @Test func aRecordOutOfSequenceIsDamage() throws {
    var bytes = JournalFraming.magic
    bytes += JournalFraming.record(sequence: 0, payload: Array("a".utf8))
    bytes += JournalFraming.record(sequence: 2, payload: Array("b".utf8))
    bytes += JournalFraming.record(sequence: 2, payload: Array("c".utf8))
    #expect(throws: JournalError.damaged(record: 1, offset: 33, nextGood: 50)) {
      try JournalFraming.read(bytes)
    }
  }

  @Test func anEmptyFileOrAHeaderCutShortHoldsNothing() throws {
    #expect(try JournalFraming.read([]).payloads.isEmpty)
    #expect(try JournalFraming.read(Array(JournalFraming.magic.prefix(5))).payloads.isEmpty)
    #expect(throws: JournalError.notAJournal) {
      try JournalFraming.read(Array("hello world, not a journal".utf8))
    }
  }

  @Test func crc32MatchesTheStandardCheckValue() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
  }

  /// Slicing-by-8 against the bit-at-a-time definition, for every length up to 70 (the
  /// eight-byte steps and the tail), at unaligned starts and with a seed carried on.
  @Test func crc32AgreesWithTheBitwiseDefinition() {
    func bitwise(_ bytes: ArraySlice<UInt8>, seed: UInt32) -> UInt32 {
      var crc = ~seed
      for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
      }
      return ~crc
    }
    var generator = SplitMix64(seed: 32)
    let bytes = (0..<80).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    for start in 0..<3 {
      for length in 0...70 {
        let slice = bytes[start..<(start + length)]
        let seed = UInt32(truncatingIfNeeded: generator.next())
        let fast = slice.withUnsafeBytes { CRC32.checksum($0, startingWith: seed) }
        #expect(fast == bitwise(slice, seed: seed), "start \(start), length \(length)")
      }
    }
  }

  /// A session's log, written in several pieces (each record's checksum is filled in as
  /// its piece is written), reads back whole: every record's checksum checked, none torn.
  @Test func aSessionsLogWrittenInPiecesReadsBackWhole() throws {
    try TestDirectory.with { folder in
      try folder.write("t.json", JournalCrashTests.start)
      let path = folder.path("t.json")
      var session = try retryingLock {
        try Session<TaskRecord>.open(path: path, stateFolder: testState(for: path))
      }
      .session
      let pieces = [
        ["use a1", "set title x"], ["set priority 2", "new title y", "begin g"],
        ["set title caf\u{E9}", "end", "undo"], ["redo"],
      ]
      var counts: [Int] = []
      for piece in pieces {
        for line in piece { _ = try session.run(line: line) }
        session.writeJournal()
        let contents = try JournalFraming.read(try folder.read(folder.logPath("t.json")))
        #expect(contents.tornTail == nil)
        counts.append(contents.payloads.count)
      }
      let log = try folder.read(folder.logPath("t.json"))
      session.simulateKill()
      let contents = try JournalFraming.read(log)
      #expect(contents.validLength == log.count)
      #expect(contents.tornTail == nil)
      #expect(counts == counts.sorted() && Set(counts).count == pieces.count, "\(counts)")
    }
  }

  @Test func contentHashTellsFilesApart() {
    #expect(ContentHash.of(Array("[]\n".utf8)) != ContentHash.of(Array("[] \n".utf8)))
    #expect(ContentHash.of(Array("abcdefghij".utf8)) == ContentHash.of(Array("abcdefghij".utf8)))
    #expect(ContentHash.of([]).count == 16)
  }
}
