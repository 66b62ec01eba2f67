/// One field of a record kind read from a schema: a member of `properties` (or a name in
/// `required` that `properties` lacks, which can hold any JSON value).
package struct SchemaField: Equatable {
  package var name: String
  /// Listed in `required`: every record must hold it.
  var isRequired: Bool
  var shape: SchemaShape
}

/// What a value must be and what the schema says about it: the part of a subschema that a
/// record kind needs for parsing, completion, `fields` and `new`.
struct SchemaShape: Equatable {
  var type: SchemaValueType
  /// `type` was a type and `"null"`: `null` is allowed too (a field that is absent is not
  /// null; whether it may be absent is `SchemaField.isRequired`).
  var isNullable: Bool
  /// The only values allowed: the `enum` values, or the `const` value alone.
  var allowedValues: [JSONValue]?
  /// Bounds, lengths, pattern and the like; `format` is also in `type` (`date`, `dateTime`, `email`).
  var constraints: SchemaConstraints
  var defaultValue: JSONValue?
  var title: String?
  var description: String?
  /// `readOnly`: `set` refuses to change it.
  var isReadOnly: Bool

  /// A shape that admits any JSON value and says nothing.
  static var any: SchemaShape {
    SchemaShape(
      type: .any, isNullable: false, allowedValues: nil, constraints: SchemaConstraints(), defaultValue: nil,
      title: nil, description: nil, isReadOnly: false)
  }
}

/// The type of a value, as a record kind sees it: JSON Schema's `type` with `format` and
/// `items` folded in.
indirect enum SchemaValueType: Equatable {
  case string, integer, number, bool
  /// A string in `format` `date`, `date-time` or `email`.
  case date, dateTime, email
  /// `type: "array"`, with the shape of its elements (`.any` without `items`).
  case list(of: SchemaShape)
  /// `type: "object"`: a nested object with its own fields, as `address` is for contacts.
  case object(fields: [SchemaField], allowsOtherFields: Bool)
  /// `type: "null"` alone.
  case null
  /// No `type`: any JSON value (the schema's other rules still apply when checking).
  case any

  /// A short name for `fields`: "list of string", "date-time".
  var name: String {
    switch self {
    case .string: "string"
    case .integer: "integer"
    case .number: "number"
    case .bool: "bool"
    case .date: "date"
    case .dateTime: "date-time"
    case .email: "email"
    case .list(let element): "list of \(element.type.name)"
    case .object: "object"
    case .null: "null"
    case .any: "any JSON value"
    }
  }
}
