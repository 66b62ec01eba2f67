/// A record of a kind known only when recsh runs: one inferred from a file's records, or
/// read from a JSON Schema.
///
/// Its members are kept as the file has them, all of them, in their order, in `custom`:
/// a declared field of a run-time kind is reached through the subscript key path
/// `\RunTimeRecord.custom[positioned: name]` (a composed one, `publisher.city`, through
/// `custom[member: path]`), as a custom key of a shipped kind is through
/// `\Root.custom[positioned: name]`, so that the one generic `PropertyUpdate` edits it and
/// `FieldSlot` applies its key path like any other that is not a stored property. What
/// makes a field declared is only the kind's table: its type, rules and completions.
///
/// Keeping the members whole also keeps each record's key order: a file whose records
/// order their keys differently is saved back byte-identical. They are kept as
/// `CustomFields` keeps them, as one canonical text per record (read from the file without
/// building a tree, decoded when a value is read).
///
/// The kind's table is the one bound to `RunTimeKind.current` (see there).
public struct RunTimeRecord: Record {
  /// The record's identity: its key's text (a string key as it is, an integer key as
  /// spelled), or, in a kind without a key, `#N`: a number given when the record was read
  /// or made, never written to the file. Stable for the record's life, since a key field
  /// is read-only.
  public let id: String
  /// Every member of the record, declared or not, in order.
  public var custom: CustomFields

  public static var kind: String { RunTimeKind.current.name }
  public static var fields: FieldTable<RunTimeRecord> { RunTimeKind.current.table }
  public static var summaryFields: [String] { RunTimeKind.current.summaryFields }

  /// A record with identity `id` and no members: what `new` starts from (the editor
  /// then gives a kind's key member its value, see `Editor.newRecord`).
  public init(id: String) {
    self.id = id
    custom = CustomFields()
  }

  /// A record read from a file, journal or test: its identity and members as given.
  public init(id: String, members: [JSONObject.Member]) {
    self.id = id
    custom = CustomFields(members)
  }

  /// The record as one JSON object, what a schema checks.
  var object: JSONObject { custom.object }
}

extension CustomFields {
  /// The value at `path` with its place among its object's members: a top-level member
  /// for a path of one name, a member of a nested object (`publisher.city`) for more.
  ///
  /// Setting works as `subscript(positioned:)` does at the last level; a missing or
  /// non-object parent is made an object (put at the end) when a value is set, and a
  /// parent left empty by a removal is removed, as recsh writes no empty nested object.
  subscript(member path: [String]) -> CustomValue? {
    get {
      guard let first = path.first else { return nil }
      guard path.count > 1 else { return self[positioned: first] }
      guard case .object(let object)? = self[first] else { return nil }
      return CustomFields(object.members)[member: Array(path.dropFirst())]
    }
    set {
      guard let first = path.first else { return }
      guard path.count > 1 else {
        self[positioned: first] = newValue
        return
      }
      var inner = CustomFields()
      if case .object(let object)? = self[first] { inner = CustomFields(object.members) }
      inner[member: Array(path.dropFirst())] = newValue
      if inner.isEmpty {
        self[first] = nil
      } else {
        self[first] = .object(JSONObject(inner.members))
      }
    }
  }
}
