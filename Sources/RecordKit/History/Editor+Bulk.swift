extension Editor {
  /// The field a bulk edit names: a declared one; with `createsCustom` (`+FIELD`), a new
  /// custom key; else a custom key some record has. O(records) for a custom key, which
  /// is looked for in every record; declared fields are found at once.
  public func bulkField(_ name: String, createsCustom: Bool) throws(EditError) -> any FieldAccessor<Root> {
    let table = Root.fields
    if createsCustom {
      do {
        return try table.newCustomField(name, in: Root(id: ""))
      } catch {
        throw .field(error)
      }
    }
    if let field = table.field(named: name) { return field }
    if document.records.contains(where: { $0.custom.contains(name) }) { return FieldTable<Root>.custom(name) }
    throw .field(.unknownField(name, suggestion: Suggestion.closest(to: name, among: fieldNames)))
  }

  /// Every name a bulk edit or a filter could mean: the declared fields, then the custom
  /// keys the records hold (for "did you mean"; O(records)).
  public var fieldNames: [String] {
    var names = Root.fields.names
    var seen = Set(names)
    for record in document.records where !record.custom.isEmpty {
      for key in Root.fields.customKeys(of: record) where seen.insert(key).inserted { names.append(key) }
    }
    return names
  }

  /// Makes each change to every record at `positions` (ascending) that it changes, as ONE
  /// step named for what it did ("Set priority on 1204 records"); a record that already
  /// holds the value is left alone and not counted. Nothing changed: nothing recorded
  /// (`.unchanged`). All or nothing: when a change is refused, the ones before it are
  /// reverted before the error is thrown. Inside a group it joins the group.
  /// Costs O(positions) per field, plus O(records) to count the records changed when
  /// several fields change.
  @discardableResult
  public mutating func bulkEdit(
    _ changes: [(field: any FieldAccessor<Root>, change: BulkChange)], at positions: [Int]
  ) throws(EditError) -> EditOutcome<Root> {
    var seen: [String] = []
    for (field, _) in changes {
      guard !seen.contains(field.name) else { throw .field(.givenTwice(field.name)) }
      seen.append(field.name)
    }
    var made: [any BulkFieldEdit<Root>] = []
    for (field, change) in changes {
      do {
        if let edit = try field.applyBulk(change, at: positions, in: &document) { made.append(edit) }
      } catch {
        for edit in made.reversed() { edit.revert(in: &document) }
        throw .field(error)
      }
    }
    guard !made.isEmpty else { return .unchanged }
    return record(.bulk(made, records: Self.distinctRecords(made)))
  }

  /// How many records the edits changed together, each once.
  private static func distinctRecords(_ edits: [any BulkFieldEdit<Root>]) -> Int {
    guard edits.count > 1 else { return edits.first?.records.count ?? 0 }
    var seen = Set<RecordNumber>()
    for edit in edits { seen.formUnion(edit.records) }
    return seen.count
  }

  /// Deletes the records at `positions` (ascending, each in range) as ONE step ("Delete 12
  /// records"), keeping them whole, with their numbers and places, for undo.
  @discardableResult
  public mutating func deleteRecords(at positions: [Int]) throws(EditError) -> EditOutcome<Root> {
    guard !positions.isEmpty else { return .unchanged }
    for (position, next) in zip(positions, positions.dropFirst()) where position >= next {
      throw .noSuchPosition(next)
    }
    guard let last = positions.last, last < document.count, positions[0] >= 0 else {
      throw .noSuchPosition(positions.last ?? 0)
    }
    let (records, numbers) = document.removeAll(at: positions)
    return record(.deleteAll(BulkDeletion(records: records, numbers: numbers, positions: positions)))
  }
}
