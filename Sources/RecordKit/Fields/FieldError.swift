/// Why a field reference or a value was refused. Worded in one place, `description`.
public enum FieldError: Error, Equatable, Sendable {
  case unknownField(String, suggestion: String?)
  case readOnly(String)
  case invalidValue(field: String, expected: String, found: String)
  case notOptional(String)
  case notAList(String)
  case elementMissing(field: String, element: String)
  case givenTwice(String)
  case customFieldExists(String)
  case invalidCustomName(String)
  /// A value of the right type that breaks a rule of the kind's schema: the rule and the
  /// value in words (`must be at most 2100, found 21000`).
  case brokenRule(field: String, message: String)
  /// A custom field where the kind's schema forbids them (`additionalProperties: false`).
  case customFieldsForbidden(String)
  /// `new` without a field the kind requires (or without a key it cannot make up).
  case requiredMissing(String)
  /// `<`, `<=`, `>`, `>=` on a field whose values have no order (a bool, a list).
  case notOrdered(field: String, operator: String, type: String)
}

extension FieldError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .unknownField(let name, let suggestion?):
      "unknown field '\(name)'; did you mean '\(suggestion)'?"
    case .unknownField(let name, nil):
      "unknown field '\(name)' (see 'fields'; 'set +\(name) VALUE' creates a custom field)"
    case .readOnly(let name):
      "field '\(name)' is read-only"
    case .invalidValue(let field, let expected, let found):
      "field '\(field)': expected \(expected), found \(found)"
    case .notOptional(let name):
      "field '\(name)' is not optional; set it to a new value instead"
    case .notAList(let name):
      "field '\(name)' is not a list"
    case .elementMissing(let field, let element):
      "field '\(field)' does not contain \(element)"
    case .givenTwice(let name):
      "field '\(name)' is given twice"
    case .customFieldExists(let name):
      "field '\(name)' already exists; set it without '+'"
    case .invalidCustomName(let name):
      "'\(name)' cannot name a custom field (use letters, digits, '_', '-' or '.')"
    case .brokenRule(let field, let message):
      "field '\(field)': \(message)"
    case .requiredMissing(let name):
      "field '\(name)' is required: give it, as in 'new \(name) VALUE'"
    case .notOrdered(let field, let op, let type):
      "field '\(field)' (\(type)) has no order: '\(op)' compares numbers, strings and dates; use '=' or '!='"
    case .customFieldsForbidden(let name):
      "cannot create field '\(name)': the kind's schema allows no other fields (additionalProperties is false)"
    }
  }
}
