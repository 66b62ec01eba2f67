import Testing

@testable import RecordKit

/// `Numbering` against an array of numbers: random inserts, removes and resets, some
/// keeping the identity (a number equal to its position appended or dropped last) and
/// some breaking it, with every lookup compared after each step.
@Suite struct NumberingTests {
  @Test(arguments: [1, 2, 3, 4])
  func randomChangesMatchAnArrayOfNumbers(seed: UInt64) throws {
    var g = SplitMix64(seed: seed)
    let start = g.int(20)
    var model = (0..<start).map { RecordNumber(UInt32($0)) }
    var numbering = Numbering(identity: start)
    var next = UInt32(start)
    var sawIdentity = 0
    var sawArrays = 0
    for _ in 0..<400 {
      switch g.int(10) {
      case 0..<4:
        // A new number; last (and so, in the identity, kept so) half of the time.
        let position = g.int(2) == 0 ? model.count : g.int(model.count + 1)
        let number = RecordNumber(next)
        next += 1
        model.insert(number, at: position)
        numbering.insert(number, at: position)
      case 4..<7 where !model.isEmpty:
        let position = g.int(2) == 0 ? model.count - 1 : g.int(model.count)
        #expect(numbering.remove(at: position) == model.remove(at: position))
      case 7:
        // Put back a number no record has, where it was or anywhere.
        let taken = Set(model)
        let free = (0..<next).map(RecordNumber.init).filter { !taken.contains($0) }
        guard let number = free.randomElement(using: &g) else { continue }
        let position = g.int(model.count + 1)
        model.insert(number, at: position)
        numbering.insert(number, at: position)
      case 8:
        // A reset to the identity, or to the numbers as they are.
        if g.int(2) == 0 { model = (0..<model.count).map { RecordNumber(UInt32($0)) } }
        numbering.reset(to: model)
      default:
        continue
      }
      let isIdentity = model.indices.elementsEqual(model.map { Int($0.value) })
      #expect(numbering.count == model.count)
      #expect(numbering.all == model)
      if numbering.isIdentity { #expect(isIdentity) }
      if numbering.isIdentity { sawIdentity += 1 } else { sawArrays += 1 }
      for (position, number) in model.enumerated() {
        #expect(numbering.number(at: position) == number)
        #expect(numbering.position(of: number) == position)
      }
      let taken = Set(model)
      for value in 0..<(next + 2) where !taken.contains(RecordNumber(value)) {
        #expect(numbering.position(of: RecordNumber(value)) == nil)
        #expect(numbering.lookup(RecordNumber(value)) == nil)
      }
      #expect(numbering.nextFree.value <= next)
      #expect(model.allSatisfy { $0 < numbering.nextFree })
    }
    // Both forms were exercised.
    #expect(sawIdentity > 10 && sawArrays > 10)
  }

  @Test func numbersGivenInOrderFromZeroAreTheIdentityAndADuplicateIsRefused() throws {
    let identity = try Numbering((0..<5).map { RecordNumber(UInt32($0)) })
    #expect(identity.isIdentity)
    let moved = try Numbering([3, 0, 1].map { RecordNumber($0) })
    #expect(
      !moved.isIdentity && moved.position(of: RecordNumber(3)) == 0
        && moved.position(of: RecordNumber(2)) == nil)
    #expect(moved.nextFree == RecordNumber(4))
    #expect(throws: DocumentError.duplicateNumber(RecordNumber(1))) {
      try Numbering([1, 0, 1].map { RecordNumber($0) })
    }
  }
}
