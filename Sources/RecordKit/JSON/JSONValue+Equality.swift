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
    case (.number(let left), .number(let right)): left.utf8.elementsEqual(right.utf8)
    case (.string(let left), .string(let right)): left.utf8.elementsEqual(right.utf8)
    case (.array(let left), .array(let right)): left == right
    case (.object(let left), .object(let right)): left.members == right.members
    default: false
    }
  }
}

extension JSONObject.Member {
  public static func == (lhs: JSONObject.Member, rhs: JSONObject.Member) -> Bool {
    lhs.key.utf8.elementsEqual(rhs.key.utf8) && lhs.value == rhs.value
  }
}
