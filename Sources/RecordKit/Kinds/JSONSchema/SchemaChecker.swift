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

  mutating func report(_ reason: SchemaViolation.Reason, at pointer: JSONPointer, keyword: JSONPointer) {
    if !isFull { found.append(SchemaViolation(reason, at: pointer, keyword: keyword)) }
  }

  /// Applies node `index` (and what its `$ref` leads to) to `value`, found at `pointer`.
  mutating func check(_ value: JSONValue, against index: Int, at pointer: JSONPointer) {
    guard !isFull else { return }
    let node = schema.nodes[index]
    if let target = node.reference { check(value, against: target, at: pointer) }
    let here = node.pointer
    if let type = node.type, !type.admits(value), !(node.allowsNull && value == .null) {
      report(
        .wrongType(expected: type, allowsNull: node.allowsNull, found: value), at: pointer,
        keyword: here.appending("type"))
      return
    }
    if let allowed = node.allowedValues, !allowed.contains(where: { $0.isSchemaEqual(to: value) }) {
      report(.notAllowed(allowed: allowed, found: value), at: pointer, keyword: here.appending("enum"))
    }
    if let constant = node.constant, !constant.isSchemaEqual(to: value) {
      report(.notConstant(constant, found: value), at: pointer, keyword: here.appending("const"))
    }
    switch value {
    case .number(let spelling):
      checkNumber(spelling, node, at: pointer)
    case .string(let text):
      checkString(text, node, at: pointer)
    case .array(let items):
      checkArray(items, node, at: pointer)
    case .object(let object):
      checkObject(object, node, at: pointer)
    case .null, .bool:
      break
    }
  }

  private mutating func checkNumber(_ spelling: String, _ node: SchemaNode, at pointer: JSONPointer) {
    guard let number = DecimalNumber(spelling) else { return }
    let rules = node.constraints
    let here = node.pointer
    if let bound = rules.minimum, number < bound.value {
      report(.belowMinimum(bound.spelling, found: spelling), at: pointer, keyword: here.appending("minimum"))
    }
    if let bound = rules.maximum, bound.value < number {
      report(.aboveMaximum(bound.spelling, found: spelling), at: pointer, keyword: here.appending("maximum"))
    }
    if let bound = rules.exclusiveMinimum, !(bound.value < number) {
      report(
        .notAboveExclusiveMinimum(bound.spelling, found: spelling), at: pointer,
        keyword: here.appending("exclusiveMinimum"))
    }
    if let bound = rules.exclusiveMaximum, !(number < bound.value) {
      report(
        .notBelowExclusiveMaximum(bound.spelling, found: spelling), at: pointer,
        keyword: here.appending("exclusiveMaximum"))
    }
  }

  private mutating func checkString(_ text: String, _ node: SchemaNode, at pointer: JSONPointer) {
    let rules = node.constraints
    let here = node.pointer
    if rules.minLength != nil || rules.maxLength != nil {
      let length = text.unicodeScalars.count
      if let minimum = rules.minLength, length < minimum {
        report(
          .tooShort(minimum: minimum, found: text, length: length), at: pointer,
          keyword: here.appending("minLength"))
      }
      if let maximum = rules.maxLength, length > maximum {
        report(
          .tooLong(maximum: maximum, found: text, length: length), at: pointer,
          keyword: here.appending("maxLength"))
      }
    }
    if let pattern = rules.pattern, !pattern.matches(text) {
      report(.patternMismatch(pattern.source, found: text), at: pointer, keyword: here.appending("pattern"))
    }
    if let format = rules.format, !format.admits(text) {
      report(.formatMismatch(format, found: text), at: pointer, keyword: here.appending("format"))
    }
  }

  private mutating func checkArray(_ items: [JSONValue], _ node: SchemaNode, at pointer: JSONPointer) {
    if let itemNode = node.items {
      for (index, item) in items.enumerated() {
        check(item, against: itemNode, at: pointer.appending(index: index))
      }
    }
    guard node.constraints.uniqueItems else { return }
    for second in items.indices {
      if let first = items[..<second].firstIndex(where: { $0.isSchemaEqual(to: items[second]) }) {
        report(
          .repeatedItem(first: first, second: second), at: pointer,
          keyword: node.pointer.appending("uniqueItems"))
        return
      }
    }
  }

  private mutating func checkObject(_ object: JSONObject, _ node: SchemaNode, at pointer: JSONPointer) {
    for member in object.members {
      let memberPointer = pointer.appending(member.key)
      if let property = node.properties.first(where: { $0.name.utf8.elementsEqual(member.key.utf8) }) {
        check(member.value, against: property.node, at: memberPointer)
      } else if !node.allowsAdditionalProperties {
        report(.undeclared, at: memberPointer, keyword: node.pointer.appending("additionalProperties"))
      }
    }
    for name in node.required where !object.members.contains(where: { $0.key.utf8.elementsEqual(name.utf8) })
    {
      report(.missingRequired, at: pointer.appending(name), keyword: node.pointer.appending("required"))
    }
  }
}
