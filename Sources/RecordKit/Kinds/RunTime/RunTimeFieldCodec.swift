/// The codec of every field of a run-time kind: a JSON value, typed and checked by the
/// field's shape and by the schema's own nodes for it.
///
/// Typed input is read by the field's type: a word is a string for a string field, a
/// number for a number field (its spelling kept); `null` is JSON null only where the field
/// allows it; a list is read element by element. A value of the right type is then
/// checked against the subschemas that declare the field (`brokenRule`), so `set`, `new`,
/// `add` and `remove` refuse what the schema refuses, in its words.
///
/// Values from the file or the journal are taken as they are (`decode` accepts any
/// JSON): a file is checked record by record against the whole schema when it is read,
/// and the journal holds values that were checked when they were made.
///
/// `@unchecked Sendable`: everything here is immutable after `init`; the schema's compiled
/// patterns (`Regex`, which the standard library does not mark `Sendable`) are only ever
/// matched, never changed.
struct RunTimeFieldCodec: ListFieldCodec, @unchecked Sendable {
  let shape: SchemaShape
  let isRequired: Bool
  let isKey: Bool
  /// The schema and the nodes that declare this field; `nil` checks nothing beyond type.
  let schema: JSONSchema?
  let nodes: [Int]

  /// How a token is read, from the shape's type, worked out once: `parse` runs for every
  /// `set`, and reading the shape's (indirect) type each time retained and released it.
  private let reading: Reading
  /// Whether a bare `null` means JSON null here.
  private let takesNull: Bool

  private enum Reading {
    case text, integer, number, bool, list, json, null

    init(_ type: SchemaValueType) {
      switch type {
      case .string, .date, .dateTime, .email: self = .text
      case .integer: self = .integer
      case .number: self = .number
      case .bool: self = .bool
      case .list: self = .list
      case .object, .any: self = .json
      case .null: self = .null
      }
    }

    /// Whether a bare `null` means JSON null for a value of `shape`, read this way.
    func takesNull(_ shape: SchemaShape) -> Bool {
      self == .json || self == .null || shape.isNullable
    }
  }

  init(shape: SchemaShape, isRequired: Bool, isKey: Bool, schema: JSONSchema?, nodes: [Int]) {
    self.shape = shape
    self.isRequired = isRequired
    self.isKey = isKey
    self.schema = schema
    self.nodes = nodes
    reading = Reading(shape.type)
    takesNull = reading.takesNull(shape)
    // Only a field some subschema declares has rules beyond its type to check.
    hasRules = schema != nil && !nodes.isEmpty
  }

  /// Whether `brokenRule` has anything to check.
  private let hasRules: Bool

  var type: FieldType {
    .described(
      name: (shape.type == .any && shape.allowedValues != nil ? "enum" : shape.type.name)
        + (shape.isNullable ? " or null" : ""),
      expectation: Self.expectation(shape), isOptional: !isRequired && !isKey)
  }

  var isReadOnly: Bool { shape.isReadOnly || isKey }

  /// A cell reads as the shape's type: text for strings, dates and lists (which a cell
  /// cannot hold), numbers and booleans where spelled so; any other shape (an object, an
  /// enum of mixed values, any value) as the column's cells are spelled.
  var cellReading: CellReading {
    switch reading {
    case .text, .list: .text
    case .integer: .integer
    case .number: .number
    case .bool: .bool
    case .json, .null: .inferred
    }
  }

  func parse(_ token: ValueToken) -> CustomValue? {
    Self.parse(token, as: shape, reading: reading, takesNull: takesNull).map { CustomValue($0) }
  }

  /// The JSON value `token` means for a value of `shape`, or `nil` when it is none.
  static func parse(_ token: ValueToken, as shape: SchemaShape) -> JSONValue? {
    let reading = Reading(shape.type)
    return parse(token, as: shape, reading: reading, takesNull: reading.takesNull(shape))
  }

  /// `parse(_:as:)` with the shape's reading worked out already (a field's, once).
  private static func parse(_ token: ValueToken, as shape: SchemaShape, reading: Reading, takesNull: Bool)
    -> JSONValue?
  {
    switch (reading, token) {
    case (_, .word("null")): return takesNull ? .null : nil
    case (.text, .word(let text)), (.text, .quoted(let text)): return .string(text)
    case (.integer, .word(let text)):
      guard
        DecimalNumber.smallInteger(text) != nil
          || (JSONValue.isValidNumberSpelling(text) && DecimalNumber(text)?.isInteger == true)
      else { return nil }
      return .number(text)
    case (.number, .word(let text)):
      return JSONValue.isValidNumberSpelling(text) ? .number(text) : nil
    case (.bool, .word("true")): return .bool(true)
    case (.bool, .word("false")): return .bool(false)
    case (.list, .list(let items)):
      guard case .list(let element) = shape.type else { return nil }
      var values: [JSONValue] = []
      values.reserveCapacity(items.count)
      for item in items {
        guard let value = parse(item, as: element) else { return nil }
        values.append(value)
      }
      return .array(values)
    case (.json, _): return CustomFieldCodec.infer(token)
    default: return nil
    }
  }

  /// Dates and date-times as `ISODate.compare` orders them, anything else as `JSONOrder`.
  func compare(_ a: CustomValue, _ b: CustomValue) -> Int? {
    if reading == .text, shape.type == .date || shape.type == .dateTime,
      case .string(let x) = a.json, case .string(let y) = b.json, let left = ISODate(x),
      let right = ISODate(y)
    {
      return ISODate.compare(left, right)
    }
    return JSONOrder.compare(a.json, b.json)
  }
  /// Not for a bool, a list or an object.
  var isOrdered: Bool {
    switch shape.type {
    case .bool, .list, .object, .null: false
    default: true
    }
  }
  func isNull(_ value: CustomValue) -> Bool { value.json == .null }
  /// A date or date-time field's filter value must be one (`parse` takes any string and
  /// leaves the format to `brokenRule`); a JSON list's elements compare as JSON.
  func parseFilterValue(_ token: ValueToken) -> CustomValue? {
    guard let value = parse(token) else { return nil }
    if shape.type == .date || shape.type == .dateTime, case .string(let text) = value.json {
      // Either form: a date compares with a date-time by calendar day.
      guard ISODate(text) != nil else { return nil }
    }
    return value
  }
  func sameElement(_ a: JSONValue, _ b: JSONValue) -> Bool { JSONOrder.compare(a, b) == 0 }
  func containsElement(_ value: CustomValue, _ element: CustomValue) -> Bool? {
    JSONOrder.contains(value.json, element.json)
  }

  func decode(_ json: JSONValue) -> CustomValue? { CustomValue(json) }
  func encode(_ value: CustomValue) -> JSONValue { value.json }
  func write(_ value: CustomValue, to writer: inout JSONWriter) { writer.value(value.json) }

  func display(_ value: CustomValue) -> String {
    if case .string(let text) = value.json { text } else { value.json.compactText }
  }

  /// The first rule of the schema's nodes for this field that `value` breaks. Every edit
  /// of the field asks: the value's canonical text is checked first
  /// (`JSONSchema.admits(canonical:_:node:)`, the tree checker's answer without a tree),
  /// and only a refused value goes to the tree checker, which words the rule.
  ///
  /// The schema is reached in place (optional chaining): bound to a name, it was copied,
  /// its references retained and released, on every edit.
  func brokenRule(_ value: CustomValue) -> String? {
    guard hasRules else { return nil }
    let admitted = CanonicalJSON.withText(of: value.json) { text in
      nodes.allSatisfy { schema?.admits(canonical: text, 0..<text.count, node: $0) ?? true }
    }
    if admitted { return nil }
    for node in nodes {
      if let violation = schema?.violations(of: value.json, againstNode: node, limit: 1).first {
        return violation.pointer.tokens.isEmpty
          ? violation.message : "\(violation.pointer): \(violation.message)"
      }
    }
    return nil
  }

  /// Commands keep the key's place, as a custom field's do: `{"value": …, "at": 2}`.
  func encodeForCommand(_ value: CustomValue) -> JSONValue {
    CustomFieldCodec().encodeForCommand(value)
  }
  func decodeFromCommand(_ json: JSONValue) -> CustomValue? {
    CustomFieldCodec().decodeFromCommand(json)
  }
  func appendForCommand(_ value: CustomValue, to out: inout [UInt8]) {
    CustomFieldCodec().appendForCommand(value, to: &out)
  }

  /// The `enum` values, `true`/`false` for a bool, `null` where allowed, and the default:
  /// a string as its text (completion quotes what needs quoting), anything else as JSON.
  var completions: [String] {
    var words: [String] = []
    let text = { (value: JSONValue) -> String in
      if case .string(let text) = value { text } else { value.compactText }
    }
    if let allowed = shape.allowedValues {
      words = allowed.map(text)
    } else if shape.type == .bool {
      words = ["true", "false"]
    }
    if shape.isNullable, !words.contains("null") { words.append("null") }
    if let value = shape.defaultValue, !words.contains(text(value)) { words.append(text(value)) }
    return words
  }

  var rules: String {
    var parts: [String] = []
    if isKey { parts.append("key") }
    if isRequired, !isKey { parts.append("required") }
    if shape.isReadOnly { parts.append("read-only") }
    if let allowed = shape.allowedValues {
      parts.append(
        allowed.count == 1
          ? "= \(allowed[0].compactText)" : "one of " + allowed.map(\.compactText).joined(separator: ", "))
    }
    let rules = shape.constraints
    if let minimum = rules.minimum { parts.append(">= \(minimum.spelling)") }
    if let minimum = rules.exclusiveMinimum { parts.append("> \(minimum.spelling)") }
    if let maximum = rules.maximum { parts.append("<= \(maximum.spelling)") }
    if let maximum = rules.exclusiveMaximum { parts.append("< \(maximum.spelling)") }
    if let minimum = rules.minLength { parts.append("length >= \(minimum)") }
    if let maximum = rules.maxLength { parts.append("length <= \(maximum)") }
    if let pattern = rules.pattern { parts.append("pattern \(JSONValue.string(pattern.source).compactText)") }
    if rules.uniqueItems { parts.append("unique items") }
    if let value = shape.defaultValue { parts.append("default \(value.compactText)") }
    return parts.joined(separator: ", ")
  }

  var about: String? { shape.description ?? shape.title }

  /// What a value of `shape` must be, for "expected …".
  static func expectation(_ shape: SchemaShape) -> String {
    let base: String
    if let allowed = shape.allowedValues, !allowed.isEmpty {
      base = "one of " + allowed.map(\.typedWord).joined(separator: ", ")
    } else {
      base = typeExpectation(shape.type)
    }
    return shape.isNullable ? base + " or null" : base
  }

  private static func typeExpectation(_ type: SchemaValueType) -> String {
    switch type {
    case .string: "a string"
    case .integer: "an integer"
    case .number: "a number"
    case .bool: "true or false"
    case .date: "an ISO 8601 date (2026-12-01)"
    case .dateTime: "an ISO 8601 date-time (2026-12-01T09:30:00Z)"
    case .email: "an email address"
    case .list(let element): "a list of \(element.type.name) values like [\(sample(element.type))]"
    case .object, .any: "a JSON value"
    case .null: "null"
    }
  }

  private static func sample(_ type: SchemaValueType) -> String {
    switch type {
    case .integer: "1, 2"
    case .number: "1.5, 2"
    case .bool: "true, false"
    case .date: "2026-12-01"
    default: "a, \"b c\""
    }
  }

  // MARK: One element of a list field (`add`, `remove`)

  private var elementShape: SchemaShape {
    if case .list(let element) = shape.type { return element }
    return .any
  }

  func parseElement(_ token: ValueToken) -> JSONValue? {
    Self.parse(token, as: elementShape)
  }

  func elements(of value: CustomValue) -> [JSONValue] {
    if case .array(let items) = value.json { items } else { [] }
  }

  func value(from elements: [JSONValue]) -> CustomValue { CustomValue(.array(elements)) }
  func displayElement(_ element: JSONValue) -> String { element.typedWord }
  var elementExpectation: String { "a list element (\(Self.expectation(elementShape)))" }
}
