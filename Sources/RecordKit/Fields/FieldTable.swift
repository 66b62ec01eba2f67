/// The fields of one record kind: the single table that drives parsing,
/// printing, completion and validation of values.
public struct FieldTable<Root: Record>: Sendable {
  /// Every declared field, `id` first, in the order `show` and the file use.
  public let fields: [any FieldAccessor<Root>]
  /// Nested objects (`address`) whose declared members are dotted fields, with
  /// where their undeclared keys are kept.
  public let nestedObjects: [NestedObject<Root>]
  private let positions: [String: Int]
  /// The fields' names in table order, and whether there are nested objects: loading and
  /// saving ask for every field of every record, and generic code pays a run-time type
  /// lookup each time it reaches into `fields` or `nestedObjects` (see `index(ofField:)`).
  public let names: [String]
  let hasNestedObjects: Bool
  /// The names again as bytes, for matching a file's keys without making strings.
  let keyTable: JSONNameTable
  /// A run-time kind's objects of composed fields (`publisher` for `publisher.city`),
  /// which no custom field may take the name of.
  let objectNames: Set<String>
  /// What the shell's parser checks on every line, computed once.
  public let readOnlyNames: Set<String>
  public let listNames: Set<String>
  /// The field that identifies a record: `id` for the shipped kinds; for a run-time kind
  /// `id`, the schema's `x-recsh-key`, or none (records are referred to by `@N`).
  public let key: RecordKey?
  /// Whether records keep every member, declared or not, in `custom`, in file order (a
  /// run-time kind, whose fields are members reached by name), rather than declared
  /// fields in stored properties with `id` first (a shipped kind).
  public let keepsAllMembers: Bool
  /// Whether `set +FIELD` may create a key the kind does not declare; false where a
  /// schema says `additionalProperties: false`.
  let allowsCustomFields: Bool
  /// Values `new` gives the fields it is not told (a schema's `default`s), in table order.
  let defaults: [(field: String, value: JSONValue)]
  /// Fields every record must hold (a schema's `required`): `new` refuses a record without one.
  let requiredNames: [String]
  /// A run-time kind's schema document, as read or inferred; `nil` for a shipped kind,
  /// whose schema is made from its fields (`schemaDocument(title:)`).
  let schema: JSONValue?
  /// A run-time kind's check of the records of a file it reads (`open FILE` too): its
  /// schema's rules, the violations thrown with their places in the bytes; `nil` for a
  /// shipped kind, whose types its loading checks.
  package let checkRecords:
    (@Sendable ([Root], UnsafeBufferPointer<UInt8>, RecordLayout) throws(RecordFileError) -> Void)?

  /// A shipped kind's table: `id` first, then `fields`.
  init(_ fields: [any FieldAccessor<Root>], nestedObjects: [NestedObject<Root>] = []) {
    self.init(
      allFields: [IDField<Root>()] + fields, nestedObjects: nestedObjects,
      key: RecordKey(name: "id", isInteger: false),
      keepsAllMembers: false, allowsCustomFields: true, defaults: [], required: [], schema: nil,
      checkRecords: nil)
  }

  /// A run-time kind's table: `fields` as given (the key among them, if any).
  init(
    runTime fields: [any FieldAccessor<Root>], key: RecordKey?, allowsCustomFields: Bool,
    defaults: [(field: String, value: JSONValue)], required: [String], schema: JSONValue,
    checkRecords:
      @escaping @Sendable ([Root], UnsafeBufferPointer<UInt8>, RecordLayout) throws(RecordFileError) -> Void
  ) {
    self.init(
      allFields: fields, nestedObjects: [], key: key, keepsAllMembers: true,
      allowsCustomFields: allowsCustomFields,
      defaults: defaults, required: required, schema: schema, checkRecords: checkRecords)
  }

  private init(
    allFields fields: [any FieldAccessor<Root>], nestedObjects: [NestedObject<Root>], key: RecordKey?,
    keepsAllMembers: Bool, allowsCustomFields: Bool, defaults: [(field: String, value: JSONValue)],
    required: [String], schema: JSONValue?,
    checkRecords: (
      @Sendable ([Root], UnsafeBufferPointer<UInt8>, RecordLayout) throws(RecordFileError) -> Void
    )?
  ) {
    self.schema = schema
    self.checkRecords = checkRecords
    self.fields = fields
    self.requiredNames = required
    self.key = key
    self.keepsAllMembers = keepsAllMembers
    self.allowsCustomFields = allowsCustomFields
    self.defaults = defaults
    self.nestedObjects = nestedObjects
    var positions: [String: Int] = [:]
    for (index, field) in self.fields.enumerated() {
      positions[field.name] = index
    }
    self.positions = positions
    names = self.fields.map { $0.name }
    keyTable = JSONNameTable(names)
    objectNames =
      keepsAllMembers
      ? Set(names.compactMap { $0.split(separator: ".", maxSplits: 1).dropLast().first.map(String.init) })
      : []
    hasNestedObjects = !nestedObjects.isEmpty
    readOnlyNames = Set(self.fields.filter { $0.isReadOnly }.map { $0.name })
    listNames = Set(self.fields.filter(\.isList).map { $0.name })
  }

  /// The kind as a JSON Schema (draft 2020-12): a run-time kind's document as read or
  /// inferred; for a shipped kind, one made from its fields' types (`id` required, a
  /// nested object's fields under its name), which opened with `--schema` edits the same
  /// records with the same types.
  public func schemaDocument(title: String) -> JSONValue {
    if let schema { return schema }
    var properties = JSONObject()
    for field in fields {
      let parts = field.name.split(separator: ".", maxSplits: 1).map(String.init)
      let value = Self.schema(of: field.type)
      guard parts.count == 2 else {
        properties[field.name] = .object(value)
        continue
      }
      var nested = JSONObject()
      if case .object(let existing)? = properties[parts[0]], case .object(let inner)? = existing["properties"]
      {
        nested = inner
      }
      nested[parts[1]] = .object(value)
      properties[parts[0]] = .object(JSONObject(["type": .string("object"), "properties": .object(nested)]))
    }
    return .object(
      JSONObject([
        "$schema": .string("https://json-schema.org/draft/2020-12/schema"), "title": .string(title),
        "type": .string("object"), "properties": .object(properties), "required": .array([.string("id")]),
      ]))
  }

  private static func schema(of type: FieldType) -> JSONObject {
    switch type {
    case .string: JSONObject(["type": .string("string")])
    case .bool: JSONObject(["type": .string("boolean")])
    case .int(let range):
      JSONObject([
        "type": .string("integer"), "minimum": .number(String(range.lowerBound)),
        "maximum": .number(String(range.upperBound)),
      ])
    case .stringList:
      JSONObject(["type": .string("array"), "items": .object(JSONObject(["type": .string("string")]))])
    case .date:
      JSONObject(["type": .string("string"), "description": .string("an ISO 8601 date or date-time")])
    case .nullable(let base):
      {
        var object = schema(of: base)
        if case .string(let name)? = object["type"] {
          object["type"] = .array([.string(name), .string("null")])
        }
        return object
      }()
    case .json, .described: JSONObject()
    }
  }

  /// The declared field named `name`.
  public func field(named name: String) -> (any FieldAccessor<Root>)? {
    positions[name].map { fields[$0] }
  }

  /// Where the declared field `name` is in `fields`, for loading a file. Unlike
  /// `field(named:)` it returns no optional existential, whose type metadata generic
  /// code looks up at run time on every call; for the handful of fields a kind has, a
  /// scan of the names is faster than hashing the key.
  @inline(__always)
  func index(ofField name: String) -> Int? {
    names.count <= 16 ? names.firstIndex(of: name) : positions[name]
  }

  /// The declared field `name`, found by `index(ofField:)` (the edit path: no hashing).
  @inline(__always)
  func declaredField(named name: String) -> (any FieldAccessor<Root>)? {
    index(ofField: name).map { fields[$0] }
  }

  /// The field `name` refers to in `record`: a declared one, or a custom key the
  /// record has. Anything else is an error with a suggestion, never a new field.
  /// The keys of `record` that the kind does not declare, in order.
  public func customKeys(of record: Root) -> [String] {
    guard !record.custom.isEmpty else { return [] }
    guard keepsAllMembers else { return record.custom.keys }
    return record.custom.keys.filter { field(named: $0) == nil && !declaresObject($0) }
  }

  /// Whether `name` is the object that holds declared dotted fields (`publisher` for
  /// `publisher.city`) in a run-time kind.
  func declaresObject(_ name: String) -> Bool {
    !objectNames.isEmpty && objectNames.contains(name)
  }

  public func resolve(_ name: String, in record: Root?) throws(FieldError) -> any FieldAccessor<Root> {
    if let field = field(named: name) { return field }
    if let record, record.custom.contains(name) { return Self.custom(name) }
    let candidates = fields.map(\.name) + (record?.custom.keys ?? [])
    throw .unknownField(name, suggestion: Suggestion.closest(to: name, among: candidates))
  }

  /// A new custom field `name` for `record`: the explicit form (`set +name …`).
  /// A declared name or an existing key is refused, so `+` never shadows anything.
  func newCustomField(_ name: String, in record: Root) throws(FieldError) -> any FieldAccessor<Root> {
    guard Self.isValidCustomName(name), !nestedObjects.contains(where: { $0.name == name }) else {
      throw .invalidCustomName(name)
    }
    guard field(named: name) == nil, !record.custom.contains(name) else { throw .customFieldExists(name) }
    guard allowsCustomFields else { throw .customFieldsForbidden(name) }
    guard !declaresObject(name) else { throw .invalidCustomName(name) }
    return Self.custom(name)
  }

  /// The accessor for custom key `name`, through the subscript key path `\Root.custom[positioned: name]`.
  public static func custom(_ name: String) -> KeyPathField<Root, CustomFieldCodec> {
    KeyPathField(
      name: name, slot: FieldSlot(customKey: name), codec: CustomFieldCodec(), isCustom: true, listEdit: nil)
  }

  static func isValidCustomName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first != "-", first != "." else { return false }
    return name.unicodeScalars.allSatisfy { scalar in
      scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_-.".unicodeScalars.contains(scalar)
    }
  }
}

/// The field that identifies a record, and whether its values are integers.
public struct RecordKey: Equatable, Sendable {
  public var name: String
  public var isInteger: Bool
}

/// A JSON object inside each record whose members are declared dotted fields
/// (`address` for `address.city`); `extras` keeps the members the kind does not declare.
public struct NestedObject<Root: Record>: Sendable {
  public let name: String
  public let extras: WritableKeyPath<Root, CustomFields> & Sendable

  init(_ name: String, extras: WritableKeyPath<Root, CustomFields> & Sendable) {
    self.name = name
    self.extras = extras
  }
}
