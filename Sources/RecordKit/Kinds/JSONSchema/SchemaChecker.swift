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
    // Fields are read from the node in place: a copy of the node would retain each of
    // its arrays and strings, for every value checked.
    if let target = schema.nodes[index].reference { check(value, against: target) }
    if let type = schema.nodes[index].type, !type.admits(value),
      !(schema.nodes[index].allowsNull && value == .null)
    {
      report(
        .wrongType(expected: type, allowsNull: schema.nodes[index].allowsNull, found: value),
        keyword: schema.nodes[index].pointer.appending("type"))
      return
    }
    if let allowed = schema.nodes[index].allowedValues,
      !allowed.contains(where: { $0.isSchemaEqual(to: value) })
    {
      report(
        .notAllowed(allowed: allowed, found: value), keyword: schema.nodes[index].pointer.appending("enum"))
    }
    if let constant = schema.nodes[index].constant, !constant.isSchemaEqual(to: value) {
      report(.notConstant(constant, found: value), keyword: schema.nodes[index].pointer.appending("const"))
    }
    switch value {
    case .number(let spelling):
      checkNumber(spelling, index)
    case .string(let text):
      checkString(text, index)
    case .array(let items):
      checkArray(items, index)
    case .object(let object):
      checkObject(object, index)
    case .null, .bool:
      break
    }
  }

  private mutating func checkNumber(_ spelling: String, _ index: Int) {
    let rules = schema.nodes[index].constraints
    guard
      rules.minimum != nil || rules.maximum != nil || rules.exclusiveMinimum != nil
        || rules.exclusiveMaximum != nil
    else { return }
    // Whole numbers that fit an Int against whole bounds compare as Ints; anything else
    // exactly, as decimals.
    let small = DecimalNumber.smallInteger(spelling)
    if let bound = rules.minimum, bound.order(of: spelling, small: small) < 0 {
      report(
        .belowMinimum(bound.spelling, found: spelling),
        keyword: schema.nodes[index].pointer.appending("minimum"))
    }
    if let bound = rules.maximum, bound.order(of: spelling, small: small) > 0 {
      report(
        .aboveMaximum(bound.spelling, found: spelling),
        keyword: schema.nodes[index].pointer.appending("maximum"))
    }
    if let bound = rules.exclusiveMinimum, bound.order(of: spelling, small: small) <= 0 {
      report(
        .notAboveExclusiveMinimum(bound.spelling, found: spelling),
        keyword: schema.nodes[index].pointer.appending("exclusiveMinimum"))
    }
    if let bound = rules.exclusiveMaximum, bound.order(of: spelling, small: small) >= 0 {
      report(
        .notBelowExclusiveMaximum(bound.spelling, found: spelling),
        keyword: schema.nodes[index].pointer.appending("exclusiveMaximum"))
    }
  }

  private mutating func checkString(_ text: String, _ index: Int) {
    if schema.nodes[index].constraints.minLength != nil || schema.nodes[index].constraints.maxLength != nil {
      let length = text.unicodeScalars.count
      if let minimum = schema.nodes[index].constraints.minLength, length < minimum {
        report(
          .tooShort(minimum: minimum, found: text, length: length),
          keyword: schema.nodes[index].pointer.appending("minLength"))
      }
      if let maximum = schema.nodes[index].constraints.maxLength, length > maximum {
        report(
          .tooLong(maximum: maximum, found: text, length: length),
          keyword: schema.nodes[index].pointer.appending("maxLength"))
      }
    }
    if let pattern = schema.nodes[index].constraints.pattern {
      switch pattern.match(text) {
      case .match: break
      case .noMatch:
        report(
          .patternMismatch(pattern.source, found: text),
          keyword: schema.nodes[index].pointer.appending("pattern"))
      case .tooCostly:
        report(.patternTooCostly(pattern.source), keyword: schema.nodes[index].pointer.appending("pattern"))
      }
    }
    if let format = schema.nodes[index].constraints.format, !format.admits(text) {
      report(.formatMismatch(format, found: text), keyword: schema.nodes[index].pointer.appending("format"))
    }
  }

  private mutating func checkArray(_ items: [JSONValue], _ index: Int) {
    if let itemNode = schema.nodes[index].items {
      for (index, item) in items.enumerated() {
        path.append(String(index))
        check(item, against: itemNode)
        path.removeLast()
      }
    }
    guard schema.nodes[index].constraints.uniqueItems else { return }
    for second in items.indices {
      if let first = items[..<second].firstIndex(where: { $0.isSchemaEqual(to: items[second]) }) {
        report(
          .repeatedItem(first: first, second: second),
          keyword: schema.nodes[index].pointer.appending("uniqueItems"))
        return
      }
    }
  }

  private mutating func checkObject(_ object: JSONObject, _ index: Int) {
    let members = object.members
    for place in members.indices {
      let key = members[place].key
      if let property = property(named: key, near: place, in: index) {
        path.append(key)
        check(members[place].value, against: property)
        path.removeLast()
      } else if !schema.nodes[index].allowsAdditionalProperties {
        report(
          .undeclared, keyword: schema.nodes[index].pointer.appending("additionalProperties"), below: key)
      }
    }
    for name in schema.nodes[index].required where !members.contains(where: { Self.sameName($0.key, name) }) {
      report(.missingRequired, keyword: schema.nodes[index].pointer.appending("required"), below: name)
    }
  }

  /// The node of the property `name` of node `index`: tried at `place` first, since
  /// records mostly list their keys in the schema's order, then looked for.
  @inline(__always)
  private func property(named name: String, near place: Int, in index: Int) -> Int? {
    let count = schema.nodes[index].properties.count
    if place < count, Self.sameName(schema.nodes[index].properties[place].name, name) {
      return schema.nodes[index].properties[place].node
    }
    for candidate in 0..<count where Self.sameName(schema.nodes[index].properties[candidate].name, name) {
      return schema.nodes[index].properties[candidate].node
    }
    return nil
  }

  /// Whether two member names are the same code points: `==` first (fast for ASCII, and
  /// false for most pairs), then the bytes, since `==` also equates canonically
  /// equivalent strings, which JSON keys are not.
  @inline(__always)
  static func sameName(_ lhs: String, _ rhs: String) -> Bool {
    guard lhs == rhs else { return false }
    var lhs = lhs
    var rhs = rhs
    // Equal strings of contiguous UTF-8 (all native ones) compare their bytes directly.
    let same = lhs.withUTF8 { left in
      rhs.withUTF8 { right in
        left.count == right.count && zip(left, right).allSatisfy { $0 == $1 }
      }
    }
    return same
  }
}
