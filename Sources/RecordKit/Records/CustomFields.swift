/// The keys of a record that its kind does not declare, in their original order.
///
/// Reachable through the subscript key path `\R.custom[positioned: name]`, so
/// the one generic property-update command edits them like declared fields.
/// The positioned form carries the key's place, so undoing a removal puts the
/// key back where it was and the file keeps its key order.
public struct CustomFields: Equatable, Sendable {
  public private(set) var members: [JSONObject.Member]

  public init(_ members: [JSONObject.Member] = []) {
    self.members = members
  }

  /// The value for `key`; setting `nil` removes the key, setting a new key appends it.
  public subscript(key: String) -> JSONValue? {
    get { members.first { $0.key == key }?.value }
    set { self[positioned: key] = newValue.map { CustomValue($0) } }
  }

  /// The value for `key` with its place. Setting a present key replaces its
  /// value in place; setting an absent one inserts it at the value's position
  /// (clamped to the end); `nil` removes it.
  subscript(positioned key: String) -> CustomValue? {
    get {
      guard let index = members.firstIndex(where: { $0.key == key }) else { return nil }
      return CustomValue(members[index].value, position: index)
    }
    set {
      let index = members.firstIndex { $0.key == key }
      switch (index, newValue) {
      case (let index?, let value?): members[index].value = value.json
      case (let index?, nil): members.remove(at: index)
      case (nil, let value?):
        members.insert(JSONObject.Member(key: key, value: value.json), at: min(value.position, members.count))
      case (nil, nil): break
      }
    }
  }

  public var keys: [String] { members.map(\.key) }
  public var isEmpty: Bool { members.isEmpty }
}

/// A custom field's value and its place among the record's custom keys.
///
/// Equality is the value's alone: the position says where to put a key that is
/// absent, it is not part of what the field holds.
public struct CustomValue: Equatable, Sendable {
  var json: JSONValue
  /// Index among the custom keys; `Int.max` appends.
  var position: Int

  init(_ json: JSONValue, position: Int = .max) {
    self.json = json
    self.position = position
  }

  public static func == (lhs: CustomValue, rhs: CustomValue) -> Bool {
    lhs.json == rhs.json
  }
}
