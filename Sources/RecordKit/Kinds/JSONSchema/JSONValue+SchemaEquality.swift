/// Equality as JSON Schema defines it for `enum`, `const` and `uniqueItems`.
extension JSONValue {
  /// Whether the two values are equal as JSON Schema compares them: numbers by value
  /// (`1` equals `1.0` and `1e0`), strings and member names by Unicode scalars (not by
  /// canonical equivalence: `"é"` and `"e\u{301}"` differ), arrays item by item, objects
  /// by their members whatever their order. Costs O(size of the values), objects O(n²)
  /// in their member counts.
  func isSchemaEqual(to other: JSONValue) -> Bool {
    switch (self, other) {
    case (.null, .null):
      return true
    case (.bool(let left), .bool(let right)):
      return left == right
    case (.number(let left), .number(let right)):
      guard let left = DecimalNumber(left), let right = DecimalNumber(right) else { return left == right }
      return left == right
    case (.string(let left), .string(let right)):
      return left.unicodeScalars.elementsEqual(right.unicodeScalars)
    case (.array(let left), .array(let right)):
      return left.count == right.count && zip(left, right).allSatisfy { $0.isSchemaEqual(to: $1) }
    case (.object(let left), .object(let right)):
      guard left.members.count == right.members.count else { return false }
      return left.members.allSatisfy { member in
        right.members.contains { other in
          member.key.unicodeScalars.elementsEqual(other.key.unicodeScalars)
            && member.value.isSchemaEqual(to: other.value)
        }
      }
    default:
      return false
    }
  }
}
