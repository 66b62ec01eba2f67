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
  /// What the shell's parser checks on every line, computed once.
  public let readOnlyNames: Set<String>
  public let listNames: Set<String>

  public init(_ fields: [any FieldAccessor<Root>], nestedObjects: [NestedObject<Root>] = []) {
    self.fields = [IDField<Root>()] + fields
    self.nestedObjects = nestedObjects
    var positions: [String: Int] = [:]
    for (index, field) in self.fields.enumerated() {
      positions[field.name] = index
    }
    self.positions = positions
    names = self.fields.map { $0.name }
    keyTable = JSONNameTable(names)
    hasNestedObjects = !nestedObjects.isEmpty
    readOnlyNames = Set(self.fields.filter { $0.isReadOnly }.map { $0.name })
    listNames = Set(self.fields.filter(\.isList).map { $0.name })
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
  public func resolve(_ name: String, in record: Root?) throws(FieldError) -> any FieldAccessor<Root> {
    if let field = field(named: name) { return field }
    if let record, record.custom[name] != nil { return Self.custom(name) }
    let candidates = fields.map(\.name) + (record?.custom.keys ?? [])
    throw .unknownField(name, suggestion: Suggestion.closest(to: name, among: candidates))
  }

  /// A new custom field `name` for `record`: the explicit form (`set +name …`).
  /// A declared name or an existing key is refused, so `+` never shadows anything.
  public func newCustomField(_ name: String, in record: Root) throws(FieldError) -> any FieldAccessor<Root> {
    guard Self.isValidCustomName(name), !nestedObjects.contains(where: { $0.name == name }) else {
      throw .invalidCustomName(name)
    }
    guard field(named: name) == nil, record.custom[name] == nil else { throw .customFieldExists(name) }
    return Self.custom(name)
  }

  /// The accessor for custom key `name`, through the subscript key path `\Root.custom[positioned: name]`.
  public static func custom(_ name: String) -> KeyPathField<Root, CustomFieldCodec> {
    KeyPathField(
      name: name, keyPath: \Root.custom[positioned: name], codec: CustomFieldCodec(), isCustom: true,
      listEdit: nil)
  }

  static func isValidCustomName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first != "-", first != "." else { return false }
    return name.unicodeScalars.allSatisfy { scalar in
      scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_-.".unicodeScalars.contains(scalar)
    }
  }
}

/// A JSON object inside each record whose members are declared dotted fields
/// (`address` for `address.city`); `extras` keeps the members the kind does not declare.
public struct NestedObject<Root: Record>: Sendable {
  public let name: String
  public let extras: WritableKeyPath<Root, CustomFields> & Sendable

  public init(_ name: String, extras: WritableKeyPath<Root, CustomFields> & Sendable) {
    self.name = name
    self.extras = extras
  }
}
