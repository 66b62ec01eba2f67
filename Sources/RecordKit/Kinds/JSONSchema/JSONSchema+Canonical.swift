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
  /// the decoding above and pattern matches; copies and retains nothing per member or
  /// element.
  ///
  /// `marks`: when the value is an object that is the whole of `text`, the marks the
  /// reader made of its members as it wrote it (`MemberMarks`; its keys may then be
  /// codes, when `checksMembersByMarks`), so that its members are
  /// found without a scan, and a list member's elements are known by their kinds without
  /// a walk where those are all the rules ask of them: how a record is checked as it is
  /// read.
  func admits(
    canonical text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, node index: Int = 0,
    members marks: MemberMarks? = nil
  ) -> Bool {
    let rules = canonicalRules
    return withExtendedLifetime(rules) {
      let check = CanonicalCheck(
        nodes: rules.nodes, properties: rules.properties, names: rules.names, text: text)
      guard let marks else { return admits(range, index, check) }
      return markedAdmitted(range, index, marks: marks, check)
    }
  }

  /// Whether `admits(canonical:_:node:members:)` of a record with its marks reads its
  /// members through the marks alone, never the text between them: so it does of a record
  /// whose keys a keyed read wrote as codes (`JSONReader.readCanonicalObject(into:members:keying:)`).
  var checksMembersByMarks: Bool {
    let rules = canonicalRules
    return withExtendedLifetime(rules) {
      rules.nodes[0].reference == nil && !rules.nodes[0].listsValues
    }
  }

  /// `admits(_:_:check)` of an object whose members the reader marked: what the general
  /// check does of an object node without a `$ref`, an `enum` or a `const` (any other
  /// goes that way, its members found by a scan), its members found from the marks.
  private func markedAdmitted(_ range: Range<Int>, _ index: Int, marks: MemberMarks, _ check: CanonicalCheck)
    -> Bool
  {
    guard check.nodes[index].reference == nil, !check.nodes[index].listsValues else {
      return admits(range, index, check)
    }
    guard check.nodes[index].kinds.contains(.object) else { return false }
    if check.nodes[index].kindsOnly { return true }
    return membersAdmitted(range, index, marks: marks, check)
  }

  /// `admits(canonical:_:node:)` of `value`'s canonical text, for the fuzz target that
  /// holds it against the tree checker.
  package func admits(canonicalTextOf value: JSONValue) -> Bool {
    CanonicalJSON.text(of: value).withUnsafeBufferPointer { admits(canonical: $0, 0..<$0.count) }
  }

  /// Node `index`'s rules are read field by field through `check.nodes`: a copy of them
  /// would be a copy of some hundred bytes for every value.
  ///
  /// `elements`: when the value is a list, its elements' kinds, if the reader told them.
  private func admits(_ range: Range<Int>, _ index: Int, elements: ValueKinds? = nil, _ check: CanonicalCheck)
    -> Bool
  {
    if let target = check.nodes[index].reference, !admits(range, target, elements: elements, check) {
      return false
    }
    let kind = ValueKinds(first: check.text[range.lowerBound])
    guard check.nodes[index].kinds.contains(kind) else { return false }
    if check.nodes[index].kindsOnly { return true }
    if check.nodes[index].integerOnly, kind == .number, !check.isWhole(range) { return false }
    // A list with `uniqueItems`, or a value no `enum` or `const` entry has the same text
    // as, is compared as the tree checker compares it.
    if (check.nodes[index].uniqueItems && kind == .array)
      || (check.nodes[index].listsValues && !listedSameText(range, index, check))
    {
      return violations(of: CanonicalJSON.value(check.text, range), againstNode: index, limit: 1).isEmpty
    }
    switch kind {
    case .string: return stringAdmitted(range, index, check)
    case .array: return elementsAdmitted(range, index, elements: elements, check)
    case .object: return membersAdmitted(range, index, marks: nil, check)
    case .number: return numberAdmitted(range, index, check)
    default: return true
    }
  }

  /// Whether an `enum` entry and the `const` of node `index` (those it has) are the same
  /// text as the value, which makes them equal.
  private func listedSameText(_ range: Range<Int>, _ index: Int, _ check: CanonicalCheck) -> Bool {
    let value = UnsafeBufferPointer(rebasing: check.text[range])
    if let allowed = canonicalRules.allowed[index],
      !allowed.contains(where: { $0.withUnsafeBufferPointer { CanonicalJSON.sameBytes($0, value) } })
    {
      return false
    }
    if let constant = canonicalRules.constants[index],
      !constant.withUnsafeBufferPointer({ CanonicalJSON.sameBytes($0, value) })
    {
      return false
    }
    return true
  }

  private func numberAdmitted(_ range: Range<Int>, _ index: Int, _ check: CanonicalCheck) -> Bool {
    guard check.nodes[index].hasBounds else { return true }
    if let bounds = check.nodes[index].wholeBounds, let number = check.smallNumber(range) {
      return number.isWhole
        ? number.floor >= bounds.lower && number.floor <= bounds.upper
        : number.floor >= bounds.floorLower && number.floor < bounds.floorUpper
    }
    let spelling = UTF8Validation.asciiString(UnsafeBufferPointer(rebasing: check.text[range]))
    let small = DecimalNumber.smallInteger(spelling)
    if let bound = nodes[index].constraints.minimum, bound.order(of: spelling, small: small) < 0 {
      return false
    }
    if let bound = nodes[index].constraints.maximum, bound.order(of: spelling, small: small) > 0 {
      return false
    }
    if let bound = nodes[index].constraints.exclusiveMinimum, bound.order(of: spelling, small: small) <= 0 {
      return false
    }
    if let bound = nodes[index].constraints.exclusiveMaximum, bound.order(of: spelling, small: small) >= 0 {
      return false
    }
    return true
  }

  private func stringAdmitted(_ range: Range<Int>, _ index: Int, _ check: CanonicalCheck) -> Bool {
    let (lengths, hasPattern, hasFormat) = (
      check.nodes[index].lengths, check.nodes[index].hasPattern, check.nodes[index].hasFormat
    )
    guard lengths != nil || hasPattern || hasFormat else { return true }
    let text = check.text
    let inner = UnsafeBufferPointer(rebasing: text[(range.lowerBound + 1)..<(range.upperBound - 1)])
    if let lengths, !check.length(of: inner, within: lengths, range) { return false }
    // The pattern is used in place (optional chaining): bound to a name, it would be
    // copied, its three references retained, for every string.
    if hasPattern {
      // Without an escape the token's bytes are the string's UTF-8: the first quote or
      // backslash after the opening quote is then the closing one.
      var ignored = false
      let escaped =
        JSONStringScan.firstSpecial(in: text, from: range.lowerBound + 1, sawNonASCII: &ignored)
        < range.upperBound - 1
      if !escaped, let plain = check.nodes[index].plainPattern {
        // Matched from the flat rules: reaching the pattern retained and released its
        // references for every string.
        let pattern = UnsafeBufferPointer(start: check.names + plain.text.lowerBound, count: plain.text.count)
        guard SchemaPattern.matches(plain: pattern, atStart: plain.start, atEnd: plain.end, in: inner) else {
          return false
        }
      } else {
        let found =
          escaped
          ? nodes[index].constraints.pattern?.match(CanonicalJSON.string(text, range))
          : nodes[index].constraints.pattern?.match(utf8: inner)
        guard found == .match else { return false }
      }
    }
    if hasFormat, let format = nodes[index].constraints.format,
      !format.admits(CanonicalJSON.string(text, range))
    {
      return false
    }
    return true
  }

  /// `elements`: as `admits` takes them. Given, and with nothing but kinds asked of an
  /// element, the list is not walked.
  private func elementsAdmitted(
    _ range: Range<Int>, _ index: Int, elements: ValueKinds?, _ check: CanonicalCheck
  ) -> Bool {
    guard let item = check.nodes[index].items else { return true }
    if var elements, check.nodes[item].kindsOnly {
      // A rule of kinds alone tells a number by its first byte, whole or not.
      if elements.remove(.integer) != nil { elements.insert(.number) }
      return check.nodes[item].kinds.isSuperset(of: elements)
    }
    var admitted = true
    CanonicalJSON.forEachElement(check.text, range) { element in
      admitted = admits(element, item, check)
      return admitted
    }
    return admitted
  }

  /// `marks`: as `admits(canonical:_:node:members:)` takes them.
  private func membersAdmitted(
    _ range: Range<Int>, _ index: Int, marks: MemberMarks?, _ check: CanonicalCheck
  )
    -> Bool
  {
    let text = check.text
    var admitted = true
    // The properties met, by their place in the node's run (the first 64), for `required`.
    var met: UInt64 = 0
    var place = 0
    // The members through the marks when given (a keyed read's text has codes for its
    // keys, which the marks give as tokens), else by a walk of the text.
    @inline(__always)
    func forEachMember(_ body: (UnsafeBufferPointer<UInt8>, Range<Int>, ValueKinds?) -> Bool) {
      if let marks {
        marks.forEach(in: text, body)
      } else {
        CanonicalJSON.forEachMember(text, range) { body(UnsafeBufferPointer(rebasing: text[$0]), $1, nil) }
      }
    }
    forEachMember { key, value, elements in
      admitted = memberAdmitted(key, value, elements: elements, place: place, of: index, met: &met, check)
      place += 1
      return admitted
    }
    guard admitted else { return false }
    guard met & check.nodes[index].requiredMask == check.nodes[index].requiredMask else { return false }
    guard check.nodes[index].hasOtherRequired else { return true }
    for required in canonicalRules.otherRequired[index] {
      var present = false
      required.withUnsafeBufferPointer { required in
        forEachMember { key, _, _ in
          present = CanonicalJSON.sameBytes(required, key)
          return !present
        }
      }
      if !present { return false }
    }
    return true
  }

  /// Whether member number `place`, key token `key`, value `text[value]` (a list
  /// of `elements`, when the reader told them), is admitted by the object node `index`;
  /// notes the property it meets in `met`.
  @inline(__always)
  private func memberAdmitted(
    _ token: UnsafeBufferPointer<UInt8>, _ value: Range<Int>, elements: ValueKinds?, place: Int,
    of index: Int,
    met: inout UInt64, _ check: CanonicalCheck
  ) -> Bool {
    let run = check.nodes[index].properties
    // Tried at the member's own place first, as records mostly keep the schema's order.
    var property = run.lowerBound &+ place
    if property >= run.upperBound || !check.property(property, isNamed: token) {
      property = run.lowerBound
      while property < run.upperBound, !check.property(property, isNamed: token) { property &+= 1 }
      guard property < run.upperBound else { return check.nodes[index].allowsOtherMembers }
    }
    let offset = property &- run.lowerBound
    if offset < 64 { met |= 1 << offset }
    return admits(value, check.properties[property].node, elements: elements, check)
  }
}

/// One check of canonical text: the text and the schema's flat rules as pointers (the
/// rules' own, `CanonicalRules`, which the check keeps alive), passed down as it descends,
/// so that checking members and elements copies and retains nothing. The rules are reached
/// by their start alone (a node's or a property's index comes from the rules themselves):
/// five words to pass down.
private struct CanonicalCheck {
  let nodes: UnsafePointer<CanonicalNodeRules>
  let properties: UnsafePointer<CanonicalProperty>
  let names: UnsafePointer<UInt8>
  let text: UnsafeBufferPointer<UInt8>

  @inline(__always)
  func property(_ property: Int, isNamed token: UnsafeBufferPointer<UInt8>) -> Bool {
    let name = properties[property].name
    return CanonicalJSON.sameBytes(
      UnsafeBufferPointer(start: names + name.lowerBound, count: name.count), token)
  }

  /// Whether the number `text[range]` is whole: spelled without a fraction or an
  /// exponent, or with ones that leave it whole (`1.0`, `1e2`).
  func isWhole(_ range: Range<Int>) -> Bool {
    ValueKinds.spelledWhole(text, range)
      || SchemaType.integer.admits(
        .number(UTF8Validation.asciiString(UnsafeBufferPointer(rebasing: text[range]))))
  }

  /// The number `text[range]`, when it is spelled without an exponent and with at most 18
  /// digits before its point: its floor, and whether it is whole (no fraction, or one of
  /// zeros only). A canonical number is as the file spelled it, which JSON's grammar
  /// checked.
  func smallNumber(_ range: Range<Int>) -> (floor: Int, isWhole: Bool)? {
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

  /// Whether the string whose token is `text[token]`, `inner` between its quotes, has a
  /// length (in Unicode scalars, as JSON Schema counts) within `lengths`. A scalar takes
  /// from 1 to 12 bytes of a token (`\uD83D\uDE00`), so bounds that every length from
  /// a twelfth of the bytes to all of them meets need no count: a `minLength` of 1 on a
  /// non-empty string costs nothing.
  func length(
    of inner: UnsafeBufferPointer<UInt8>, within lengths: (minimum: Int, maximum: Int), _ token: Range<Int>
  ) -> Bool {
    let bytes = inner.count
    if lengths.minimum <= (bytes + 11) / 12 && lengths.maximum >= bytes { return true }
    // A scalar is a byte that does not continue another; an escape is decoded.
    let length =
      inner.contains(UInt8(ascii: "\\"))
      ? CanonicalJSON.string(text, token).unicodeScalars.count : inner.count { $0 & 0xC0 != 0x80 }
    return length >= lengths.minimum && length <= lengths.maximum
  }
}

extension ValueKinds {
  /// The kinds a schema's `type` admits, told by a value's first byte: an integer is a
  /// number (that is also whole, which `CanonicalNodeRules.integerOnly` asks for).
  init(_ type: SchemaType) {
    switch type {
    case .null: self = .null
    case .boolean: self = .bool
    case .object: self = .object
    case .array: self = .array
    case .string: self = .string
    case .number, .integer: self = .number
    }
  }
}

/// What checking canonical text needs of a schema, in the text's own form and in flat
/// arrays: made once when the schema is read. A check reaches a node's rules, properties
/// and names through pointers; only the rare rules (listed values, required names past a
/// node's first 64 properties) are read from arrays of arrays. A class: a copy of the
/// schema (one for each record read) retains it once, not each of its arrays.
///
/// The rules every check reads are in allocations of the rules' own, made once and freed
/// with them, so that a check takes their addresses without a closure per array for each
/// record (an array's storage is not promised to stay where a pointer to it was taken).
final class CanonicalRules {
  /// Node by node, the rules every value's check reads.
  let nodes: UnsafePointer<CanonicalNodeRules>
  /// Every node's properties, each node's in one run (`CanonicalNodeRules.properties`)
  /// in the order of its `properties`.
  let properties: UnsafePointer<CanonicalProperty>
  /// The properties' names as canonical string tokens, one after another, and the plain
  /// patterns' texts (`CanonicalNodeRules.plainPattern`).
  let names: UnsafePointer<UInt8>
  /// How many of each the allocations above hold.
  private let counts: (nodes: Int, properties: Int, names: Int)
  /// Node by node: the canonical texts of the `enum` entries and of the `const`, when given.
  let allowed: [[[UInt8]]?]
  let constants: [[UInt8]?]
  /// Node by node: the `required` names not among its first 64 properties, as tokens.
  let otherRequired: [[[UInt8]]]

  init(_ schemaNodes: [SchemaNode]) {
    var nodes: [CanonicalNodeRules] = []
    var properties: [CanonicalProperty] = []
    var names: [UInt8] = []
    var otherRequired: [[[UInt8]]] = []
    for node in schemaNodes {
      let start = properties.count
      for property in node.properties {
        let nameStart = names.count
        names += CanonicalJSON.token(of: property.name)
        properties.append(CanonicalProperty(name: nameStart..<names.count, node: property.node))
      }
      var requiredMask: UInt64 = 0
      var others: [[UInt8]] = []
      for name in node.required {
        if let place = node.properties.firstIndex(where: { SchemaChecker.sameName($0.name, name) }),
          place < 64
        {
          requiredMask |= 1 << place
        } else {
          others.append(CanonicalJSON.token(of: name))
        }
      }
      var rules = CanonicalNodeRules(
        node, properties: start..<properties.count, requiredMask: requiredMask,
        hasOtherRequired: !others.isEmpty)
      if let plain = node.constraints.pattern?.plainText {
        let textStart = names.count
        names += plain.text
        rules.plainPattern = (textStart..<names.count, plain.start, plain.end)
      }
      nodes.append(rules)
      otherRequired.append(others)
    }
    counts = (nodes.count, properties.count, names.count)
    self.nodes = Self.allocated(nodes)
    self.properties = Self.allocated(properties)
    self.names = Self.allocated(names)
    self.otherRequired = otherRequired
    allowed = schemaNodes.map { $0.allowedValues.map { $0.map(CanonicalJSON.text(of:)) } }
    constants = schemaNodes.map { $0.constant.map(CanonicalJSON.text(of:)) }
  }

  deinit {
    UnsafeMutablePointer(mutating: nodes).deinitialize(count: counts.nodes).deallocate()
    UnsafeMutablePointer(mutating: properties).deinitialize(count: counts.properties).deallocate()
    UnsafeMutablePointer(mutating: names).deinitialize(count: counts.names).deallocate()
  }

  /// A copy of `elements` in an allocation of its own (of one element at least, so that
  /// even no elements have an address), which `deinit` frees.
  private static func allocated<Element>(_ elements: [Element]) -> UnsafePointer<Element> {
    let storage = UnsafeMutablePointer<Element>.allocate(capacity: max(elements.count, 1))
    _ = UnsafeMutableBufferPointer(start: storage, count: elements.count).initialize(from: elements)
    return UnsafePointer(storage)
  }
}

/// A property of an object node: its name's token in `CanonicalRules.names`, and the node
/// that checks its value.
struct CanonicalProperty {
  var name: Range<Int>
  var node: Int
}

/// What checking canonical text reads of one node on every value, in plain values (a
/// copy retains nothing).
struct CanonicalNodeRules {
  /// The kinds of value `type` admits (with `null` when it is allowed beside it); all
  /// when there is no `type`. With `integerOnly`, a number must also be whole.
  var kinds: ValueKinds
  var integerOnly: Bool
  /// The node has no rule but `kinds`: a value's first byte is its whole check.
  var kindsOnly: Bool
  /// The node's `$ref` target, `items` node, `additionalProperties`, `uniqueItems`, and
  /// whether it has an `enum` or `const`.
  var reference: Int?
  var items: Int?
  var allowsOtherMembers: Bool
  var uniqueItems: Bool
  var listsValues: Bool
  /// Whether any number bound is given, and, when every one given is a whole number that
  /// fits an Int, what they admit: a whole number in `lower...upper`; a number strictly
  /// between two whole ones whose floor is at least `floorLower` and below `floorUpper`.
  var hasBounds: Bool
  var wholeBounds: (lower: Int, upper: Int, floorLower: Int, floorUpper: Int)?
  /// The lengths `minLength` and `maxLength` admit, when either is given.
  var lengths: (minimum: Int, maximum: Int)?
  var hasPattern: Bool
  /// A pattern that is plain text (`SchemaPattern.plainText`): where its text is in
  /// `CanonicalRules.names`, and its anchors.
  var plainPattern: (text: Range<Int>, start: Bool, end: Bool)?
  var hasFormat: Bool
  /// The node's run in `CanonicalRules.properties`.
  var properties: Range<Int>
  /// The `required` properties among the node's first 64, as bits of their places; and
  /// whether other names are required (`CanonicalRules.otherRequired`).
  var requiredMask: UInt64
  var hasOtherRequired: Bool

  init(_ node: SchemaNode, properties: Range<Int>, requiredMask: UInt64, hasOtherRequired: Bool) {
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
    hasFormat = rules.format != nil
    if let type = node.type {
      kinds = ValueKinds(type)
      if node.allowsNull { kinds.insert(.null) }
      integerOnly = type == .integer
    } else {
      kinds = .all
      integerOnly = false
    }
    reference = node.reference
    items = node.items
    allowsOtherMembers = node.allowsAdditionalProperties
    uniqueItems = rules.uniqueItems
    listsValues = node.allowedValues != nil || node.constant != nil
    self.properties = properties
    self.requiredMask = requiredMask
    self.hasOtherRequired = hasOtherRequired
    kindsOnly =
      !integerOnly && reference == nil && items == nil && allowsOtherMembers && !uniqueItems && !listsValues
      && !hasBounds && lengths == nil && !hasPattern && !hasFormat && properties.isEmpty && requiredMask == 0
      && !hasOtherRequired
  }
}
