import RecordKit

extension Session {
  /// The field a filter, `sort` or `fields` names: a declared one (the id too), or a
  /// custom key some record holds; anything else is an error naming it, with the
  /// closest name of either kind. O(records) for a custom key.
  func queryField(_ name: String) throws(SessionError) -> any FieldAccessor<Root> {
    if let field = Root.fields.field(named: name) { return field }
    if Root.fields.key?.name == name || name == "id", let id = Root.fields.field(named: "id") { return id }
    if editor.document.records.contains(where: { $0.custom.contains(name) }) {
      return FieldTable<Root>.custom(name)
    }
    throw .unknownQueryField(name, suggestion: Suggestion.closest(to: name, among: editor.fieldNames))
  }

  /// The filters as tests, each field and value checked first: nothing is looked at
  /// when one does not fit.
  func matchers(_ filters: [ListFilter]) throws(SessionError) -> [RecordMatcher<Root>] {
    var matchers: [RecordMatcher<Root>] = []
    for filter in filters {
      let field = try queryField(filter.field)
      do {
        matchers.append(try field.matcher(filter.op, filter.operand))
      } catch {
        throw .filter(filter, error)
      }
    }
    return matchers
  }

  /// `list`: the records that pass, sorted, limited, printed in the session's format.
  func list(_ query: RecordQuery) throws(SessionError) -> Reply {
    let document = editor.document
    var positions = document.positions(matching: try matchers(query.filters))
    let matched = positions.count
    var keys: [(order: RecordOrder<Root>, descending: Bool)] = []
    for key in query.sort { keys.append((try queryField(key.field).recordOrder, key.descending)) }
    positions = document.sorted(positions, by: keys)
    if let limit = query.limit, limit < positions.count { positions.removeLast(positions.count - limit) }
    let columns = try query.fields.map { (names) throws(SessionError) -> [any FieldAccessor<Root>] in
      var fields: [any FieldAccessor<Root>] = []
      for name in names { fields.append(try queryField(name)) }
      return fields
    }
    if columns == nil, format == .json || format == .jsonl {
      // Records as the file holds them, straight to bytes: the common way to hand a big
      // file's records to another program.
      return .outputBytes(
        RecordFile<Root>.encode(
          document.records, at: positions, lines: format == .jsonl,
          reservingCapacity: positions.count * persistence.bytesPerRecord + 64))
    }
    return .output(
      RecordOutput.list(document, positions: positions, matched: matched, columns: columns, format: format))
  }

  /// `count`: the number of records that pass.
  func count(_ filters: [ListFilter]) throws(SessionError) -> String {
    let count = editor.document.count(matching: try matchers(filters))
    return RecordOutput.count(count, format: format)
  }

  /// `set/unset/add/remove … where …`: one step over every record that passes.
  mutating func bulkEdit(_ assignments: [BulkAssignment], filters: [ListFilter]) throws(SessionError)
    -> [Reply]
  {
    let matchers = try matchers(filters)
    var changes: [(field: any FieldAccessor<Root>, change: BulkChange)] = []
    for assignment in assignments {
      do {
        changes.append(
          (
            try editor.bulkField(assignment.field, createsCustom: assignment.createsCustomField),
            assignment.change
          ))
      } catch {
        throw .edit(error)
      }
    }
    let positions = editor.document.positions(matching: matchers)
    var recorded: Command<Root>?
    try edit { (editor) throws(EditError) in
      let outcome = try editor.bulkEdit(changes, at: positions)
      recorded = outcome.command
      return outcome
    }
    // Said in scripts too: a bulk edit that did nothing is worth knowing about.
    guard let recorded else { return [.warning("no record changed (\(Self.matchedText(positions.count)))")] }
    return [.info("\(recorded.name) (\(Self.matchedText(positions.count)))")]
  }

  /// `assert [REF] FILTER...`: nothing when the record passes every filter, else the
  /// first filter it fails, with what its field holds (as `show` prints it).
  mutating func assertRecord(_ ref: String?, _ filters: [ListFilter]) throws(SessionError) -> [Reply] {
    let matchers = try matchers(filters)
    let (id, position) = try target(ref, for: "assert")
    let document = editor.document
    for (filter, matcher) in zip(filters, matchers) {
      let passes = document.records.withUnsafeBufferPointer { records in
        records.baseAddress.map { matcher.matches($0 + position) } ?? false
      }
      guard !passes else { continue }
      let found = (try? queryField(filter.field))?.display(in: document.records[position])
      throw .assertionFailed(record: reference(toRecordWithID: id), filter: filter, found: found)
    }
    return []
  }

  /// `delete where …`: every record that passes, as one step.
  mutating func deleteWhere(_ filters: [ListFilter]) throws(SessionError) -> [Reply] {
    let positions = editor.document.positions(matching: try matchers(filters))
    guard !positions.isEmpty else { return [.warning("no record deleted (none matched)")] }
    try edit { (editor) throws(EditError) in try editor.deleteRecords(at: positions) }
    if let selectedID, !editor.document.contains(id: selectedID) { self.selectedID = nil }
    return [.info("Deleted \(positions.count) record\(positions.count == 1 ? "" : "s")")]
  }

  private static func matchedText(_ count: Int) -> String {
    count == 0 ? "none matched" : "\(count) matched"
  }
}
