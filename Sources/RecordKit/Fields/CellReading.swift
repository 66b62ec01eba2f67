/// How a field reads the text of a CSV or TSV cell: the JSON value the cell gives it.
/// Every cell is text in the file; the field's codec says what the text stands for, so a
/// zip code column a kind declares as a string stays `02134`, and a schema's integer
/// column reads `7` as 7 whatever the other cells hold.
public enum CellReading: Equatable, Sendable {
  /// The text is a string (strings, dates, lists, whose cells cannot hold one).
  case text
  /// An integer when spelled as JSON writes one, else the text (which the field refuses).
  case integer
  /// A number when spelled as JSON writes one, else the text.
  case number
  /// `true` and `false` are booleans, anything else is the text.
  case bool
  /// The column decides (`CSVColumnType`): a field that takes any JSON value (a custom
  /// field, a kind being inferred) reads its column's cells as their spellings say.
  case inferred

  /// How a field of `type` reads a cell.
  public init(_ type: FieldType) {
    switch type {
    case .string, .date, .stringList: self = .text
    case .bool: self = .bool
    case .int: self = .integer
    case .nullable(let base): self = CellReading(base)
    case .json, .described: self = .inferred
    }
  }

  /// The value a cell with `text` gives the field; `column`: the column's type, for
  /// `inferred`.
  func value(ofText text: String, column: CSVColumnType) -> JSONValue {
    switch self {
    case .text: return .string(text)
    case .integer: return CSVColumnType.integer.value(ofText: text) ?? .string(text)
    case .number: return CSVColumnType.number.value(ofText: text) ?? .string(text)
    case .bool: return CSVColumnType.bool.value(ofText: text) ?? .string(text)
    case .inferred: return column.value(ofText: text) ?? .string(text)
    }
  }
}
