/// A kind of record: a Swift type whose editable fields are declared once, in
/// its field table.
///
/// Declared fields are stored as optionals: `nil` is "absent from the file",
/// which is not the same as empty, and stays absent until it is set.
public protocol Record: Equatable, Sendable {
  /// The kind's name, as `--kind` takes it: "task", "contact".
  static var kind: String { get }
  /// The one table that drives parsing, printing, completion and validation.
  static var fields: FieldTable<Self> { get }
  /// The fields `list` shows after the id, the widest-varying last.
  static var summaryFields: [String] { get }

  var id: String { get }
  /// Keys the kind does not declare, kept in file order.
  var custom: CustomFields { get set }

  /// An empty record: every declared field absent.
  init(id: String)
}
