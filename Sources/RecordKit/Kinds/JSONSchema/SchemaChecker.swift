/// Checks one value against a read schema, collecting violations up to a limit.
///
/// Recursion follows the value: a `$ref` applies its target to the same value, and the
/// reader has refused `$ref` cycles, so every step either descends into the value or
/// follows a finite chain. A value from the reader is at most 256 levels deep.
struct SchemaChecker {
  let schema: JSONSchema
  let limit: Int
  var found: [SchemaViolation] = []

  init(schema: JSONSchema, limit: Int) {
    self.schema = schema
    self.limit = limit
  }

  var isFull: Bool { found.count >= limit }

  /// Where in the checked value the checker is: the pointer's tokens, pushed and popped
  /// as it descends, and made into a `JSONPointer` only for a violation (checking a
  /// million records must not build a pointer per member).
  private var path: [String] = []

  mutating func report(_ reason: SchemaViolation.Reason, keyword: JSONPointer, below member: String? = nil) {
    guard !isFull else { return }
    let pointer = JSONPointer(member.map { path + [$0] } ?? path)
    found.append(SchemaViolation(reason, at: pointer, keyword: keyword))
  }

  /// Applies node `index` (and what its `$ref` leads to) to `value`, found at `pointer`.
  mutating func check(_ value: JSONValue, against index: Int, at pointer: JSONPointer) {
    path = pointer.tokens
    check(value, against: index)
  }

  /// Applies node `index` to `value`, found at `path`.
  private mutating func check(_ value: JSONValue, against index: Int) {
    guard !isFull else { return }
    let node = schema.nodes[index]
    if let target = node.reference { check(value, against: target) }
    let here = node.pointer
    if let type = node.type, !type.admits(value), !(node.allowsNull && value == .null) {
      report(
        .wrongType(expected: type, allowsNull: node.allowsNull, found: value),
        keyword: here.appending("type"))
      return
    }
    if let allowed = node.allowedValues, !allowed.contains(where: { $0.isSchemaEqual(to: value) }) {
      report(.notAllowed(allowed: allowed, found: value), keyword: here.appending("enum"))
    }
    if let constant = node.constant, !constant.isSchemaEqual(to: value) {
      report(.notConstant(constant, found: value), keyword: here.appending("const"))
    }
    switch value {
    case .number(let spelling):
      checkNumber(spelling, node)
    case .string(let text):
      checkString(text, node)
    case .array(let items):
      checkArray(items, node)
    case .object(let object):
      checkObject(object, node)
    case .null, .bool:
      break
    }
  }

  private mutating func checkNumber(_ spelling: String, _ node: SchemaNode) {
    guard let number = DecimalNumber(spelling) else { return }
    let rules = node.constraints
    let here = node.pointer
    if let bound = rules.minimum, number < bound.value {
      report(.belowMinimum(bound.spelling, found: spelling), keyword: here.appending("minimum"))
    }
    if let bound = rules.maximum, bound.value < number {
      report(.aboveMaximum(bound.spelling, found: spelling), keyword: here.appending("maximum"))
    }
    if let bound = rules.exclusiveMinimum, !(bound.value < number) {
      report(
        .notAboveExclusiveMinimum(bound.spelling, found: spelling),
        keyword: here.appending("exclusiveMinimum"))
    }
    if let bound = rules.exclusiveMaximum, !(number < bound.value) {
      report(
        .notBelowExclusiveMaximum(bound.spelling, found: spelling),
        keyword: here.appending("exclusiveMaximum"))
    }
  }

  private mutating func checkString(_ text: String, _ node: SchemaNode) {
    let rules = node.constraints
    let here = node.pointer
    if rules.minLength != nil || rules.maxLength != nil {
      let length = text.unicodeScalars.count
      if let minimum = rules.minLength, length < minimum {
        report(
          .tooShort(minimum: minimum, found: text, length: length),
          keyword: here.appending("minLength"))
      }
      if let maximum = rules.maxLength, length > maximum {
        report(
          .tooLong(maximum: maximum, found: text, length: length),
          keyword: here.appending("maxLength"))
      }
    }
    if let pattern = rules.pattern, !pattern.matches(text) {
      report(.patternMismatch(pattern.source, found: text), keyword: here.appending("pattern"))
    }
    if let format = rules.format, !format.admits(text) {
      report(.formatMismatch(format, found: text), keyword: here.appending("format"))
    }
  }

  private mutating func checkArray(_ items: [JSONValue], _ node: SchemaNode) {
    if let itemNode = node.items {
      for (index, item) in items.enumerated() {
        path.append(String(index))
        check(item, against: itemNode)
        path.removeLast()
      }
    }
    guard node.constraints.uniqueItems else { return }
    for second in items.indices {
      if let first = items[..<second].firstIndex(where: { $0.isSchemaEqual(to: items[second]) }) {
        report(
          .repeatedItem(first: first, second: second),
          keyword: node.pointer.appending("uniqueItems"))
        return
      }
    }
  }

  private mutating func checkObject(_ object: JSONObject, _ node: SchemaNode) {
    for member in object.members {
      if let property = node.properties.first(where: { $0.name.utf8.elementsEqual(member.key.utf8) }) {
        path.append(member.key)
        check(member.value, against: property.node)
        path.removeLast()
      } else if !node.allowsAdditionalProperties {
        report(.undeclared, keyword: node.pointer.appending("additionalProperties"), below: member.key)
      }
    }
    for name in node.required where !object.members.contains(where: { $0.key.utf8.elementsEqual(name.utf8) })
    {
      report(.missingRequired, keyword: node.pointer.appending("required"), below: name)
    }
  }
}
