/// Each position's record number and each number's position, for `Document`.
///
/// A document read from a file numbers its records 0, 1, 2… in file order, and a record
/// made later gets the next number and usually goes last: until a record is inserted
/// before others or removed, every number is its own position. The numbering is then
/// that identity and holds no arrays (they take 8 bytes a record), and becomes the two arrays at the first change that breaks
/// it, O(records) once. Lookups either way are O(1): one comparison in the identity, one
/// array read in the arrays.
struct Numbering: Sendable {
  /// The number at each position; empty while `isIdentity`.
  private var numbers: [RecordNumber] = []
  /// The position of the record with each number, `-1` for a number no record has now;
  /// empty while `isIdentity`.
  private var positions: [Int32] = []
  /// How many records are numbered.
  private(set) var count: Int
  /// Whether every record's number is its position (and the arrays are empty).
  private(set) var isIdentity: Bool

  /// `count` records numbered 0, 1, 2… in order.
  init(identity count: Int) {
    self.count = count
    isIdentity = true
  }

  /// Records numbered `numbers`, in order; two records given one number are refused.
  init(_ numbers: [RecordNumber]) throws(DocumentError) {
    count = numbers.count
    isIdentity = false
    if numbers.indices.elementsEqual(numbers.lazy.map { Int($0.value) }) {
      isIdentity = true
      return
    }
    self.numbers = numbers
    positions = try Self.positions(of: numbers)
  }

  /// The position of each of `numbers`, sized to the largest number exactly.
  private static func positions(of numbers: [RecordNumber]) throws(DocumentError) -> [Int32] {
    let slots = numbers.lazy.map { Int($0.value) + 1 }.max() ?? 0
    var positions = [Int32](repeating: -1, count: slots)
    for (position, number) in numbers.enumerated() {
      let slot = Int(number.value)
      guard positions[slot] < 0 else { throw .duplicateNumber(number) }
      positions[slot] = Int32(truncatingIfNeeded: position)
    }
    return positions
  }

  /// At least one more than the largest number a record has now (in the arrays, than the
  /// largest any record had): where a document's next number starts. `Document` keeps its
  /// own next number, which only grows.
  var nextFree: RecordNumber {
    RecordNumber(UInt32(truncatingIfNeeded: isIdentity ? count : positions.count))
  }

  /// The number of the record at `position`, which must exist.
  @inline(__always)
  func number(at position: Int) -> RecordNumber {
    precondition(position >= 0 && position < count, "a numbered position")
    return isIdentity ? RecordNumber(UInt32(truncatingIfNeeded: position)) : numbers[position]
  }

  /// The position of the record numbered `number`, if one has it.
  @inline(__always)
  func position(of number: RecordNumber) -> Int? {
    let slot = Int(number.value)
    if isIdentity { return slot < count ? slot : nil }
    guard slot < positions.count else { return nil }
    let position = positions[slot]
    return position < 0 ? nil : Int(position)
  }

  /// The numbers in order. O(records): it makes the array in the identity.
  var all: [RecordNumber] {
    isIdentity ? (0..<count).map { RecordNumber(UInt32(truncatingIfNeeded: $0)) } : numbers
  }

  /// `position(of:)` as a closure that holds the table it reads (a copy on write, so the
  /// numbering may change while the closure lives).
  var lookup: (RecordNumber) -> Int? {
    let table = self
    return { table.position(of: $0) }
  }

  /// Numbers the records as `numbers` now say (the caller checks they are all different).
  mutating func reset(to numbers: [RecordNumber]) {
    do {
      self = try Numbering(numbers)
    } catch {
      preconditionFailure("a document's records have different numbers")
    }
  }

  /// Gives `number`, which no record has, to a record inserted at `position` (at most
  /// `count`); those after it move up one.
  mutating func insert(_ number: RecordNumber, at position: Int) {
    precondition(position >= 0 && position <= count, "a position to insert at")
    if isIdentity, position == count, Int(number.value) == count {
      count += 1
      return
    }
    materialize()
    numbers.insert(number, at: position)
    count += 1
    if position < count - 1 { shiftPositions(from: position, by: 1) }
    let slot = Int(number.value)
    if slot >= positions.count { positions += repeatElement(-1, count: slot + 1 - positions.count) }
    positions[slot] = Int32(truncatingIfNeeded: position)
  }

  /// Takes the record at `position` out; those after it move down one. Its number.
  mutating func remove(at position: Int) -> RecordNumber {
    precondition(position >= 0 && position < count, "a numbered position")
    if isIdentity, position == count - 1 {
      count -= 1
      return RecordNumber(UInt32(truncatingIfNeeded: position))
    }
    materialize()
    let number = numbers.remove(at: position)
    count -= 1
    positions[Int(number.value)] = -1
    shiftPositions(from: position + 1, by: -1)
    return number
  }

  /// The identity as arrays.
  private mutating func materialize() {
    guard isIdentity else { return }
    numbers = (0..<count).map { RecordNumber(UInt32(truncatingIfNeeded: $0)) }
    positions = (0..<count).map { Int32(truncatingIfNeeded: $0) }
    isIdentity = false
  }

  /// Adds `delta` to every position from `start` on.
  private mutating func shiftPositions(from start: Int, by delta: Int32) {
    let start = Int32(truncatingIfNeeded: start)
    positions.withUnsafeMutableBufferPointer { positions in
      for slot in positions.indices where positions[slot] >= start { positions[slot] &+= delta }
    }
  }
}
