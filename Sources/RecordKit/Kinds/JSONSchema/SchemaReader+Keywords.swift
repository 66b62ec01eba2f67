/// One member of a subschema at a time: the supported keywords are read into the node,
/// with their values checked; any other keyword is refused.
extension SchemaReader {
  mutating func readKeyword(
    _ keyword: String, _ value: JSONValue, into node: inout SchemaNode, index: Int, base: JSONPointer
  ) throws(JSONSchemaError) {
    let here = node.pointer.appending(keyword)
    func wrong(_ expected: String) -> JSONSchemaError {
      JSONSchemaError(.wrongValue(keyword: keyword, expected: expected, found: value), at: here)
    }
    switch (keyword, value) {
    case ("type", _):
      (node.type, node.allowsNull) = try Self.readType(value, at: here)
    case ("properties", .object(let members)):
      for member in members.members {
        let child = try readSchema(member.value, at: here.appending(member.key), base: base)
        node.properties.append(SchemaProperty(name: member.key, node: child))
      }
    case ("required", .array(let items)):
      node.required = try Self.readNames(items, keyword: keyword, at: here)
    case ("additionalProperties", .bool(let flag)):
      node.allowsAdditionalProperties = flag
    case ("additionalProperties", .object):
      throw JSONSchemaError(.additionalPropertiesSchema, at: here)
    case ("enum", .array(let items)):
      node.allowedValues = items
    case ("const", _):
      node.constant = value
    case ("minimum", .number(let spelling)):
      guard let bound = SchemaBound(spelling) else { throw wrong("a number") }
      node.constraints.minimum = bound
    case ("maximum", .number(let spelling)):
      guard let bound = SchemaBound(spelling) else { throw wrong("a number") }
      node.constraints.maximum = bound
    case ("exclusiveMinimum", .number(let spelling)):
      guard let bound = SchemaBound(spelling) else { throw wrong("a number") }
      node.constraints.exclusiveMinimum = bound
    case ("exclusiveMaximum", .number(let spelling)):
      guard let bound = SchemaBound(spelling) else { throw wrong("a number") }
      node.constraints.exclusiveMaximum = bound
    case ("minLength", .number(let spelling)):
      guard let length = DecimalNumber(spelling)?.nonNegativeIntClamped else {
        throw wrong("a whole number, 0 or more")
      }
      node.constraints.minLength = length
    case ("maxLength", .number(let spelling)):
      guard let length = DecimalNumber(spelling)?.nonNegativeIntClamped else {
        throw wrong("a whole number, 0 or more")
      }
      node.constraints.maxLength = length
    case ("pattern", .string(let source)):
      do {
        node.constraints.pattern = try SchemaPattern(source)
      } catch {
        throw JSONSchemaError(.invalidPattern(source, problem: "\(error)"), at: here)
      }
    case ("format", .string(let name)):
      guard let format = StringFormat(rawValue: name) else {
        throw JSONSchemaError(.unsupportedFormat(name), at: here)
      }
      node.constraints.format = format
    case ("items", _):
      node.items = try readSchema(value, at: here, base: base)
    case ("uniqueItems", .bool(let flag)):
      node.constraints.uniqueItems = flag
    case ("$defs", .object(let members)):
      for member in members.members {
        _ = try readSchema(member.value, at: here.appending(member.key), base: base)
      }
    case ("$ref", .string(let text)):
      node.referenceText = text
      guard text.first == "#", let target = JSONPointer(uriFragment: text.dropFirst()) else {
        throw JSONSchemaError(.nonLocalReference(text), at: here)
      }
      references.append(PendingReference(node: index, target: base.appending(target), base: base))
    case ("default", _):
      node.annotations.defaultValue = value
    case ("title", .string(let text)):
      node.annotations.title = text
    case ("description", .string(let text)):
      node.annotations.description = text
    case ("readOnly", .bool(let flag)):
      node.annotations.isReadOnly = flag
    case ("x-recsh-key", .string(let name)):
      guard node.pointer == .root else { throw JSONSchemaError(.recordKeyNotAtTop, at: here) }
      node.annotations.recordKey = name
    case ("$id", .string(let text)):
      node.identifier = text
    case ("$schema", .string), ("$comment", .string):
      break
    default:
      throw Self.expectation(for: keyword).map(wrong)
        ?? JSONSchemaError(.unsupportedKeyword(keyword), at: here)
    }
  }

  /// What a supported keyword's value must be, for the error when it is something else;
  /// `nil` for keywords recsh does not support.
  private static func expectation(for keyword: String) -> String? {
    switch keyword {
    case "properties", "$defs": "an object of schemas"
    case "required": "a list of names"
    case "additionalProperties", "uniqueItems", "readOnly": "true or false"
    case "enum": "a list of values"
    case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum": "a number"
    case "minLength", "maxLength": "a whole number, 0 or more"
    case "pattern", "format", "$ref", "title", "description", "x-recsh-key", "$id", "$schema", "$comment":
      "a string"
    default: nil
    }
  }

  /// `type`: one type name, or a list of one type and `"null"`.
  private static func readType(
    _ value: JSONValue, at pointer: JSONPointer
  ) throws(JSONSchemaError) -> (SchemaType, allowsNull: Bool) {
    let expected = "a type name, or a list of a type name and \"null\""
    let wrong = JSONSchemaError(.wrongValue(keyword: "type", expected: expected, found: value), at: pointer)
    func type(of item: JSONValue) throws(JSONSchemaError) -> SchemaType {
      guard case .string(let name) = item else { throw wrong }
      guard let type = SchemaType(rawValue: name) else {
        throw JSONSchemaError(.unknownType(name), at: pointer)
      }
      return type
    }
    switch value {
    case .string:
      return (try type(of: value), false)
    case .array(let items):
      var types: [SchemaType] = []
      for item in items { types.append(try type(of: item)) }
      let others = types.filter { $0 != .null }
      guard types.count == 2, others.count == 1, let only = others.first else {
        throw JSONSchemaError(.typeUnion(value), at: pointer)
      }
      return (only, true)
    default:
      throw wrong
    }
  }

  /// `required`: distinct strings.
  private static func readNames(
    _ items: [JSONValue], keyword: String, at pointer: JSONPointer
  ) throws(JSONSchemaError) -> [String] {
    var names: [String] = []
    for (index, item) in items.enumerated() {
      guard case .string(let name) = item else {
        throw JSONSchemaError(
          .wrongValue(keyword: keyword, expected: "a list of names", found: item),
          at: pointer.appending(index: index))
      }
      guard !names.contains(where: { $0.utf8.elementsEqual(name.utf8) }) else {
        throw JSONSchemaError(
          .duplicateValue(keyword: keyword, value: item), at: pointer.appending(index: index))
      }
      names.append(name)
    }
    return names
  }
}
