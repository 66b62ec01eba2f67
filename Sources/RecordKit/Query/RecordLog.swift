/// What one step did to one record, for `log` and `blame`.
public struct RecordEdit: Equatable, Sendable {
  /// The field, or `nil` for the whole record (made or deleted).
  public var field: String?
  /// As the file holds it; `nil`: absent (or, for the whole record, not there).
  public var old: JSONValue?
  public var new: JSONValue?
}

extension Command {
  /// What this command does to the record numbered `number`, in the order it does it;
  /// empty when it does not touch it. A step read back from the log is decoded. O(the
  /// command's size), except a bulk edit or delete, whose record numbers are found by
  /// binary search when ascending (as they usually are: see `BulkFieldEdit.records`):
  /// O(fields × log records).
  public func edits(of number: RecordNumber) -> [RecordEdit] {
    switch self {
    case .edit(let edit):
      guard edit.record == number else { return [] }
      return [
        RecordEdit(
          field: edit.field.name, old: edit.field.fileJSON(edit.oldJSON),
          new: edit.field.fileJSON(edit.newJSON))
      ]
    case .edits(let edits):
      return edits.flatMap { Command.edit($0).edits(of: number) }
    case .insert(let record, let inserted, _):
      return inserted == number
        ? [RecordEdit(field: nil, old: nil, new: .object(Root.fields.encode(record)))] : []
    case .delete(let record, let deleted, _):
      return deleted == number
        ? [RecordEdit(field: nil, old: .object(Root.fields.encode(record)), new: nil)] : []
    case .group(_, let commands):
      return commands.flatMap { $0.edits(of: number) }
    case .stored(let stored):
      return stored.command?.edits(of: number) ?? []
    case .bulk(let edits, _):
      return edits.compactMap { edit in
        guard let index = RecordNumber.index(of: number, in: edit.records, ascending: edit.recordsAscending)
        else { return nil }
        let (old, new) = edit.values(at: index)
        return RecordEdit(field: edit.field.name, old: old, new: new)
      }
    case .deleteAll(let deletion):
      guard
        let index = RecordNumber.index(of: number, in: deletion.numbers, ascending: deletion.numbersAscending)
      else { return [] }
      return [RecordEdit(field: nil, old: .object(Root.fields.encode(deletion.records[index])), new: nil)]
    }
  }
}

extension FieldAccessor {
  /// A value as an encoded command holds it, as the file holds it: a custom field's
  /// command form `{"value": …, "at": N}` unwrapped.
  func fileJSON(_ json: JSONValue?) -> JSONValue? {
    guard isCustom || Root.fields.keepsAllMembers, case .object(let object)? = json,
      let value = object["value"]
    else { return json }
    return value
  }
}
