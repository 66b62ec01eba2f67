import Testing

@testable import RecordKit

/// The cache lines a hint asks for cover exactly the span given.
@Suite struct CacheHintTests {
  @Test(arguments: [
    (0x1000, 0, [Int]()), (0x1000, 1, [0x1000]), (0x1000, 64, [0x1000]), (0x1000, 65, [0x1000, 0x1040]),
    (0x103F, 1, [0x1000]), (0x103F, 2, [0x1000, 0x1040]), (0x1010, 96, [0x1000, 0x1040]),
    (0x1020, 96, [0x1000, 0x1040]), (0x1020, 97, [0x1000, 0x1040, 0x1080]),
    (0x1001, 191, [0x1000, 0x1040, 0x1080]),
  ])
  func linesCoverTheSpan(start: Int, count: Int, expected: [Int]) throws {
    #expect(Array(CacheHint.lines(from: start, byteCount: count)) == expected)
    // A hint at memory that is not the process's does not fault.
    CacheHint.read(try #require(UnsafePointer<UInt8>(bitPattern: start)), count: count)
  }
}
