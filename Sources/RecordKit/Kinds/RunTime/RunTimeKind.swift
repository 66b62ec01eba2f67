/// A record kind made when recsh runs: from a JSON Schema, or inferred from a file's
/// records (as a schema, which `schema` prints), with the field table over
/// `RunTimeRecord` that edits its records.
///
/// **How records find it.** `Record` asks its kind's table statically (`Root.fields`):
/// the shipped kinds are Swift types whose tables are constants, and the edit path is
/// specialized on them. A run-time kind is a value, so `RunTimeRecord`'s static members
/// read the kind bound to the task-local `current` (`RunTimeKind.$current.withValue`),
/// which the shell binds for a whole session, and tests for the scope of each test: two
/// tests on different run-time kinds can run at once. Outside a binding the kind is
/// `unbound`, with no fields and no key. Reading a task-local costs a lookup of the
/// current task's bindings; loading and saving read the table once per file, an edit
/// once or twice.
///
/// `@unchecked Sendable`: immutable after `init`; the schema holds compiled patterns
/// (`Regex`, not marked `Sendable` by the standard library) that are only matched.
public final class RunTimeKind: @unchecked Sendable {
  /// The kind's name, as messages and the journal give it: the schema's `title`, else
  /// the name of the file it was made for ("books").
  public let name: String
  public let table: FieldTable<RunTimeRecord>
  let summaryFields: [String]
  var key: RecordKey? { table.key }
  /// The schema as a document: what `schema` prints (an inferred kind's is made by
  /// inference; a schema file's is the file as read).
  package let document: JSONValue
  let recordSchema: RecordSchema

  @TaskLocal public static var current: RunTimeKind = .unbound

  /// No fields and no key: what `RunTimeRecord` sees outside any binding.
  public static let unbound: RunTimeKind = {
    do {
      return RunTimeKind(
        name: "records", recordSchema: try RecordSchema(reading: .object(JSONObject())),
        document: .object(JSONObject()), key: nil)
    } catch {
      preconditionFailure("the empty schema was refused: \(error)")
    }
  }()

  /// The kind `schema` describes, with `key` as the records' key (see `chooseKey`).
  package convenience init(name: String, schema: RecordSchema, key: RecordKey?) {
    self.init(name: schema.title ?? name, recordSchema: schema, document: schema.schema.document, key: key)
  }

  /// How each field `schema` declares reads a CSV or TSV cell (`CellReading`), by name:
  /// for reading a table before the kind is bound.
  package static func cellReadings(of schema: RecordSchema) -> [String: CellReading] {
    let kind = RunTimeKind(name: "", schema: schema, key: nil)
    return Dictionary(kind.table.fields.map { ($0.name, $0.cellReading) }) { first, _ in first }
  }

  private init(name: String, recordSchema: RecordSchema, document: JSONValue, key: RecordKey?) {
    self.recordSchema = recordSchema
    self.name = name
    self.document = document
    var accessors: [any FieldAccessor<RunTimeRecord>] = []
    var defaults: [(field: String, value: JSONValue)] = []
    var required: [String] = []
    for field in Self.flattened(self.recordSchema.fields, prefix: []) {
      let name = field.path.joined(separator: ".")
      let codec = RunTimeFieldCodec(
        shape: field.shape, isRequired: field.isRequired, isKey: key.map { $0.name == name } ?? false,
        schema: self.recordSchema.schema, nodes: self.recordSchema.schema.propertyNodes(at: field.path))
      // A top-level field is a member reached by name, as a custom key is; a composed
      // one (`publisher.city`) by its path.
      let slot =
        field.path.count == 1
        ? FieldSlot(customKey: field.path[0]) : FieldSlot(\RunTimeRecord.custom[member: field.path])
      if case .list = field.shape.type {
        accessors.append(KeyPathField(list: name, slot, codec))
      } else {
        accessors.append(KeyPathField(name, slot, codec))
      }
      if let value = field.shape.defaultValue { defaults.append((name, value)) }
      if field.isRequired { required.append(name) }
    }
    table = FieldTable(
      runTime: accessors, key: key, allowsCustomFields: self.recordSchema.allowsOtherFields,
      defaults: defaults,
      required: required, schema: document,
      checkRecords: {
        [rules = SchemaRules(recordSchema, key)] (records, bytes, layout) throws(RecordFileError) in
        try RunTimeFile.check(records, against: rules.schema, key: rules.key, in: bytes, layout: layout)
      })
    summaryFields = Self.summary(table, key: key)
  }

  /// A field with its composed path: a nested object with declared fields of its own is
  /// its fields (`publisher.city`), as `address` is for contacts; any other field is itself.
  private static func flattened(_ fields: [SchemaField], prefix: [String]) -> [(
    path: [String], shape: SchemaShape, isRequired: Bool
  )] {
    var result: [(path: [String], shape: SchemaShape, isRequired: Bool)] = []
    for field in fields {
      let path = prefix + [field.name]
      if case .object(let inner, _) = field.shape.type, !inner.isEmpty, !field.shape.isNullable,
        path.count < 8
      {
        result += flattened(inner, prefix: path)
      } else {
        result.append((path, field.shape, field.isRequired && prefix.isEmpty))
      }
    }
    return result
  }

  /// The fields `list` shows after the key: up to three others and a text field last,
  /// where it has room: `title` or `name` when there is one, else the first string field.
  private static func summary(_ table: FieldTable<RunTimeRecord>, key: RecordKey?) -> [String] {
    let candidates = table.fields.filter { $0.name != key?.name && !$0.isList }
    let strings = candidates.filter { $0.type.name == "string" }
    let preferred = ["title", "name", "summary", "subject", "label"]
    guard
      let text = preferred.lazy.compactMap({ name in strings.first { $0.name == name } }).first
        ?? strings.first
    else {
      return Array(candidates.prefix(4).map(\.name))
    }
    return candidates.filter { $0 !== text }.prefix(3).map(\.name) + [text.name]
  }

  /// The key `schema` names (`x-recsh-key`), if it names one.
  static func declaredKey(of schema: RecordSchema) -> RecordKey? {
    schema.key.map { RecordKey(name: $0, isInteger: schema.field(named: $0)?.shape.type == .integer) }
  }

  /// The key of a kind's records, by the rules: the schema's `x-recsh-key`; else `id`
  /// when every record has one, all non-empty strings or all integers; else none.
  /// `ids` yields each record's `id` value (`nil` when it has none).
  package static func chooseKey(
    schema: RecordSchema, ids: some Sequence<JSONValue?>, recordCount: Int
  ) -> RecordKey? {
    if let key = declaredKey(of: schema) { return key }
    var strings = 0
    var integers = 0
    for id in ids {
      switch id {
      case .string(let text)? where !text.isEmpty: strings += 1
      case .number(let spelling)? where DecimalNumber(spelling)?.isInteger == true: integers += 1
      default: return nil
      }
      if strings > 0 && integers > 0 { return nil }
    }
    if recordCount == 0 {
      // No records to tell: the schema's own `id`, if it declares one of a key's type.
      switch schema.field(named: "id")?.shape.type {
      case .string?: return RecordKey(name: "id", isInteger: false)
      case .integer?: return RecordKey(name: "id", isInteger: true)
      default: return nil
      }
    }
    return RecordKey(name: "id", isInteger: integers > 0)
  }

  /// The ways `record` breaks the kind's schema, at most `limit` of them.
  package func violations(of record: RunTimeRecord, limit: Int) -> [SchemaViolation] {
    recordSchema.schema.violations(of: .object(record.object), limit: limit)
  }
}

/// A kind's schema and key, for the table's check of a file's records: a box, so that the
/// closure holds them without holding the kind (which holds the table).
///
/// `@unchecked Sendable`: immutable; the schema's patterns are only matched.
private final class SchemaRules: @unchecked Sendable {
  let schema: RecordSchema
  let key: RecordKey?

  init(_ schema: RecordSchema, _ key: RecordKey?) {
    self.schema = schema
    self.key = key
  }
}
