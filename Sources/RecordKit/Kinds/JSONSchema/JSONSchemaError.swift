/// Why a JSON Schema is refused, and where in it: the JSON pointer of the keyword (or of
/// the subschema) at fault, `/properties/year/multipleOf`.
///
/// recsh reads only the keywords it can check or show; any other is refused rather than
/// ignored, so a rule the user wrote never silently does nothing. The reason is an enum
/// with its context as values, worded in one `switch` (`message`).
package struct JSONSchemaError: Error, Equatable, Sendable, CustomStringConvertible {
  var reason: Reason
  /// Where in the schema document the problem is (`/` for the whole schema).
  package var pointer: JSONPointer

  init(_ reason: Reason, at pointer: JSONPointer) {
    self.reason = reason
    self.pointer = pointer
  }

  /// `POINTER: MESSAGE`; the caller puts the file name in front.
  package var description: String { "\(pointer): \(message)" }

  enum Reason: Equatable, Sendable {
    /// A keyword recsh does not support (`allOf`, `multipleOf`, a misspelt `reqired`).
    case unsupportedKeyword(String)
    /// `true` or `false` where a schema goes.
    case booleanSchema(Bool)
    /// `additionalProperties` given as a schema rather than `true` or `false`.
    case additionalPropertiesSchema
    /// A `$ref` to another document, or to an anchor (`#foo`), not `#` or `#/…`.
    case nonLocalReference(String)
    /// A `type` list other than one type and `"null"` (shown as written).
    case typeUnion(JSONValue)
    /// A schema that is not an object (nor a boolean): found this kind.
    case notAnObject(found: JSONReader.Kind)
    case unknownType(String)
    /// A `format` other than the ones recsh checks.
    case unsupportedFormat(String)
    /// A `pattern` that is not a regular expression; the regex parser's own words.
    case invalidPattern(String, problem: String)
    /// Two bounds no value can meet at once: `minimum` 5 with `maximum` 3.
    case emptyRange(lower: String, lowerValue: String, upper: String, upperValue: String)
    /// An `enum` or `const` value that the schema's own `type` refuses.
    case valueBreaksType(keyword: String, value: JSONValue, type: String)
    /// A `$ref` whose pointer names no place in the document.
    case referenceNowhere(String)
    /// `$ref`s that lead back to where they started without checking anything (shown in order).
    case referenceCycle([String])
    /// A keyword whose value has the wrong JSON type (`minLength: "3"`).
    case wrongValue(keyword: String, expected: String, found: JSONValue)
    /// A value listed twice where each must be unique (`required`).
    case duplicateValue(keyword: String, value: JSONValue)
    /// `x-recsh-key` inside a subschema: only the top-level schema names the records' key.
    case recordKeyNotAtTop
    /// The top-level schema's `type` is not `object`: it must describe one record.
    case recordNotObject(type: String)
    /// `x-recsh-key` names a field the schema does not declare as a string or an integer.
    case badRecordKey(String, problem: String)
  }

  /// The reason in words: lowercase, schema text in quotes.
  package var message: String {
    switch reason {
    case .unsupportedKeyword(let keyword):
      "keyword '\(keyword)' is not supported"
    case .booleanSchema(let value):
      "a boolean schema (\(value)) is not supported; write {} for any value"
    case .additionalPropertiesSchema:
      "additionalProperties other than true/false is not supported"
    case .nonLocalReference(let reference):
      "$ref that is not a local JSON pointer is not supported: \(quote(reference)); write \"#/$defs/NAME\""
    case .typeUnion(let value):
      "type other than one type or a type and null is not supported: \(value.compactText)"
    case .notAnObject(let found):
      "a schema must be an object, found \(found)"
    case .unknownType(let name):
      "unknown type \(quote(name)) (known: null, boolean, object, array, number, string, integer)"
    case .unsupportedFormat(let name):
      "format \(quote(name)) is not checked by recsh (only date, date-time and email are)"
    case .invalidPattern(let pattern, let problem):
      "pattern \(quote(pattern)) is not a valid regular expression: \(problem)"
    case .emptyRange(let lower, let lowerValue, let upper, let upperValue):
      "no value can meet both \(lower) \(lowerValue) and \(upper) \(upperValue)"
    case .valueBreaksType(let keyword, let value, let type):
      "\(keyword) value \(FieldError.found(value)) is not \(type), as the schema's type says"
    case .referenceNowhere(let reference):
      "$ref \(quote(reference)) points nowhere in the schema"
    case .referenceCycle(let references):
      "$ref cycle: " + references.map(quote).joined(separator: " -> ")
    case .wrongValue(let keyword, let expected, let found):
      "\(keyword) must be \(expected), found \(FieldError.found(found))"
    case .duplicateValue(let keyword, let value):
      "\(keyword) lists \(FieldError.found(value)) twice"
    case .recordKeyNotAtTop:
      "x-recsh-key is only allowed in the top-level schema"
    case .recordNotObject(let type):
      "the top-level schema must describe a record (type \"object\"), found type \(quote(type))"
    case .badRecordKey(let name, let problem):
      "x-recsh-key \(quote(name)) \(problem)"
    }
  }

  private func quote(_ text: String) -> String {
    JSONValue.string(text).compactText
  }
}
