import Testing

@testable import RecordKit

/// Random damage to valid documents: the reader must accept or refuse, never crash,
/// and a refusal must point inside the file. (Debug builds check every buffer access.)
extension JSONReaderTests {
  static let mutationSeeds: [String] = [
    JSONReaderTests.tasks,
    #"{"a": [1, -2.5e+3, true, false, null, "é\u00e9\ud83d\ude00\n"], "b": {"": {}}}"#,
    "[\"long string that spans more than one eight-byte word, with \\\"escapes\\\" and ünïcödé\"]",
  ]

  static let interestingBytes: [UInt8] =
    Array(#"[]{}",:\/u0eE+-.tfn "#.utf8) + [0, 0x0A, 0x80, 0xC3, 0xED, 0xF4, 0xFF]

  @Test(arguments: [0xDA_0001, 0xDA_0002] as [UInt64])
  func damagedDocumentsAreRefusedCleanly(_ seed: UInt64) {
    var generator = JSONWriterTests.SeededGenerator(state: seed)
    for iteration in 0..<1500 {
      var bytes = Array((Self.mutationSeeds.randomElement(using: &generator) ?? "").utf8)
      for _ in 0..<Int.random(in: 1...3, using: &generator) where !bytes.isEmpty {
        let at = Int.random(in: 0..<bytes.count, using: &generator)
        let byte = Self.interestingBytes.randomElement(using: &generator) ?? 0
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: bytes[at] = byte
        case 1: bytes.insert(byte, at: at)
        case 2: bytes.remove(at: at)
        default: bytes.removeSubrange(at...)
        }
      }
      do {
        let value = try JSONReader.parseDocument(bytes)
        JSONTest.expectRoundTrip(value, "seed \(seed) iteration \(iteration)")
      } catch {
        #expect(error.offset >= 0 && error.offset <= bytes.count, "seed \(seed) iteration \(iteration)")
        #expect(error.line >= 1 && error.column >= 1 && !error.message.isEmpty)
      }
    }
  }
}
