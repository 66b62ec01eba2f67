/// The type of a field, as `fields` lists it and error messages name it.
public indirect enum FieldType: Equatable, Sendable {
  case string
  case bool
  case int(ClosedRange<Int>)
  case stringList
  case date
  /// The base type, or JSON `null`.
  case nullable(FieldType)
  /// Any JSON value: custom fields, whose type the file decides.
  case json
  /// A run-time kind's field type, in words: its name for `fields` ("integer or null"),
  /// what a value must be for "expected …", and whether it may be absent.
  case described(name: String, expectation: String, isOptional: Bool)

  /// A short name for `fields`: "int 0–5", "date or null".
  public var name: String {
    switch self {
    case .string: "string"
    case .bool: "bool"
    case .int(let range): "int \(range.lowerBound)–\(range.upperBound)"
    case .stringList: "list of strings"
    case .date: "date"
    case .nullable(let base): base.name + " or null"
    case .json: "any JSON value"
    case .described(let name, _, _): name
    }
  }

  /// What a value must be, for "expected …" in error messages.
  var expectation: String {
    switch self {
    case .string: "a string"
    case .bool: "true or false"
    case .int(let range): "an integer \(range.lowerBound)–\(range.upperBound)"
    case .stringList: "a list of strings like [a, \"b c\"]"
    case .date: "an ISO 8601 date (2026-12-01) or date-time (2026-12-01T09:30:00Z)"
    case .nullable(let base): base.expectation + " or null"
    case .json: "a JSON value"
    case .described(_, let expectation, _): expectation
    }
  }

  /// Whether `set FIELD null` and `unset FIELD` make sense for the field.
  public var isOptional: Bool {
    switch self {
    case .nullable, .json: true
    case .described(_, _, let isOptional): isOptional
    default: false
    }
  }
}
