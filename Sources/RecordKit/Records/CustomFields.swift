/// The keys of a record that its kind does not declare, in their original order.
///
/// Reachable through the subscript key path `\R.custom[name]`, so the one
/// generic property-update command edits them like declared fields. Removing a
/// key keeps its slot (as a tombstone) so that undoing the removal puts it back
/// at the same place in the file; tombstones are invisible to everything else,
/// equality included.
public struct CustomFields: Sendable {
  private var slots: [Slot]

  struct Slot: Sendable {
    var key: String
    var value: JSONValue?
  }

  public init(_ members: [JSONObject.Member] = []) {
    slots = members.map { Slot(key: $0.key, value: $0.value) }
  }

  public subscript(key: String) -> JSONValue? {
    get { slots.first { $0.key == key }?.value }
    set {
      if let index = slots.firstIndex(where: { $0.key == key }) {
        slots[index].value = newValue
      } else if let newValue {
        slots.append(Slot(key: key, value: newValue))
      }
    }
  }

  /// The present keys and values, in order.
  public var members: [JSONObject.Member] {
    slots.compactMap { slot in slot.value.map { JSONObject.Member(key: slot.key, value: $0) } }
  }

  public var keys: [String] { members.map(\.key) }
  public var isEmpty: Bool { slots.allSatisfy { $0.value == nil } }
}

extension CustomFields: Equatable {
  public static func == (lhs: CustomFields, rhs: CustomFields) -> Bool {
    lhs.members == rhs.members
  }
}
