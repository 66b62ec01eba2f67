/// A value checked against a schema from its canonical text (`CanonicalJSON`), without
/// building its tree: how a run-time kind's records are checked as a file opens.
///
/// The answer is exactly `violations(of:againstNode:limit:).isEmpty` for the decoded
/// value (`SchemaCanonicalCheckTests` holds the two together over JSON-Schema-Test-Suite
/// and random records); only a refused value is then decoded, by the caller, for the tree
/// checker to say what it breaks and where. Types are told from a value's first byte,
/// members found by their key's bytes, whole-number bounds compared on an `Int`, string
/// lengths counted on the bytes. A value is decoded only where a rule needs it as one: a
/// string for its `pattern` or `format`, a value that no `enum` entry or `const` has the
/// same text as (numbers compare by value: `1` is `1.0`), a list with `uniqueItems`.
extension JSONSchema {
  /// Whether the value whose canonical text is `text[range]` meets every rule of node
  /// `index` (and what its `$ref` leads to). Costs one pass over the value's text, plus
  /// the decoding above and pattern matches.
  ///
  /// `marks`: when the value is an object that is the whole of `text`, the marks the
  /// reader made of its members as it wrote it (`CanonicalJSON.forEachMarkedMember`), so
  /// that its members are found without a scan: how a record is checked as it is read.
  func admits(
    canonical text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, node index: Int = 0,
    members marks: [Int]? = nil
  ) -> Bool {
    // What the check reads of a node is in `canonicalRules`, plain values read in place:
    // a copy of a node, or a read of its arrays, would retain them for every value.
    if let target = canonicalRules[index].reference,
      !admits(canonical: text, range, node: target, members: marks)
    {
      return false
    }
    let first = text[range.lowerBound]
    if let type = canonicalRules[index].type,
      !(canonicalRules[index].allowsNull && first == UInt8(ascii: "n")),
      !Self.type(type, admits: text, range)
    {
      return false
    }
    // A list with `uniqueItems`, or a value no `enum` or `const` entry has the same text
    // as, is compared as the tree checker compares it.
    if (canonicalRules[index].uniqueItems && first == UInt8(ascii: "["))
      || (canonicalRules[index].listsValues && !listedSameText(text, range, index))
    {
      return violations(of: CanonicalJSON.value(text, range), againstNode: index, limit: 1).isEmpty
    }
    switch first {
    case UInt8(ascii: "\""): return stringAdmitted(text, range, index)
    case UInt8(ascii: "["): return elementsAdmitted(text, range, index)
    case UInt8(ascii: "{"): return membersAdmitted(text, range, index, marks: marks)
    case UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "f"): return true
    default: return numberAdmitted(text, range, index)
    }
  }

  /// `admits(canonical:_:node:)` of `value`'s canonical text, for the fuzz target that
  /// holds it against the tree checker.
  package func admits(canonicalTextOf value: JSONValue) -> Bool {
    CanonicalJSON.text(of: value).withUnsafeBufferPointer { admits(canonical: $0, 0..<$0.count) }
  }

  /// Whether an `enum` entry and the `const` of node `index` (those it has) are the same
  /// text as the value, which makes them equal.
  private func listedSameText(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ index: Int) -> Bool {
    let value = UnsafeBufferPointer(rebasing: text[range])
    if let allowed = canonicalRules[index].allowedTexts,
      !allowed.contains(where: { $0.withUnsafeBufferPointer { CanonicalJSON.sameBytes($0, value) } })
    {
      return false
    }
    if let constant = canonicalRules[index].constantText,
      !constant.withUnsafeBufferPointer({ CanonicalJSON.sameBytes($0, value) })
    {
      return false
    }
    return true
  }

  /// `type.admits` of the value `text[range]`: its kind from its first byte; a number
  /// spelled with a fraction or an exponent is an integer only when its value is whole.
  private static func type(_ type: SchemaType, admits text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
    -> Bool
  {
    let first = text[range.lowerBound]
    let isNumber = first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
    switch type {
    case .null: return first == UInt8(ascii: "n")
    case .boolean: return first == UInt8(ascii: "t") || first == UInt8(ascii: "f")
    case .object: return first == UInt8(ascii: "{")
    case .array: return first == UInt8(ascii: "[")
    case .string: return first == UInt8(ascii: "\"")
    case .number: return isNumber
    case .integer:
      guard isNumber else { return false }
      let whole = !text[range].contains {
        $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
      }
      return whole
        || type.admits(.number(UTF8Validation.asciiString(UnsafeBufferPointer(rebasing: text[range]))))
    }
  }

  private func numberAdmitted(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ index: Int) -> Bool {
    guard canonicalRules[index].hasBounds else { return true }
    if let bounds = canonicalRules[index].wholeBounds, let number = Self.smallNumber(text, range) {
      return number.isWhole
        ? number.floor >= bounds.lower && number.floor <= bounds.upper
        : number.floor >= bounds.floorLower && number.floor < bounds.floorUpper
    }
    let rules = nodes[index].constraints
    let spelling = UTF8Validation.asciiString(UnsafeBufferPointer(rebasing: text[range]))
    let small = DecimalNumber.smallInteger(spelling)
    if let bound = rules.minimum, bound.order(of: spelling, small: small) < 0 { return false }
    if let bound = rules.maximum, bound.order(of: spelling, small: small) > 0 { return false }
    if let bound = rules.exclusiveMinimum, bound.order(of: spelling, small: small) <= 0 { return false }
    if let bound = rules.exclusiveMaximum, bound.order(of: spelling, small: small) >= 0 { return false }
    return true
  }

  /// The number `text[range]`, when it is spelled without an exponent and with at most 18
  /// digits before its point: its floor, and whether it is whole (no fraction, or one of
  /// zeros only). A canonical number is as the file spelled it, which JSON's grammar
  /// checked.
  private static func smallNumber(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (
    floor: Int, isWhole: Bool
  )? {
    var cursor = range.lowerBound
    let negative = text[cursor] == UInt8(ascii: "-")
    if negative { cursor += 1 }
    let digitsStart = cursor
    var value = 0
    while cursor < range.upperBound {
      let digit = text[cursor] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      value = value &* 10 &+ Int(digit)
      cursor += 1
    }
    guard cursor - digitsStart <= 18 else { return nil }
    var isWhole = true
    if cursor < range.upperBound {
      guard text[cursor] == UInt8(ascii: ".") else { return nil }
      cursor += 1
      while cursor < range.upperBound {
        let digit = text[cursor] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        if digit != 0 { isWhole = false }
        cursor += 1
      }
    }
    // -3.5 lies between -4 and -3.
    return (negative ? (isWhole ? -value : -value - 1) : value, isWhole)
  }

  private func stringAdmitted(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ index: Int) -> Bool {
    let lengths = canonicalRules[index].lengths
    let pattern = canonicalRules[index].hasPattern
    let format = nodes[index].constraints.format
    guard lengths != nil || pattern || format != nil else { return true }
    let inner = UnsafeBufferPointer(rebasing: text[(range.lowerBound + 1)..<(range.upperBound - 1)])
    if let lengths, !Self.length(of: inner, within: lengths, text, range) { return false }
    guard pattern || format != nil else { return true }
    // Without an escape the token's bytes are the string's UTF-8.
    let escaped = inner.contains(UInt8(ascii: "\\"))
    if pattern, let compiled = nodes[index].constraints.pattern {
      let found = escaped ? compiled.match(CanonicalJSON.string(text, range)) : compiled.match(utf8: inner)
      guard found == .match else { return false }
    }
    if let format, !format.admits(CanonicalJSON.string(text, range)) { return false }
    return true
  }

  /// Whether the string whose token is `text[token]`, `inner` between its quotes, has a
  /// length (in Unicode scalars, as JSON Schema counts) within `lengths`. A scalar takes
  /// from 1 to 12 bytes of a token (`\uD83D\uDE00`), so bounds that every length from
  /// a twelfth of the bytes to all of them meets need no count: a `minLength` of 1 on a
  /// non-empty string costs nothing.
  private static func length(
    of inner: UnsafeBufferPointer<UInt8>, within lengths: (minimum: Int, maximum: Int),
    _ text: UnsafeBufferPointer<UInt8>, _ token: Range<Int>
  ) -> Bool {
    let bytes = inner.count
    if lengths.minimum <= (bytes + 11) / 12 && lengths.maximum >= bytes { return true }
    // A scalar is a byte that does not continue another; an escape is decoded.
    let length =
      inner.contains(UInt8(ascii: "\\"))
      ? CanonicalJSON.string(text, token).unicodeScalars.count : inner.count { $0 & 0xC0 != 0x80 }
    return length >= lengths.minimum && length <= lengths.maximum
  }

  private func elementsAdmitted(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ index: Int) -> Bool
  {
    guard let itemNode = canonicalRules[index].items else { return true }
    var admitted = true
    CanonicalJSON.forEachElement(text, range) { element in
      admitted = admits(canonical: text, element, node: itemNode)
      return admitted
    }
    return admitted
  }

  /// `marks`: as `admits(canonical:_:node:members:)` takes them.
  private func membersAdmitted(
    _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ index: Int, marks: [Int]?
  ) -> Bool {
    var admitted = true
    // The properties met, by their place in `properties` (the first 64), for `required`.
    var met: UInt64 = 0
    let allowsOthers = canonicalRules[index].allowsOtherMembers
    canonicalRules[index].names.withUnsafeBufferPointer { names in
      let properties = canonicalRules[index].properties
      var place = 0
      func visit(_ key: Range<Int>, _ value: Range<Int>) -> Bool {
        defer { place += 1 }
        let token = UnsafeBufferPointer(rebasing: text[key])
        // Tried at the member's own place first, as records mostly keep the schema's order.
        var property = place
        if place >= properties.count
          || !CanonicalJSON.sameBytes(UnsafeBufferPointer(rebasing: names[properties[place].name]), token)
        {
          property = 0
          while property < properties.count,
            !CanonicalJSON.sameBytes(UnsafeBufferPointer(rebasing: names[properties[property].name]), token)
          {
            property += 1
          }
        }
        if property < properties.count {
          if property < 64 { met |= 1 << property }
          admitted = admits(canonical: text, value, node: properties[property].node)
        } else {
          admitted = allowsOthers
        }
        return admitted
      }
      if let marks {
        CanonicalJSON.forEachMarkedMember(text, marks: marks, visit)
      } else {
        CanonicalJSON.forEachMember(text, range, visit)
      }
    }
    guard admitted else { return false }
    for (required, property) in zip(
      canonicalRules[index].requiredTokens, canonicalRules[index].requiredProperties)
    {
      if let property, property < 64 {
        if met & (1 << property) == 0 { return false }
        continue
      }
      var present = false
      CanonicalJSON.forEachMember(text, range) { key, _ in
        present = required.withUnsafeBufferPointer {
          CanonicalJSON.sameBytes($0, UnsafeBufferPointer(rebasing: text[key]))
        }
        return !present
      }
      if !present { return false }
    }
    return true
  }
}

/// What checking canonical text needs of one node, in the text's own form: made once when
/// the schema is read.
struct CanonicalNodeRules {
  /// The node's `$ref` target, `type` (and whether `null` is allowed beside it), `items`
  /// node, `additionalProperties`, `uniqueItems`, and whether it has an `enum` or `const`.
  var reference: Int?
  var type: SchemaType?
  var allowsNull: Bool
  var items: Int?
  var allowsOtherMembers: Bool
  var uniqueItems: Bool
  var listsValues: Bool
  /// The properties' names as canonical string tokens, one after another, and each
  /// property's token in `names` with the node that checks its value, in `properties`'
  /// order.
  var names: [UInt8]
  var properties: [(name: Range<Int>, node: Int)]
  /// Each `required` name as a token, and its place in `properties` when it has one.
  var requiredTokens: [[UInt8]]
  var requiredProperties: [Int?]
  /// The canonical texts of the `enum` entries and of the `const`, when given.
  var allowedTexts: [[UInt8]]?
  var constantText: [UInt8]?
  /// Whether any number bound is given, and, when every one given is a whole number that
  /// fits an Int, what they admit: a whole number in `lower...upper`; a number strictly
  /// between two whole ones whose floor is at least `floorLower` and below `floorUpper`.
  var hasBounds: Bool
  var wholeBounds: (lower: Int, upper: Int, floorLower: Int, floorUpper: Int)?
  /// The lengths `minLength` and `maxLength` admit, when either is given.
  var lengths: (minimum: Int, maximum: Int)?
  var hasPattern: Bool

  init(_ node: SchemaNode) {
    let rules = node.constraints
    let bounds = [rules.minimum, rules.maximum, rules.exclusiveMinimum, rules.exclusiveMaximum]
    hasBounds = bounds.contains { $0 != nil }
    if hasBounds, bounds.allSatisfy({ $0 == nil || $0?.integer != nil }) {
      // Bounds of up to 18 digits: one past them still fits an Int.
      let minimum = rules.minimum?.integer ?? .min
      let maximum = rules.maximum?.integer ?? .max
      let above = rules.exclusiveMinimum?.integer
      let below = rules.exclusiveMaximum?.integer
      // A whole v: v >= minimum, v > above (v >= above + 1), alike for the upper bounds.
      // A number between F and F + 1 is at least minimum exactly when F is, above above
      // exactly when F is at least it, at most maximum and below below when F is below them.
      wholeBounds = (
        lower: max(minimum, above.map { $0 + 1 } ?? .min), upper: min(maximum, below.map { $0 - 1 } ?? .max),
        floorLower: max(minimum, above ?? .min), floorUpper: min(maximum, below ?? .max)
      )
    }
    if rules.minLength != nil || rules.maxLength != nil {
      lengths = (rules.minLength ?? 0, rules.maxLength ?? .max)
    }
    hasPattern = rules.pattern != nil
    reference = node.reference
    type = node.type
    allowsNull = node.allowsNull
    items = node.items
    allowsOtherMembers = node.allowsAdditionalProperties
    uniqueItems = rules.uniqueItems
    listsValues = node.allowedValues != nil || node.constant != nil
    names = []
    properties = []
    for property in node.properties {
      let start = names.count
      names += CanonicalJSON.token(of: property.name)
      properties.append((start..<names.count, property.node))
    }
    requiredTokens = node.required.map(CanonicalJSON.token(of:))
    requiredProperties = node.required.map { name in
      node.properties.firstIndex { SchemaChecker.sameName($0.name, name) }
    }
    allowedTexts = node.allowedValues.map { $0.map(CanonicalJSON.text(of:)) }
    constantText = node.constant.map(CanonicalJSON.text(of:))
  }
}
