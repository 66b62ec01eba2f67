import Testing

@testable import RecordShell

/// The content hash a journal names its data file by: a save hashes what it writes a
/// chunk at a time, a load the whole file at once; both must agree.
@Suite struct ContentHashTests {
  @Test func theHashDoesNotDependOnWhereTheChunksAreCut() {
    var generator = SystemRandomNumberGenerator()
    for count in [0, 1, 7, 8, 9, 15, 16, 17, 100, 1000] {
      let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let whole = ContentHash.of(bytes)
      for _ in 0..<20 {
        var hasher = ContentHasher()
        var start = 0
        while start < count {
          let end = min(count, start + Int.random(in: 0...11, using: &generator))
          bytes[start..<end].withUnsafeBytes { hasher.combine($0) }
          start = end
        }
        #expect(hasher.finalize() == whole, "\(count) bytes")
      }
    }
  }

  @Test func bytesThatDifferOnlyInLengthOrInTheirLastByteHashApart() {
    #expect(ContentHash.of([]) != ContentHash.of([0]))
    #expect(ContentHash.of([0]) != ContentHash.of([0, 0]))
    #expect(ContentHash.of(Array(repeating: 0, count: 8)) != ContentHash.of(Array(repeating: 0, count: 16)))
    #expect(ContentHash.of(Array("abcdefghi".utf8)) != ContentHash.of(Array("abcdefghj".utf8)))
  }
}
