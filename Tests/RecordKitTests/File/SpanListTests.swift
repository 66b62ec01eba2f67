import Testing

@testable import RecordKit

/// `SpanList`, a `FileImage`'s record ranges in 8 bytes each: against an array of ranges
/// (the model) over random appends and prefixes, and across its widening past 4 GiB.
@Suite struct SpanListTests {
  @Test func holdsWhatAnArrayOfRangesHolds() {
    var generator = JSONWriterTests.SeededGenerator(state: 0x5EED_5A4E)
    for round in 0..<200 {
      var list = SpanList()
      var model: [Range<Int>] = []
      var cursor = Int.random(in: 0...64, using: &generator)
      // Some rounds cross 4 GiB on the way, some start past it, most stay below.
      if round % 10 == 0 { cursor = Int(UInt32.max) - Int.random(in: 0...3_000, using: &generator) }
      if round % 10 == 1 { cursor = Int(UInt32.max) + Int.random(in: 1...3_000, using: &generator) }
      for _ in 0..<Int.random(in: 0...300, using: &generator) {
        let start = cursor + Int.random(in: 0...40, using: &generator)
        let end = start + Int.random(in: 0...40, using: &generator)
        list.append(start..<end)
        model.append(start..<end)
        cursor = end
      }
      #expect(list.count == model.count)
      #expect(Array(list) == model)
      #expect(list.isCompact == (model.last.map { $0.upperBound <= Int(UInt32.max) } ?? true))
      let cut = Int.random(in: 0...model.count, using: &generator)
      #expect(Array(list.leading(cut)) == Array(model[..<cut]))
      #expect(SpanList(model) == list)
      if let last = model.last {
        var other = SpanList(model.dropLast())
        other.append(last.lowerBound..<(last.upperBound + 1))
        #expect(other != list)
      }
    }
  }

  @Test func widensAtTheFirstBoundPastFourGiB() {
    let edge = Int(UInt32.max)
    var list = SpanList([0..<10, 12..<(edge - 5), (edge - 5)..<edge])
    #expect(list.isCompact)
    list.append(edge..<(edge + 1))
    #expect(!list.isCompact)
    list.append((edge + 7)..<(1 << 40))
    #expect(
      Array(list) == [0..<10, 12..<(edge - 5), (edge - 5)..<edge, edge..<(edge + 1), (edge + 7)..<(1 << 40)])
    #expect(Array(list.leading(2)) == [0..<10, 12..<(edge - 5)])
    #expect(!list.leading(2).isCompact)
  }
}
