/// One subschema as read: what it checks and what it says, with its place in the document.
///
/// Nodes live in `JSONSchema.nodes` and point at each other by index (`properties`, `items`,
/// `reference`), so that a recursive schema (`"$ref": "#"`) is a graph, not an infinite tree.
struct SchemaNode {
  /// Where the subschema is in the schema document.
  var pointer: JSONPointer
  /// The `type`, if given; `nil` lets any JSON value through.
  var type: SchemaType?
  /// Whether `type` was a list of a type and `"null"`.
  var allowsNull = false
  /// The `enum` values, if given (an empty list admits nothing).
  var allowedValues: [JSONValue]?
  /// The `const` value, if given.
  var constant: JSONValue?
  var constraints = SchemaConstraints()
  /// The `properties`, in the schema's order.
  var properties: [SchemaProperty] = []
  /// The `required` names, in the schema's order.
  var required: [String] = []
  /// `additionalProperties`: whether an object may hold members `properties` does not name.
  var allowsAdditionalProperties = true
  /// The node `items` checks every element of an array with.
  var items: Int?
  /// The node a `$ref` leads to, applied alongside this node's own keywords, and its text.
  var reference: Int?
  var referenceText: String?
  /// The `$id`, when given: a subschema with one is where its `#/…` references start.
  var identifier: String?
  var annotations = SchemaAnnotations()
}

/// One entry of `properties`: a member name and the node that checks its value.
struct SchemaProperty: Equatable, Sendable {
  var name: String
  var node: Int
}

/// What a subschema says without checking it: shown by `fields`, used by `new`.
struct SchemaAnnotations: Equatable, Sendable {
  var title: String?
  var description: String?
  /// `default`: not checked against the schema when read (the official suite requires a
  /// schema with a default that breaks it to be accepted); a value made from it is checked
  /// like any other.
  var defaultValue: JSONValue?
  var isReadOnly = false
  /// `x-recsh-key`: the field that identifies a record (top-level schema only).
  var recordKey: String?
}

/// The JSON types `type` can name.
enum SchemaType: String, CaseIterable, Equatable, Sendable {
  case null, boolean, object, array, number, string, integer

  /// The type in an error message: "an integer", "true or false".
  var words: String {
    switch self {
    case .null: "null"
    case .boolean: "true or false"
    case .object: "an object"
    case .array: "a list"
    case .number: "a number"
    case .string: "a string"
    case .integer: "an integer"
    }
  }

  /// Whether `value` is of this type; `integer` takes any number with a whole value (`1.0`).
  func admits(_ value: JSONValue) -> Bool {
    switch (self, value) {
    case (.null, .null), (.boolean, .bool), (.object, .object), (.array, .array), (.number, .number),
      (.string, .string):
      true
    case (.integer, .number(let spelling)):
      DecimalNumber.smallInteger(spelling) != nil || DecimalNumber(spelling)?.isInteger == true
    default:
      false
    }
  }
}
