/// A JSON value that keeps what a lossless round trip needs.
///
/// Numbers keep their spelling (`1.50`, `1e3`, `-0.0`, big integers) because
/// converting them to `Double` and back would change the user's file; objects
/// keep their members in order because recsh writes custom keys back in the
/// order it read them. Two values are equal when they would be written the same.
public enum JSONValue: Equatable, Hashable, Sendable {
  case null
  case bool(Bool)
  /// A number, as spelled in the source (already checked against the JSON grammar).
  case number(String)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)
}

/// The members of a JSON object, in their source order.
///
/// Lookup is linear: records have a handful of keys, and order matters more
/// than asymptotics here. Duplicate keys are refused by the reader, never stored.
public struct JSONObject: Equatable, Hashable, Sendable {
  public var members: [Member]

  public struct Member: Equatable, Hashable, Sendable {
    public var key: String
    public var value: JSONValue

    public init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  public init(_ members: [Member] = []) {
    self.members = members
  }

  public init(_ pairs: KeyValuePairs<String, JSONValue>) {
    self.members = pairs.map { Member(key: $0.key, value: $0.value) }
  }

  /// The value for `key`; setting `nil` removes the member, setting a new key appends it.
  public subscript(key: String) -> JSONValue? {
    get { members.first { $0.key == key }?.value }
    set {
      if let index = members.firstIndex(where: { $0.key == key }) {
        if let newValue {
          members[index].value = newValue
        } else {
          members.remove(at: index)
        }
      } else if let newValue {
        members.append(Member(key: key, value: newValue))
      }
    }
  }

  var keys: [String] { members.map(\.key) }
  var isEmpty: Bool { members.isEmpty }
}

extension JSONValue {
  /// The kind of value, as `peek()` reports it.
  var kind: JSONReader.Kind {
    switch self {
    case .null: .null
    case .bool: .bool
    case .number: .number
    case .string: .string
    case .array: .array
    case .object: .object
    }
  }

  /// The kind of value, as error messages name it ("found a string").
  public var kindDescription: String { kind.description }
}
