/// Equality by the bytes a value would be written as.
///
/// The synthesized `==` would compare strings the Swift way, by canonical equivalence,
/// so `"é"` (NFC) would equal `"e\u0301"` (NFD) although the file holds different bytes
/// and the round-trip promise is about bytes. Hashing stays synthesized: values equal
/// here are canonically equal too, so they hash alike.
extension JSONValue {
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let left), .bool(let right)): left == right
    case (.number(let left), .number(let right)): sameBytes(left, right)
    case (.string(let left), .string(let right)): sameBytes(left, right)
    case (.array(let left), .array(let right)): left == right
    case (.object(let left), .object(let right)): left.members == right.members
    default: false
    }
  }
}

extension JSONObject.Member {
  public static func == (lhs: JSONObject.Member, rhs: JSONObject.Member) -> Bool {
    JSONValue.sameBytes(lhs.key, rhs.key) && lhs.value == rhs.value
  }
}

extension JSONValue {
  /// Whether two strings hold the same UTF-8 bytes: the counts first (stored), then the
  /// bytes in place, eight at a time, where both are contiguous (native strings are), else
  /// through the views. A diff and a save over changed records compare every unchanged
  /// field so; the `elementsEqual` of the two `utf8` views, a step of their iterators per
  /// byte, was a tenth of a diff's time.
  static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
    let (left, right) = (lhs.utf8, rhs.utf8)
    guard left.count == right.count else { return false }
    let inPlace = left.withContiguousStorageIfAvailable { leftBytes in
      right.withContiguousStorageIfAvailable { rightBytes in CanonicalJSON.sameBytes(leftBytes, rightBytes) }
    }
    return (inPlace ?? nil) ?? left.elementsEqual(right)
  }
}
