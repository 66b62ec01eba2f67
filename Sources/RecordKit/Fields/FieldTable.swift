/// The fields of one record kind: the single table that drives parsing,
/// printing, completion and validation of values.
public struct FieldTable<Root: Record>: Sendable {
  /// Everything the table holds, in one object: a copy of the table costs one retain, not
  /// one for each of its arrays, sets and closures. A run-time kind's records reach their
  /// table through the kind bound to the task (`RunTimeRecord.fields`), a copy at every
  /// edit.
  private let storage: Storage

  /// Every declared field, `id` first, in the order `show` and the file use.
  public var fields: [any FieldAccessor<Root>] { storage.fields }
  /// Nested objects (`address`) whose declared members are dotted fields, with
  /// where their undeclared keys are kept.
  public var nestedObjects: [NestedObject<Root>] { storage.nestedObjects }
  private var positions: [String: Int] { storage.positions }
  /// The fields' names in table order, and whether there are nested objects: loading and
  /// saving ask for every field of every record, and generic code pays a run-time type
  /// lookup each time it reaches into `fields` or `nestedObjects` (see `index(ofField:)`).
  public var names: [String] { storage.names }
  var hasNestedObjects: Bool { storage.hasNestedObjects }
  /// The names again as bytes, for matching a file's keys without making strings.
  var keyTable: JSONNameTable { storage.keyTable }
  /// A run-time kind's objects of composed fields (`publisher` for `publisher.city`),
  /// which no custom field may take the name of.
  var objectNames: Set<String> { storage.objectNames }
  /// What the shell's parser checks on every line, computed once.
  public var readOnlyNames: Set<String> { storage.readOnlyNames }
  public var listNames: Set<String> { storage.listNames }
  /// The field that identifies a record: `id` for the shipped kinds; for a run-time kind
  /// `id`, the schema's `x-recsh-key`, or none (records are referred to by `@N`).
  public var key: RecordKey? { storage.key }
  /// Whether records keep every member, declared or not, in `custom`, in file order (a
  /// run-time kind, whose fields are members reached by name), rather than declared
  /// fields in stored properties with `id` first (a shipped kind).
  public var keepsAllMembers: Bool { storage.keepsAllMembers }
  /// Whether `set +FIELD` may create a key the kind does not declare; false where a
  /// schema says `additionalProperties: false`.
  var allowsCustomFields: Bool { storage.allowsCustomFields }
  /// Values `new` gives the fields it is not told (a schema's `default`s), in table order.
  var defaults: [(field: String, value: JSONValue)] { storage.defaults }
  /// Fields every record must hold (a schema's `required`): `new` refuses a record without one.
  var requiredNames: [String] { storage.requiredNames }
  /// A run-time kind's schema document, as read or inferred; `nil` for a shipped kind,
  /// whose schema is made from its fields (`schemaDocument(title:)`).
  var schema: JSONValue? { storage.schema }
  /// A run-time kind's check of the records of a file it reads (`open FILE` too): its
  /// schema's rules, the violations thrown with their places in the bytes; `nil` for a
  /// shipped kind, whose types its loading checks.
  package var checkRecords: RecordCheck? { storage.checkRecords }

  /// A run-time kind's check of a file's records (`checkRecords`).
  package typealias RecordCheck =
    @Sendable ([Root], UnsafeBufferPointer<UInt8>, RecordLayout) throws(RecordFileError) -> Void

  /// A shipped kind's table: `id` first, then `fields`.
  init(_ fields: [any FieldAccessor<Root>], nestedObjects: [NestedObject<Root>] = []) {
    storage = Storage(
      allFields: [IDField<Root>()] + fields, nestedObjects: nestedObjects,
      key: RecordKey(name: "id", isInteger: false),
      keepsAllMembers: false, allowsCustomFields: true, defaults: [], required: [], schema: nil,
      checkRecords: nil)
  }

  /// A run-time kind's table: `fields` as given (the key among them, if any).
  init(
    runTime fields: [any FieldAccessor<Root>], key: RecordKey?, allowsCustomFields: Bool,
    defaults: [(field: String, value: JSONValue)], required: [String], schema: JSONValue,
    checkRecords: @escaping RecordCheck
  ) {
    storage = Storage(
      allFields: fields, nestedObjects: [], key: key, keepsAllMembers: true,
      allowsCustomFields: allowsCustomFields,
      defaults: defaults, required: required, schema: schema, checkRecords: checkRecords)
  }

  /// The table's contents (see `storage`): set once, never changed.
  private final class Storage: Sendable {
    let fields: [any FieldAccessor<Root>]
    let nestedObjects: [NestedObject<Root>]
    let positions: [String: Int]
    let names: [String]
    let hasNestedObjects: Bool
    let keyTable: JSONNameTable
    let objectNames: Set<String>
    let readOnlyNames: Set<String>
    let listNames: Set<String>
    let key: RecordKey?
    let keepsAllMembers: Bool
    let allowsCustomFields: Bool
    let defaults: [(field: String, value: JSONValue)]
    let requiredNames: [String]
    let schema: JSONValue?
    let checkRecords: RecordCheck?

    init(
      allFields fields: [any FieldAccessor<Root>], nestedObjects: [NestedObject<Root>], key: RecordKey?,
      keepsAllMembers: Bool, allowsCustomFields: Bool, defaults: [(field: String, value: JSONValue)],
      required: [String], schema: JSONValue?, checkRecords: RecordCheck?
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
      for (index, field) in fields.enumerated() {
        positions[field.name] = index
      }
      self.positions = positions
      names = fields.map { $0.name }
      keyTable = JSONNameTable(names)
      objectNames =
        keepsAllMembers
        ? Set(names.compactMap { $0.split(separator: ".", maxSplits: 1).dropLast().first.map(String.init) })
        : []
      hasNestedObjects = !nestedObjects.isEmpty
      readOnlyNames = Set(fields.filter { $0.isReadOnly }.map { $0.name })
      listNames = Set(fields.filter(\.isList).map { $0.name })
    }
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
