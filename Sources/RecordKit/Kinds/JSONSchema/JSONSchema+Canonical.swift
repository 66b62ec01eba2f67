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
  func admits(canonical text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, node index: Int = 0) -> Bool {
    // Fields are read from the node in place, as the tree checker does: a copy would
    // retain each of its arrays for every value checked.
    if let target = nodes[index].reference, !admits(canonical: text, range, node: target) { return false }
    let first = text[range.lowerBound]
    if let type = nodes[index].type, !(nodes[index].allowsNull && first == UInt8(ascii: "n")),
      !Self.type(type, admits: text, range)
    {
      return false
    }
    if nodes[index].allowedValues != nil || nodes[index].constant != nil
      || (nodes[index].constraints.uniqueItems && first == UInt8(ascii: "["))
    {
      guard listedSameText(text, range, index) else {
        return violations(of: CanonicalJSON.value(text, range), againstNode: index, limit: 1).isEmpty
      }
    }
    switch first {
    case UInt8(ascii: "\""): return stringAdmitted(text, range, index)
    case UInt8(ascii: "["): return elementsAdmitted(text, range, index)
    case UInt8(ascii: "{"): return membersAdmitted(text, range, index)
    case UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "f"): return true
    default: return numberAdmitted(text, range, index)
    }
  }

  /// Whether an `enum` entry and the `const` of node `index` (those it has) are the same
  /// text as the value, which makes them equal; no `uniqueItems` list passes here.
  private func listedSameText(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ index: Int) -> Bool {
    if nodes[index].constraints.uniqueItems && text[range.lowerBound] == UInt8(ascii: "[") { return false }
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
      return whole || type.admits(.number(UTF8Validation.asciiString(UnsafeBufferPointer(rebasing: text[range]))))
    }
  }

  private func numberAdmitted(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ index: Int) -> Bool {
    let rules = nodes[index].constraints
    guard
      rules.minimum != nil || rules.maximum != nil || rules.exclusiveMinimum != nil
        || rules.exclusiveMaximum != nil
    else { return true }
    // A number's spelling of up to 15 bytes is a small string: made without allocating.
    let spelling = UTF8Validation.asciiString(UnsafeBufferPointer(rebasing: text[range]))
    let small = DecimalNumber.smallInteger(spelling)
    if let bound = rules.minimum, bound.order(of: spelling, small: small) < 0 { return false }
    if let bound = rules.maximum, bound.order(of: spelling, small: small) > 0 { return false }
    if let bound = rules.exclusiveMinimum, bound.order(of: spelling, small: small) <= 0 { return false }
    if let bound = rules.exclusiveMaximum, bound.order(of: spelling, small: small) >= 0 { return false }
    return true
  }

  private func stringAdmitted(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ index: Int) -> Bool {
    let rules = nodes[index].constraints
    if rules.minLength != nil || rules.maxLength != nil {
      let inner = UnsafeBufferPointer(rebasing: text[(range.lowerBound + 1)..<(range.upperBound - 1)])
      // Without an escape the token is the string's UTF-8: a scalar is a byte that does
      // not continue another.
      let length =
        inner.contains(UInt8(ascii: "\\"))
        ? CanonicalJSON.string(text, range).unicodeScalars.count : inner.count { $0 & 0xC0 != 0x80 }
      if let minimum = rules.minLength, length < minimum { return false }
      if let maximum = rules.maxLength, length > maximum { return false }
    }
    guard rules.pattern != nil || rules.format != nil else { return true }
    let string = CanonicalJSON.string(text, range)
    if let pattern = rules.pattern, pattern.match(string) != .match { return false }
    if let format = rules.format, !format.admits(string) { return false }
    return true
  }

  private func elementsAdmitted(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ index: Int) -> Bool {
    guard let itemNode = nodes[index].items else { return true }
    var admitted = true
    CanonicalJSON.forEachElement(text, range) { element in
      admitted = admits(canonical: text, element, node: itemNode)
      return admitted
    }
    return admitted
  }

  private func membersAdmitted(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ index: Int) -> Bool {
    var admitted = true
    // The properties met, by their place in `properties` (the first 64), for `required`.
    var met: UInt64 = 0
    var place = 0
    CanonicalJSON.forEachMember(text, range) { key, value in
      defer { place += 1 }
      if let property = property(named: key, in: text, near: place, of: index) {
        if property < 64 { met |= 1 << property }
        admitted = admits(canonical: text, value, node: nodes[index].properties[property].node)
      } else {
        admitted = nodes[index].allowsAdditionalProperties
      }
      return admitted
    }
    guard admitted else { return false }
    for (required, property) in zip(canonicalRules[index].requiredTokens, canonicalRules[index].requiredProperties) {
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

  /// The place in node `index`'s `properties` of the one whose name the key token
  /// `text[key]` spells: tried at `place` first, as records mostly keep the schema's order.
  private func property(named key: Range<Int>, in text: UnsafeBufferPointer<UInt8>, near place: Int, of index: Int)
    -> Int?
  {
    let token = UnsafeBufferPointer(rebasing: text[key])
    let tokens = canonicalRules[index].propertyTokens
    if place < tokens.count, tokens[place].withUnsafeBufferPointer({ CanonicalJSON.sameBytes($0, token) }) {
      return place
    }
    return tokens.firstIndex { $0.withUnsafeBufferPointer { CanonicalJSON.sameBytes($0, token) } }
  }
}

/// What checking canonical text needs of one node, in the text's own form: made once when
/// the schema is read.
struct CanonicalNodeRules {
  /// Each property's name as a canonical string token, in `properties`' order.
  var propertyTokens: [[UInt8]]
  /// Each `required` name as a token, and its place in `properties` when it has one.
  var requiredTokens: [[UInt8]]
  var requiredProperties: [Int?]
  /// The canonical texts of the `enum` entries and of the `const`, when given.
  var allowedTexts: [[UInt8]]?
  var constantText: [UInt8]?

  init(_ node: SchemaNode) {
    propertyTokens = node.properties.map { CanonicalJSON.token(of: $0.name) }
    requiredTokens = node.required.map(CanonicalJSON.token(of:))
    requiredProperties = node.required.map { name in
      node.properties.firstIndex { SchemaChecker.sameName($0.name, name) }
    }
    allowedTexts = node.allowedValues.map { $0.map(CanonicalJSON.text(of:)) }
    constantText = node.constant.map(CanonicalJSON.text(of:))
  }
}
