/// The checks of one subschema that apply to one kind of value: bounds for numbers,
/// lengths, a pattern and a format for strings, uniqueness for lists.
///
/// Each applies only to values of its kind (`minimum` lets a string through), as in
/// JSON Schema; `type` is what refuses the other kinds.
package struct SchemaConstraints: Equatable {
  package var minimum: SchemaBound?
  package var maximum: SchemaBound?
  package var exclusiveMinimum: SchemaBound?
  package var exclusiveMaximum: SchemaBound?
  /// Lengths in Unicode scalars (code points), as JSON Schema counts them.
  package var minLength: Int?
  package var maxLength: Int?
  package var pattern: SchemaPattern?
  package var format: StringFormat?
  package var uniqueItems = false

  package init() {}
}

/// A number bound as written in the schema (for messages) and as an exact value.
package struct SchemaBound: Equatable, Sendable {
  package var spelling: String
  package var value: DecimalNumber

  package init?(_ spelling: String) {
    guard let value = DecimalNumber(spelling) else { return nil }
    self.spelling = spelling
    self.value = value
  }
}
