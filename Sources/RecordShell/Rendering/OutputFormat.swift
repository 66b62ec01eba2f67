/// How results print: `--format FORMAT` and the `format` command.
///
/// `table` is for people. `json` and `jsonl` give records exactly as the file holds them
/// (key order and number spellings kept) — `json` one array laid out as recsh saves
/// files, `jsonl` one compact record per line — and every other result as objects with
/// the columns the table shows. `csv` (RFC 4180: a header line, fields quoted when they
/// hold a comma, a quote or a line break, lines ending CRLF) and `tsv` (a header line;
/// tab, newline, carriage return and backslash escaped as `\t`, `\n`, `\r`, `\\`) are
/// for spreadsheets; a list or an object there is one cell holding its compact JSON
/// text, and a null or absent value an empty cell.
public enum OutputFormat: String, CaseIterable, Sendable {
  case table, json, jsonl, csv, tsv

  /// The formats as a usage line lists them: `table|json|jsonl|csv|tsv`.
  public static var names: String { allCases.map(\.rawValue).joined(separator: "|") }
}
