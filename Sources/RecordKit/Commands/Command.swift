/// An undoable change to a document: the Command pattern's command.
///
/// (`ShellCommand` is what the user typed; a `Command` is what it did.)
/// Every command carries what it needs to be applied and reverted without
/// looking anything up: a delete keeps the whole record, its number and its position,
/// so undo puts it back exactly. Records are named by their numbers (`Document`).
public enum Command<Root: Record>: Sendable {
  /// One field of one record.
  case edit(any FieldEdit<Root>)
  /// Several fields of one record at once (`set title x priority 2`): one step.
  case edits([any FieldEdit<Root>])
  indirect case insert(Root, number: RecordNumber, at: Int)
  indirect case delete(Root, number: RecordNumber, at: Int)
  /// A closed `begin`/`end` group; applied in order, reverted in reverse order.
  indirect case group(name: String?, CommandList<Root>)
  /// A step read back from the history log, decoded when first needed (`StoredCommand`).
  case stored(StoredCommand<Root>)
  /// A bulk edit (`set … where …`): one edit per field, each of many records; `records`
  /// is how many records it changed (a record changed in two fields counts once).
  case bulk([any BulkFieldEdit<Root>], records: Int)
  /// `delete where …`: many records at once.
  case deleteAll(BulkDeletion<Root>)

  public func apply(to document: inout Document<Root>) {
    switch self {
    case .edit(let edit): edit.apply(to: &document)
    case .edits(let edits): for edit in edits { edit.apply(to: &document) }
    case .insert(let record, let number, let position):
      document.insert(record, numbered: number, at: position)
    case .delete(_, _, let position): document.remove(at: position)
    case .group(_, let commands): commands.apply(to: &document)
    case .stored(let stored): stored.command?.apply(to: &document)
    case .bulk(let edits, _): for edit in edits { edit.apply(to: &document) }
    case .deleteAll(let deletion): _ = document.removeAll(at: deletion.positions)
    }
  }

  public func revert(in document: inout Document<Root>) {
    switch self {
    case .edit(let edit): edit.revert(in: &document)
    case .edits(let edits): for edit in edits.reversed() { edit.revert(in: &document) }
    case .insert(_, _, let position): document.remove(at: position)
    case .delete(let record, let number, let position):
      document.insert(record, numbered: number, at: position)
    case .group(_, let commands): commands.revert(in: &document)
    case .stored(let stored): stored.command?.revert(in: &document)
    case .bulk(let edits, _): for edit in edits.reversed() { edit.revert(in: &document) }
    case .deleteAll(let deletion):
      document.insertAll(deletion.records, numbered: deletion.numbers, at: deletion.positions)
    }
  }

  /// Whether the command can be applied to `document` as it is: the records
  /// it edits hold the old values, a delete finds its record (and number) at its
  /// position, an insert's position exists and its id and number are new. Replaying a journal checks this
  /// before applying anything.
  public func isApplicable(to document: Document<Root>) -> Bool {
    switch self {
    case .edit(let edit): return edit.isApplicable(to: document)
    case .edits(let edits): return edits.allSatisfy { $0.isApplicable(to: document) }
    case .insert(let record, let number, let position):
      return position <= document.count && !document.contains(id: record.id)
        && document.position(of: number) == nil
    case .delete(let record, let number, let position):
      return position < document.count && document.records[position] == record
        && document.number(at: position) == number
    case .group(_, let commands): return commands.isApplicable(to: document)
    case .stored(let stored): return stored.command?.isApplicable(to: document) ?? false
    case .bulk(let edits, _): return edits.allSatisfy { $0.isApplicable(to: document) }
    case .deleteAll(let deletion):
      return deletion.positions.indices.allSatisfy { index in
        let position = deletion.positions[index]
        return position < document.count && document.number(at: position) == deletion.numbers[index]
          && document.records[position] == deletion.records[index]
      }
    }
  }

  /// Whether the command's effect is in `document` as it is, so that `revert` fits:
  /// the records it edits hold the new values, an insert's record is at its
  /// position, a delete's id is free and its position exists to put it back. Replaying
  /// a journal checks this for the commands a save left in an open group, which the
  /// saved file already holds.
  package func isRevertible(in document: Document<Root>) -> Bool {
    switch self {
    case .edit(let edit): return edit.isRevertible(in: document)
    case .edits(let edits): return edits.allSatisfy { $0.isRevertible(in: document) }
    case .insert(let record, let number, let position):
      return position < document.count && document.records[position] == record
        && document.number(at: position) == number
    case .delete(let record, let number, let position):
      return position <= document.count && !document.contains(id: record.id)
        && document.position(of: number) == nil
    case .group(_, let commands): return commands.isRevertible(in: document)
    case .stored(let stored): return stored.command?.isRevertible(in: document) ?? false
    case .bulk(let edits, _): return edits.allSatisfy { $0.isRevertible(in: document) }
    case .deleteAll(let deletion):
      // (A step read back from a damaged log could name one id or number twice.)
      return document.count + deletion.records.count >= (deletion.positions.last ?? 0) + 1
        && deletion.records.allSatisfy { !document.contains(id: $0.id) }
        && deletion.numbers.allSatisfy { document.position(of: $0) == nil }
        && Set(deletion.records.map(\.id)).count == deletion.records.count
        && Set(deletion.numbers).count == deletion.numbers.count
    }
  }

  /// The name of the undo step: "Set title", "Set title, priority", "New record",
  /// "Delete record", a group's name or "N changes".
  public var name: String {
    switch self {
    case .edit(let edit):
      "\(edit.action.verb) \(edit.field.name)"
    case .edits(let edits):
      "\(edits.first?.action.verb ?? "Set") " + edits.map { $0.field.name }.joined(separator: ", ")
    case .insert: "New record"
    case .delete: "Delete record"
    case .group(let name?, _): name
    case .group(nil, _):
      changeCount == 1 ? "1 change" : "\(changeCount) changes"
    case .stored(let stored): stored.command?.name ?? "(a step that cannot be read)"
    case .bulk(let edits, let records):
      "\(edits.first?.action.verb ?? "Set") " + edits.map { $0.field.name }.joined(separator: ", ")
        + " on \(records) record\(records == 1 ? "" : "s")"
    case .deleteAll(let deletion):
      "Delete \(deletion.records.count) record\(deletion.records.count == 1 ? "" : "s")"
    }
  }

  /// How many single changes the command makes; a group counts its contents.
  public var changeCount: Int {
    switch self {
    case .edit, .insert, .delete: 1
    case .edits(let edits): edits.count
    case .group(_, let commands): commands.reduce(0) { $0 + $1.changeCount }
    case .stored(let stored): stored.command?.changeCount ?? 0
    case .bulk(_, let records): records
    case .deleteAll(let deletion): deletion.records.count
    }
  }
}

/// A command as the history log holds it (a compact step, `EditStep`, or its
/// `Command+Coding` JSON encoding), read back with
/// the log and decoded the first time it is applied, reverted, checked or named: opening
/// a file with a long history reads its steps' framing, not their contents, and most
/// steps of a long history are never needed. Decoded once, then kept (a final class, so
/// every copy of the history shares the result); an encoding that does not decode gives
/// no command, which every check refuses.
public final class StoredCommand<Root: Record>: @unchecked Sendable {
  /// The encoding, as the log holds it.
  let bytes: [UInt8]
  private var decoded: Command<Root>??

  public init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Whether `command` was asked for already (so asking again decodes nothing).
  var isDecoded: Bool { decoded != nil }

  /// The command, decoded on first use; `nil` when the encoding does not decode.
  var command: Command<Root>? {
    if let decoded { return decoded }
    let result = try? Command<Root>(decodingStep: bytes)
    decoded = .some(result)
    return result
  }
}
