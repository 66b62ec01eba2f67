/// An edit of one field of one record: what the `.edit` command case holds.
///
/// Class-bound so that a command is two words (reference + witness table)
/// whatever the field's type, which keeps a history step small.
public protocol FieldEdit<Root>: AnyObject, Sendable {
  associatedtype Root: Record

  /// The record's number in its document (see `Document`).
  var record: RecordNumber { get }
  var field: any FieldAccessor<Root> { get }
  var action: EditAction { get }
  /// The value before the edit, as an encoded command holds it; `nil` when the field was absent.
  var oldJSON: JSONValue? { get }
  /// The value after the edit, as an encoded command holds it; `nil` when the edit removes the field.
  var newJSON: JSONValue? { get }
  /// Appends this edit as `Command.encoded()` spells it in compact JSON, without
  /// building a `JSONValue` tree first (the journal encodes every edit).
  func appendEncoded(to out: inout [UInt8])
  /// Appends this edit as the history log keeps a step (`EditStep`).
  func appendStep(to out: inout [UInt8])

  func apply(to document: inout Document<Root>)
  func revert(in document: inout Document<Root>)
  /// Whether the record is there with the old value: a decoded edit (from the
  /// journal) is applied only to the state it was made for.
  func isApplicable(to document: Document<Root>) -> Bool
  /// Whether the record is there with the new value: the edit's effect is in the
  /// document, so that reverting it restores the state it was made from.
  func isRevertible(in document: Document<Root>) -> Bool
}

/// The one generic property-update command: writes a value through a typed
/// key path. Every change of every field, declared, nested or custom, is one of these.
///
/// The old value is captured when the edit is made (validated against the
/// record as it is), not read while applying it: applying is one key-path
/// write, and undo is the same write with the old value.
final class PropertyUpdate<Root: Record, Codec: FieldCodec>: FieldEdit {
  let record: RecordNumber
  let typedField: KeyPathField<Root, Codec>
  let old: Codec.Value?
  let new: Codec.Value?
  let action: EditAction

  init(
    record: RecordNumber, field: KeyPathField<Root, Codec>, old: Codec.Value?, new: Codec.Value?,
    action: EditAction
  ) {
    self.record = record
    self.typedField = field
    self.old = old
    self.new = new
    self.action = action
  }

  var field: any FieldAccessor<Root> { typedField }
  var oldJSON: JSONValue? { old.map(typedField.codec.encodeForCommand) }
  var newJSON: JSONValue? { new.map(typedField.codec.encodeForCommand) }

  func appendEncoded(to out: inout [UInt8]) {
    typedField.encodeUpdate(self, &out)
  }

  func appendStep(to out: inout [UInt8]) {
    typedField.logUpdate(self, &out)
  }

  func apply(to document: inout Document<Root>) {
    typedField.writeUpdate(self, &document, true)
  }

  func revert(in document: inout Document<Root>) {
    typedField.writeUpdate(self, &document, false)
  }

  func isApplicable(to document: Document<Root>) -> Bool {
    guard let record = document.record(numbered: record) else { return false }
    return record[keyPath: typedField.keyPath] == old
  }

  func isRevertible(in document: Document<Root>) -> Bool {
    guard let record = document.record(numbered: record) else { return false }
    return record[keyPath: typedField.keyPath] == new
  }
}

extension PropertyUpdate: StepColumnSource {
  func makeStepColumn() -> StepColumn<Root> { FieldStepColumn(field: typedField) }
}
