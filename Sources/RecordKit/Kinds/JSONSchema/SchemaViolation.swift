/// One way a value breaks a schema: where in the value, which rule, and the words for it.
///
/// The message is what follows `field 'year': ` in recsh's reports: `must be at most
/// 2100, found 21000`. Found values are shown as JSON when short, else by their kind.
package struct SchemaViolation: Equatable, Sendable, CustomStringConvertible {
  /// The part of the checked value at fault (`/tags/2`); for a missing required member,
  /// the place it would be.
  var pointer: JSONPointer
  /// The keyword that refused it, in the schema document (`/properties/year/maximum`).
  var keyword: JSONPointer
  var reason: Reason

  init(_ reason: Reason, at pointer: JSONPointer, keyword: JSONPointer) {
    self.reason = reason
    self.pointer = pointer
    self.keyword = keyword
  }

  enum Reason: Equatable, Sendable {
    case wrongType(expected: SchemaType, allowsNull: Bool, found: JSONValue)
    case notAllowed(allowed: [JSONValue], found: JSONValue)
    case notConstant(JSONValue, found: JSONValue)
    /// Number bounds, as spelled in the schema and in the value.
    case belowMinimum(String, found: String)
    case aboveMaximum(String, found: String)
    case notAboveExclusiveMinimum(String, found: String)
    case notBelowExclusiveMaximum(String, found: String)
    /// String lengths, in Unicode scalars.
    case tooShort(minimum: Int, found: String, length: Int)
    case tooLong(maximum: Int, found: String, length: Int)
    case patternMismatch(String, found: String)
    /// The match reached its bound (`CompiledPattern`): neither a match nor a mismatch.
    case patternTooCostly(String)
    case formatMismatch(StringFormat, found: String)
    case missingRequired
    /// A member `properties` does not name, where `additionalProperties` is `false`.
    case undeclared
    /// Two equal items in a `uniqueItems` list, by index.
    case repeatedItem(first: Int, second: Int)
  }

  package var description: String { message }

  /// The rule and the value in words: lowercase, values as JSON.
  var message: String {
    switch reason {
    case .wrongType(let expected, let allowsNull, let found):
      "must be \(expected.words)\(allowsNull ? " or null" : ""), found \(FieldError.found(found))"
    case .notAllowed(let allowed, let found) where allowed.isEmpty:
      "cannot have any value (enum is empty), found \(FieldError.found(found))"
    case .notAllowed(let allowed, let found):
      "must be one of \(allowed.map(\.compactText).joined(separator: ", ")), found \(FieldError.found(found))"
    case .notConstant(let constant, let found):
      "must be \(constant.compactText), found \(FieldError.found(found))"
    case .belowMinimum(let limit, let found):
      "must be at least \(limit), found \(found)"
    case .aboveMaximum(let limit, let found):
      "must be at most \(limit), found \(found)"
    case .notAboveExclusiveMinimum(let limit, let found):
      "must be greater than \(limit), found \(found)"
    case .notBelowExclusiveMaximum(let limit, let found):
      "must be less than \(limit), found \(found)"
    case .tooShort(let minimum, let found, let length):
      "must be at least \(minimum) \(Self.characters(minimum)) long, found \(Self.show(found)) (\(length))"
    case .tooLong(let maximum, let found, let length):
      "must be at most \(maximum) \(Self.characters(maximum)) long, found \(Self.show(found)) (\(length))"
    case .patternMismatch(let pattern, let found):
      "must match pattern \(JSONValue.string(pattern).compactText), found \(Self.show(found))"
    case .patternTooCostly(let pattern):
      "pattern \(pattern) is too costly for this value"
    case .formatMismatch(let format, let found):
      "must be \(format.words), found \(Self.show(found))"
    case .missingRequired:
      "is required but missing"
    case .undeclared:
      "is not a declared field (additionalProperties is false)"
    case .repeatedItem(let first, let second):
      "must have unique items, but items \(first) and \(second) are equal"
    }
  }

  private static func characters(_ count: Int) -> String {
    count == 1 ? "character" : "characters"
  }

  private static func show(_ text: String) -> String {
    FieldError.found(.string(text))
  }
}
