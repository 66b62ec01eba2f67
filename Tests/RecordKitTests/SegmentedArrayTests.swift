import Testing

@testable import RecordKit

/// `SegmentedArray` against `Array` as its model: random appends, removals at both ends,
/// writes and copies, across many segment boundaries.
@Suite struct SegmentedArrayTests {
  @Test func randomOperationsMatchAnArray() {
    var generator = SplitMix64(seed: 30)
    for round in 0..<6 {
      var array = SegmentedArray<Int>()
      var model: [Int] = []
      var copies: [(SegmentedArray<Int>, [Int])] = []
      for step in 0..<4_000 {
        switch generator.int(100) {
        case 0..<55:
          // Runs of appends, so that segments fill and new ones are made.
          for _ in 0..<generator.int(40) + 1 {
            let value = round * 1_000_000 + step * 100 + model.count
            array.append(value)
            model.append(value)
          }
        case 55..<65 where !model.isEmpty:
          let k = generator.int(min(model.count, 5_000) + 1)
          array.removeFirst(k)
          model.removeFirst(k)
        case 65..<72 where !model.isEmpty:
          let k = generator.int(min(model.count, 300) + 1)
          array.removeLast(k)
          model.removeLast(k)
        case 72..<90 where !model.isEmpty:
          let index = generator.int(model.count)
          array[index] = -step
          model[index] = -step
        case 90..<92:
          array.removeAll()
          model.removeAll()
        case 92..<96:
          copies.append((array, model))
        default:
          break
        }
        #expect(array.count == model.count)
        if step % 97 == 0 { #expect(Array(array) == model, "round \(round), step \(step)") }
      }
      #expect(Array(array) == model)
      // Copies kept their elements while the original went on changing.
      for (copy, snapshot) in copies { #expect(Array(copy) == snapshot) }
    }
  }

  @Test func aCopyThatAppendsLeavesTheOriginalAsItWas() {
    var original = SegmentedArray(0..<(SegmentedArray<Int>.segmentSize + 10))
    var copy = original
    copy.append(-1)
    copy[3] = -3
    original.append(7)
    #expect(Array(copy) == Array(0..<(SegmentedArray<Int>.segmentSize + 10)).map { $0 == 3 ? -3 : $0 } + [-1])
    #expect(Array(original) == Array(0..<(SegmentedArray<Int>.segmentSize + 10)) + [7])
  }

  @Test func removingTheFrontFreesWholeSegmentsAndKeepsIndicesFromZero() {
    let size = SegmentedArray<Int>.segmentSize
    var array = SegmentedArray(0..<(3 * size))
    array.removeFirst(size + 5)
    #expect(array.segments.count == 2 && array.head == 5)
    #expect(array.first == size + 5 && array[0] == size + 5 && array.last == 3 * size - 1)
    array.removeFirst(size - 5)
    #expect(array.segments.count == 1 && array.head == 0 && array[0] == 2 * size)
    array.removeFirst(array.count)
    #expect(array.isEmpty && array.segments.isEmpty)
    array.append(1)
    #expect(Array(array) == [1])
  }
}
