/// Turns read subschemas into `SchemaShape`s for `RecordSchema`.
struct SchemaShapeBuilder {
  let schema: JSONSchema

  /// The shape of node `index`. `visiting` holds the nodes on the way here; meeting one of
  /// them again (a recursive schema) gives `.any` instead of recursing forever.
  func shape(of index: Int, visiting: [Int]) -> SchemaShape {
    guard !visiting.contains(index) else { return .any }
    let node = schema.nodes[index]
    let path = visiting + [index]
    var result = node.reference.map { self.shape(of: $0, visiting: path) } ?? .any
    if let type = node.type {
      result.type = valueType(type, node, path: path)
      result.isNullable = node.allowsNull
    } else if case .object(let fields, let allowsOthers) = result.type,
      !node.properties.isEmpty || !node.required.isEmpty
    {
      result.type = .object(
        fields: merged(fields, objectFields(node, path: path)),
        allowsOtherFields: allowsOthers && node.allowsAdditionalProperties)
    } else if index == 0 {
      result.type = valueType(.object, node, path: path)
    }
    if let allowed = node.allowedValues { result.allowedValues = allowed }
    if let constant = node.constant { result.allowedValues = [constant] }
    result.constraints = overlay(node.constraints, on: result.constraints)
    let notes = node.annotations
    result.defaultValue = notes.defaultValue ?? result.defaultValue
    result.title = notes.title ?? result.title
    result.description = notes.description ?? result.description
    result.isReadOnly = notes.isReadOnly || result.isReadOnly
    return result
  }

  private func valueType(_ type: SchemaType, _ node: SchemaNode, path: [Int]) -> SchemaValueType {
    switch type {
    case .string:
      switch node.constraints.format {
      case .date: .date
      case .dateTime: .dateTime
      case .email: .email
      case nil: .string
      }
    case .integer: .integer
    case .number: .number
    case .boolean: .bool
    case .null: .null
    case .array: .list(of: node.items.map { shape(of: $0, visiting: path) } ?? .any)
    case .object:
      .object(fields: objectFields(node, path: path), allowsOtherFields: node.allowsAdditionalProperties)
    }
  }

  /// `properties` in order, then the `required` names they lack.
  private func objectFields(_ node: SchemaNode, path: [Int]) -> [SchemaField] {
    let isRequired = { (name: String) in node.required.contains { $0.utf8.elementsEqual(name.utf8) } }
    var fields = node.properties.map { property in
      SchemaField(
        name: property.name, isRequired: isRequired(property.name),
        shape: shape(of: property.node, visiting: path))
    }
    for name in node.required where !fields.contains(where: { $0.name.utf8.elementsEqual(name.utf8) }) {
      fields.append(SchemaField(name: name, isRequired: true, shape: .any))
    }
    return fields
  }

  /// `base` with each field of `own` replacing the one of its name, or appended.
  private func merged(_ base: [SchemaField], _ own: [SchemaField]) -> [SchemaField] {
    var result = base
    for field in own {
      if let index = result.firstIndex(where: { $0.name.utf8.elementsEqual(field.name.utf8) }) {
        result[index] = field
      } else {
        result.append(field)
      }
    }
    return result
  }

  /// The constraints of `own`, with those it lacks taken from `base`.
  private func overlay(_ own: SchemaConstraints, on base: SchemaConstraints) -> SchemaConstraints {
    var result = own
    result.minimum = own.minimum ?? base.minimum
    result.maximum = own.maximum ?? base.maximum
    result.exclusiveMinimum = own.exclusiveMinimum ?? base.exclusiveMinimum
    result.exclusiveMaximum = own.exclusiveMaximum ?? base.exclusiveMaximum
    result.minLength = own.minLength ?? base.minLength
    result.maxLength = own.maxLength ?? base.maxLength
    result.pattern = own.pattern ?? base.pattern
    result.format = own.format ?? base.format
    result.uniqueItems = own.uniqueItems || base.uniqueItems
    return result
  }
}
