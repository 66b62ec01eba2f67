/// The ids of a file image's records, in file order (`FileImage`): how a save finds the
/// bytes of each of the document's records.
///
/// The ids' UTF-8 bytes are kept back to back in one array. While every id has the same
/// number of bytes, as generated ids do, that is all: 8 bytes an id of 8 letters, where a
/// `String` is 16. From the first id of another length (a kind without a key numbers its records `#1`, `#2`…),
/// where each id ends is kept too, in 4 bytes. Past 4 GiB of ids they become `String`s,
/// as they were all kept before; so no list costs more than that. Comparing an id with
/// one here compares bytes and makes no `String`.
public struct IDList: Sendable {
  /// The ids' bytes back to back (but in the `.wide` form).
  private var bytes: [UInt8] = []
  /// The length of every id, while they all have one; `nil` before the first, and once
  /// two differ.
  private var width: Int?
  /// Where each id ends in `bytes`, in the `.ended` form.
  private var ends: [UInt32] = []
  /// The ids, in the `.wide` form: past 4 GiB of their bytes.
  private var strings: [String] = []
  /// How many ids the list has room for: what a form it takes reserves.
  private var reserved = 0
  private(set) var count = 0

  /// How the list holds its ids: one width, each id's end, or `String`s.
  enum Form { case fixed, ended, wide }
  private(set) var form = Form.fixed
  /// How many bytes of ids the list holds before it takes `String`s: 4 GiB, less in tests.
  private let byteLimit: Int

  init() { byteLimit = Int(UInt32.max) }

  /// A list that takes `String`s past `byteLimit` bytes of ids (at most 4 GiB).
  init(byteLimit: Int) {
    precondition(byteLimit <= UInt32.max, "ends in 4 bytes")
    self.byteLimit = byteLimit
  }

  /// The list of `ids`, in order.
  public init(_ ids: [String]) {
    self.init(count: ids.count) { ids[$0] }
  }

  /// The list of `count` ids, `id(position)` for each position in order: a caller that
  /// has its ids elsewhere (a document's records) need not gather them first.
  public init(count: Int, id: (Int) -> String) {
    self.init()
    reserveCapacity(count)
    for position in 0..<count { append(id(position)) }
  }

  /// The bytes of the id at `position`, which must be in the list (not `wide`).
  private func range(at position: Int) -> Range<Int> {
    if let width { return (position * width)..<((position + 1) * width) }
    return (position == 0 ? 0 : Int(ends[position - 1]))..<Int(ends[position])
  }

  /// The id at `position`, which must be in the list. Makes a `String`.
  subscript(position: Int) -> String {
    precondition(position >= 0 && position < count, "an id in the list")
    if form == .wide { return strings[position] }
    let range = range(at: position)
    return bytes.withUnsafeBufferPointer { bytes in
      UTF8Validation.knownValidString(UnsafeBufferPointer(rebasing: bytes[range]))
    }
  }

  /// Whether the id at `position` (which must be in the list) is `id`. O(bytes of the id).
  func holds(_ id: String, at position: Int) -> Bool {
    precondition(position >= 0 && position < count, "an id in the list")
    // Bytes in every form (a `String`'s `==` would take two normalizations as one id).
    if form == .wide { return strings[position].utf8.elementsEqual(id.utf8) }
    let range = range(at: position)
    guard id.utf8.count == range.count else { return false }
    return bytes.withUnsafeBufferPointer { bytes in
      let stored = UnsafeBufferPointer(rebasing: bytes[range])
      return id.utf8.withContiguousStorageIfAvailable { CanonicalJSON.sameBytes(stored, $0) }
        ?? stored.elementsEqual(id.utf8)
    }
  }

  mutating func append(_ id: String) {
    defer { count += 1 }
    if form == .wide { return strings.append(id) }
    let length = id.utf8.count
    if count == 0, form == .fixed {
      width = length
      bytes.reserveCapacity(reserved * length)
    }
    if form == .fixed, length != width { separate() }
    guard bytes.count + length <= byteLimit else {
      widen()
      return strings.append(id)
    }
    if id.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
      bytes.append(contentsOf: id.utf8)
    }
    if form == .ended { ends.append(UInt32(truncatingIfNeeded: bytes.count)) }
  }

  /// Room for `count` ids in all (of the first's width, while they share one).
  mutating func reserveCapacity(_ count: Int) {
    reserved = max(reserved, count)
    switch form {
    case .fixed: if let width { bytes.reserveCapacity(count * width) }
    case .ended: ends.reserveCapacity(count)
    case .wide: strings.reserveCapacity(count)
    }
  }

  /// The first `count` ids (at most all of them).
  func leading(_ count: Int) -> IDList {
    let count = min(max(count, 0), self.count)
    var list = self
    list.count = count
    switch form {
    case .fixed: list.bytes = Array(bytes[..<(count * (width ?? 0))])
    case .ended:
      list.ends = Array(ends[..<count])
      list.bytes = Array(bytes[..<(count == 0 ? 0 : Int(ends[count - 1]))])
    case .wide: list.strings = Array(strings[..<count])
    }
    return list
  }

  /// Each id's position (the first, should two share one).
  func positionsByID() -> [String: Int] {
    var positions: [String: Int] = [:]
    positions.reserveCapacity(count)
    for position in 0..<count {
      let id = self[position]
      if positions[id] == nil { positions[id] = position }
    }
    return positions
  }

  /// From one width to each id's end.
  private mutating func separate() {
    let width = width ?? 0
    ends.reserveCapacity(max(reserved, count + 1))
    for position in 0..<count { ends.append(UInt32(truncatingIfNeeded: (position + 1) * width)) }
    (self.width, form) = (nil, .ended)
  }

  /// From bytes to `String`s.
  private mutating func widen() {
    strings.reserveCapacity(max(reserved, count + 1))
    for position in 0..<count { strings.append(self[position]) }
    (bytes, ends, width, form) = ([], [], nil, .wide)
  }
}
