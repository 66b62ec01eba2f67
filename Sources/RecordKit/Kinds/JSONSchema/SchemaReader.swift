/// Walks a schema document once, turning each subschema into a `SchemaNode`.
///
/// A subschema is read at most once (nodes are kept by pointer), so a `$ref` to a place
/// already read, or read twice, yields the same node.
struct SchemaReader {
  let document: JSONValue
  var nodes: [SchemaNode] = []
  var indexByPointer: [JSONPointer: Int] = [:]
  /// `$ref`s met on the walk, resolved once the whole document has been read.
  var references: [PendingReference] = []

  struct PendingReference {
    var node: Int
    var target: JSONPointer
    /// The subschema `#` means for this `$ref`: the nearest enclosing one with an `$id`.
    var base: JSONPointer
  }

  init(document: JSONValue) {
    self.document = document
  }

  /// Reads the subschema `value` found at `pointer` and returns its node's index.
  mutating func readSchema(
    _ value: JSONValue, at pointer: JSONPointer, base: JSONPointer
  ) throws(JSONSchemaError) -> Int {
    if let index = indexByPointer[pointer] { return index }
    guard case .object(let object) = value else {
      if case .bool(let flag) = value { throw JSONSchemaError(.booleanSchema(flag), at: pointer) }
      throw JSONSchemaError(.notAnObject(found: value.kind), at: pointer)
    }
    let index = nodes.count
    nodes.append(SchemaNode(pointer: pointer))
    indexByPointer[pointer] = index
    var node = SchemaNode(pointer: pointer)
    let base = object["$id"] == nil ? base : pointer
    for member in object.members {
      try readKeyword(member.key, member.value, into: &node, index: index, base: base)
    }
    try checkConsistency(of: node)
    nodes[index] = node
    return index
  }

  /// Points each `$ref` at its node, reading targets the walk did not reach (`#/enum/0`).
  mutating func resolveReferences() throws(JSONSchemaError) {
    var next = 0
    while next < references.count {
      let reference = references[next]
      next += 1
      let target: Int
      if let known = indexByPointer[reference.target] {
        target = known
      } else if let value = reference.target.value(in: document) {
        target = try readSchema(value, at: reference.target, base: reference.base)
      } else {
        let node = nodes[reference.node]
        throw JSONSchemaError(
          .referenceNowhere(node.referenceText ?? ""), at: node.pointer.appending("$ref"))
      }
      nodes[reference.node].reference = target
    }
  }

  /// Refuses `$ref` chains that come back to where they started: each would apply the
  /// same subschemas to the same value forever. Costs O(nodes × chain length).
  func checkReferenceCycles() throws(JSONSchemaError) {
    for start in nodes.indices where nodes[start].reference != nil {
      var chain = [start]
      var current = start
      while let next = nodes[current].reference {
        if let loopStart = chain.firstIndex(of: next) {
          let loop = chain[loopStart...]
          let texts = loop.map { nodes[$0].referenceText ?? "" }
          throw JSONSchemaError(.referenceCycle(texts), at: nodes[next].pointer.appending("$ref"))
        }
        chain.append(next)
        current = next
      }
    }
  }

  /// Refuses a subschema whose rules contradict each other or its own `type`.
  private func checkConsistency(of node: SchemaNode) throws(JSONSchemaError) {
    let rules = node.constraints
    let ranges: [(String, SchemaBound?, String, SchemaBound?, Bool)] = [
      ("minimum", rules.minimum, "maximum", rules.maximum, false),
      ("exclusiveMinimum", rules.exclusiveMinimum, "maximum", rules.maximum, true),
      ("minimum", rules.minimum, "exclusiveMaximum", rules.exclusiveMaximum, true),
      ("exclusiveMinimum", rules.exclusiveMinimum, "exclusiveMaximum", rules.exclusiveMaximum, true),
    ]
    for (lowerName, lower, upperName, upper, strict) in ranges {
      guard let lower, let upper, upper.value < lower.value || (strict && upper.value == lower.value)
      else { continue }
      throw JSONSchemaError(
        .emptyRange(
          lower: lowerName, lowerValue: lower.spelling, upper: upperName, upperValue: upper.spelling),
        at: node.pointer.appending(lowerName))
    }
    if let minLength = rules.minLength, let maxLength = rules.maxLength, minLength > maxLength {
      throw JSONSchemaError(
        .emptyRange(
          lower: "minLength", lowerValue: "\(minLength)", upper: "maxLength", upperValue: "\(maxLength)"),
        at: node.pointer.appending("minLength"))
    }
    guard let type = node.type else { return }
    let admitted = { (value: JSONValue) in type.admits(value) || (node.allowsNull && value == .null) }
    for (index, value) in (node.allowedValues ?? []).enumerated() where !admitted(value) {
      throw JSONSchemaError(
        .valueBreaksType(keyword: "enum", value: value, type: type.words),
        at: node.pointer.appending("enum").appending(index: index))
    }
    if let constant = node.constant, !admitted(constant) {
      throw JSONSchemaError(
        .valueBreaksType(keyword: "const", value: constant, type: type.words),
        at: node.pointer.appending("const"))
    }
  }
}
