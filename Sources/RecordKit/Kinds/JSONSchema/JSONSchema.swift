/// A JSON Schema read, checked for sense, and ready to check values: the draft 2020-12
/// subset recsh supports.
///
/// Supported: `type` (one type, or a type and `"null"`), `properties`, `required`,
/// `additionalProperties` (`true`/`false`), `enum`, `const`, `minimum`, `maximum`,
/// `exclusiveMinimum`, `exclusiveMaximum`, `minLength`, `maxLength`, `pattern`, `format`
/// (`date`, `date-time`, `email`, asserted), `items` (one schema), `uniqueItems`,
/// `default`, `title`, `description`, `readOnly`, `$schema`, `$id`, `$comment`, `$defs`,
/// `$ref` (local: `#`, `#/…`), and `x-recsh-key` (top level only). Anything else is
/// refused with its JSON pointer: reading never ignores a rule.
///
/// Any schema reads (the official test suite checks bare values against it); a schema
/// for records goes on to `RecordSchema`, which needs the top level to be an object.
/// Not `Sendable`, because `SchemaPattern` holds a compiled program with its own match data.
package struct JSONSchema {
  /// The schema document as given.
  let document: JSONValue
  /// Every subschema read; `nodes[0]` is the top level.
  let nodes: [SchemaNode]
  /// The nodes' rules in flat arrays, names and listed values as canonical text, for
  /// `admits(canonical:_:node:)`.
  let canonicalRules: CanonicalRules

  /// Reads `document` as a schema.
  ///
  /// Throws the first problem met walking the schema in document order (members in
  /// their order, descending into subschemas as they come); problems with `$ref` targets
  /// (`referenceNowhere`, `referenceCycle`) come after the walk. Costs O(size of the
  /// document), plus the cost of compiling each `pattern`.
  init(reading document: JSONValue) throws(JSONSchemaError) {
    var reader = SchemaReader(document: document)
    _ = try reader.readSchema(document, at: .root, base: .root)
    try reader.resolveReferences()
    try reader.checkReferenceCycles()
    self.document = document
    self.nodes = reader.nodes
    canonicalRules = CanonicalRules(reader.nodes)
  }

  /// The top-level subschema.
  var root: SchemaNode { nodes[0] }

  /// Whether `value` meets every rule of the schema.
  func admits(_ value: JSONValue) -> Bool {
    violations(of: value, limit: 1).isEmpty
  }

  /// The ways `value` breaks the schema, at most `limit` of them, in the value's order
  /// (a member's violations before the next member's; missing required members after
  /// the present ones). Costs O(size of the value × the schema's depth), plus pattern
  /// matches and O(n²) comparisons for each `uniqueItems` list of n items.
  package func violations(of value: JSONValue, limit: Int = .max) -> [SchemaViolation] {
    var checker = SchemaChecker(schema: self, limit: limit)
    checker.check(value, against: 0, at: .root)
    return checker.found
  }
}

extension JSONSchema {
  /// The ways `value` breaks node `index` of the schema (a field's subschema), at most
  /// `limit` of them; pointers are relative to the value.
  func violations(of value: JSONValue, againstNode index: Int, limit: Int = .max) -> [SchemaViolation] {
    var checker = SchemaChecker(schema: self, limit: limit)
    checker.check(value, against: index, at: .root)
    return checker.found
  }

  /// The nodes that check the member at `path` of an object that node `index` checks:
  /// the `properties` entries of that name, in the node itself and along its `$ref`
  /// chain, descending one name at a time. Empty when no node names it (then only the
  /// record as a whole is checked against it).
  func propertyNodes(at path: [String], from index: Int = 0) -> [Int] {
    var current = [index]
    for name in path {
      var next: [Int] = []
      for start in current {
        var node: Int? = start
        var seen: Set<Int> = []
        while let here = node, seen.insert(here).inserted {
          if let property = nodes[here].properties.first(where: { $0.name.utf8.elementsEqual(name.utf8) }) {
            next.append(property.node)
          }
          node = nodes[here].reference
        }
      }
      current = next
      if current.isEmpty { break }
    }
    return current
  }
}
