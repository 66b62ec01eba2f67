/// The ids of a file image's records, in file order (`FileImage`): how a save finds the
/// bytes of each of the document's records.
///
/// While every id has the same number of bytes, as generated ids do, they are kept back
/// to back in one array, `width` bytes each: 8 bytes an id of 8 letters, where a `String`
/// is 16 (1.6 MB of 100k ids, a sixteenth of their JSON Lines file). The first id of
/// another length turns the list into `String`s, as it was kept before; so no list costs
/// more than that. Comparing an id with one here compares bytes and makes no `String`.
struct IDList: Sendable {
  /// The ids' UTF-8 bytes back to back, `width` each, while `isPacked`.
  private var packed: [UInt8] = []
  /// The length of every id, while `isPacked`; `nil` before the first.
  private var width: Int?
  /// The ids, once two differ in length.
  private var strings: [String] = []
  private(set) var isPacked = true
  /// Room asked for before the first id (whose width says how many bytes it is).
  private var reserved = 0
  private(set) var count = 0

  init() {}

  init(_ ids: some Sequence<String>) {
    reserveCapacity(ids.underestimatedCount)
    for id in ids { append(id) }
  }

  /// The id at `position`, which must be in the list. Makes a `String`.
  subscript(position: Int) -> String {
    precondition(position >= 0 && position < count, "an id in the list")
    guard isPacked, let width else { return strings[position] }
    return packed.withUnsafeBufferPointer { bytes in
      UTF8Validation.knownValidString(
        UnsafeBufferPointer(rebasing: bytes[(position * width)..<(position + 1) * width]))
    }
  }

  /// Whether the id at `position` (which must be in the list) is `id`. O(bytes of the id).
  func holds(_ id: String, at position: Int) -> Bool {
    precondition(position >= 0 && position < count, "an id in the list")
    guard isPacked, let width else { return strings[position] == id }
    var id = id
    return id.withUTF8 { wanted in
      wanted.count == width
        && packed.withUnsafeBufferPointer { bytes in
          bytes[(position * width)..<(position + 1) * width].elementsEqual(wanted)
        }
    }
  }

  mutating func append(_ id: String) {
    defer { count += 1 }
    guard isPacked else { return strings.append(id) }
    var id = id
    id.withUTF8 { bytes in
      if width == nil {
        width = bytes.count
        packed.reserveCapacity(reserved * bytes.count)
      }
      if bytes.count == width {
        packed.append(contentsOf: bytes)
      } else {
        unpack()
      }
    }
    if !isPacked { strings.append(id) }
  }

  /// Room for `count` ids in all, of the width of the first.
  mutating func reserveCapacity(_ count: Int) {
    if !isPacked {
      strings.reserveCapacity(count)
    } else if let width {
      packed.reserveCapacity(count * width)
    } else {
      reserved = count
    }
  }

  /// The first `count` ids (at most all of them).
  func leading(_ count: Int) -> IDList {
    let count = min(max(count, 0), self.count)
    var list = self
    list.count = count
    if !isPacked {
      list.strings = Array(strings[..<count])
    } else if let width {
      list.packed = Array(packed[..<(count * width)])
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

  /// The ids as `String`s from now on.
  private mutating func unpack() {
    strings = (0..<count).map { self[$0] }
    (packed, width, isPacked) = ([], nil, false)
  }
}
