/// The checks of one subschema that apply to one kind of value: bounds for numbers,
/// lengths, a pattern and a format for strings, uniqueness for lists.
///
/// Each applies only to values of its kind (`minimum` lets a string through), as in
/// JSON Schema; `type` is what refuses the other kinds.
struct SchemaConstraints: Equatable {
  var minimum: SchemaBound?
  var maximum: SchemaBound?
  var exclusiveMinimum: SchemaBound?
  var exclusiveMaximum: SchemaBound?
  /// Lengths in Unicode scalars (code points), as JSON Schema counts them.
  var minLength: Int?
  var maxLength: Int?
  var pattern: SchemaPattern?
  var format: StringFormat?
  var uniqueItems = false
}

/// A number bound as written in the schema (for messages) and as an exact value.
struct SchemaBound: Equatable, Sendable {
  var spelling: String
  var value: DecimalNumber
  /// The bound as an Int, when it is a whole number written without a fraction or an
  /// exponent that fits one.
  var integer: Int?

  init?(_ spelling: String) {
    guard let value = DecimalNumber(spelling) else { return nil }
    self.spelling = spelling
    self.value = value
    integer = DecimalNumber.smallInteger(spelling)
  }

  /// Whether the number spelled `spelling` is below (-1), at (0) or above (1) the bound;
  /// `small` is `DecimalNumber.smallInteger(spelling)`, given by the caller, who compares
  /// one value with several bounds. Exact whatever the spellings; no allocation when
  /// both are small integers.
  func order(of spelling: String, small: Int?) -> Int {
    if let small, let integer { return small < integer ? -1 : small == integer ? 0 : 1 }
    guard let number = DecimalNumber(spelling) else { return 0 }
    return number < value ? -1 : value < number ? 1 : 0
  }
}
