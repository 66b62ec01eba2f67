/// A schema read as a record kind: the fields of ONE record, its key, and whether records
/// may hold other members.
///
/// The top-level schema describes one record, so its `type` must be `object` (or absent,
/// meaning the same here); a file is an array of such records. Each member of the top
/// level's `properties` is a field, in the schema's order; a name in `required` that
/// `properties` lacks is a field of any JSON value. `x-recsh-key`, when given, must name a
/// declared field of type string or integer. The full `schema` stays available for
/// checking records, which this model does not replace: where a subschema has a `$ref`
/// and keywords of its own, the model lays its own keywords over the referenced shape
/// (its `type`, constraints and annotations win; object fields merge by name), and a
/// recursive schema is modelled down to its first repeat, below which it says "any JSON".
package struct RecordSchema {
  /// The schema as read; `schema.violations(of:)` checks a record against all of it.
  package let schema: JSONSchema
  package var fields: [SchemaField]
  /// `additionalProperties` of the top level: `false` means no custom fields.
  var allowsOtherFields: Bool
  /// `x-recsh-key`: the field that identifies a record, when the schema names one.
  var key: String?
  package var title: String?
  var description: String?

  /// Reads `document` as a schema for records; throws what `JSONSchema(reading:)` throws,
  /// and `recordNotObject` or `badRecordKey`.
  package init(reading document: JSONValue) throws(JSONSchemaError) {
    try self.init(try JSONSchema(reading: document))
  }

  /// The record kind `schema` describes.
  init(_ schema: JSONSchema) throws(JSONSchemaError) {
    let root = schema.root
    if let type = root.type, type != .object || root.allowsNull {
      throw JSONSchemaError(
        .recordNotObject(type: root.allowsNull ? "\(type.rawValue) or null" : type.rawValue),
        at: root.pointer.appending("type"))
    }
    let shape = SchemaShapeBuilder(schema: schema).shape(of: 0, visiting: [])
    self.schema = schema
    if case .object(let fields, let allowsOtherFields) = shape.type {
      self.fields = fields
      self.allowsOtherFields = allowsOtherFields
    } else {
      fields = []
      allowsOtherFields = true
    }
    title = shape.title
    description = shape.description
    key = root.annotations.recordKey
    if let key { try checkKey(key) }
  }

  /// The field called `name`, if the schema declares one.
  func field(named name: String) -> SchemaField? {
    fields.first { $0.name.utf8.elementsEqual(name.utf8) }
  }

  private func checkKey(_ key: String) throws(JSONSchemaError) {
    let pointer = JSONPointer.root.appending("x-recsh-key")
    guard let field = field(named: key) else {
      throw JSONSchemaError(.badRecordKey(key, problem: "is not a field in properties"), at: pointer)
    }
    guard field.shape.type == .string || field.shape.type == .integer, !field.shape.isNullable else {
      throw JSONSchemaError(
        .badRecordKey(key, problem: "must name a string or integer field, found \(field.shape.type.name)"),
        at: pointer)
    }
  }
}
