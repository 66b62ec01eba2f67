/// How a file lays its records out: one JSON array of objects (`.json` and every other
/// name), JSON Lines (`.jsonl`, `.ndjson`: one compact object per line), or a table of
/// cells under a header row, CSV (`.csv`: cells between `,` or `;`, RFC 4180 quotes) or
/// TSV (`.tsv`: cells between tabs, backslash escapes).
///
/// The name decides (or `--layout`), never the content: a file is read strictly as its
/// layout says, so a `.jsonl` file holding one pretty-printed array is refused, not
/// guessed at.
public enum RecordLayout: String, Sendable, Equatable, CaseIterable {
  case array
  case lines
  case csv
  case tsv

  /// The layout a file of this name holds: `lines` for a name ending in `.jsonl` or
  /// `.ndjson`, `csv` for `.csv`, `tsv` for `.tsv` (in any case: `TASKS.JSONL`), `array`
  /// for every other.
  ///
  /// Costs a scan of the name's last few bytes: every command that may put a value in a
  /// cell asks it.
  public init(path: String) {
    var path = path
    self = path.withUTF8 { bytes in
      // The ending's bytes, lowercased, packed into one word: at most 6 ("ndjson").
      var ending: UInt64 = 0
      var length = 0
      var index = bytes.count
      while index > 0 {
        index -= 1
        let byte = bytes[index]
        if byte == UInt8(ascii: "/") || length > 6 { return .array }
        if byte == UInt8(ascii: ".") {
          // A name that is only its ending (`.csv`, `dir/.jsonl`) says no layout.
          guard index > 0, bytes[index - 1] != UInt8(ascii: "/") else { return .array }
          return Self.layout(ending: ending)
        }
        ending = ending << 8 | UInt64(byte | 0x20)  // lowercase for the ASCII letters compared
        length += 1
      }
      return .array
    }
  }

  /// The layout a lowercased name ending packs to (its bytes, first byte lowest).
  private static func layout(ending: UInt64) -> RecordLayout {
    switch ending {
    case packedEndings.jsonl, packedEndings.ndjson: return .lines
    case packedEndings.csv: return .csv
    case packedEndings.tsv: return .tsv
    default: return .array
    }
  }

  /// The endings that say a layout, packed as `init(path:)` packs a name's ending.
  private static let packedEndings = (
    jsonl: packed("jsonl"), ndjson: packed("ndjson"), csv: packed("csv"), tsv: packed("tsv")
  )

  private static func packed(_ text: StaticString) -> UInt64 {
    var word: UInt64 = 0
    for index in 0..<text.utf8CodeUnitCount { word |= UInt64(text.utf8Start[index]) << (8 * index) }
    return word
  }

  /// The name endings that say a layout, longest first where one ends another
  /// (`.jsonl` before `.json`): what a schema's name beside the file drops
  /// (`books.csv` → `books.schema.json`).
  package static let nameEndings = [".jsonl", ".ndjson", ".json", ".csv", ".tsv"]

  /// The layout `--layout` names: `json`, `jsonl`, `csv` or `tsv`.
  public init?(name: String) {
    guard let layout = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = layout
  }

  /// The name `--layout` gives it.
  public var name: String {
    switch self {
    case .array: "json"
    case .lines: "jsonl"
    case .csv: "csv"
    case .tsv: "tsv"
    }
  }

  /// Whether records are rows of cells under a header (CSV, TSV), not JSON objects.
  public var isDelimited: Bool { self == .csv || self == .tsv }

  /// The layout of bytes known to hold records in one of the layouts (they loaded, or
  /// recsh wrote them), told by their first byte that is not whitespace or a byte-order
  /// mark: `[` opens an array, `{` a line's record; anything else starts a header row, of
  /// a TSV when its first line holds a tab, else of a CSV. No bytes read as no records
  /// either way. For the history's copy of the records it starts from, which is the data
  /// file's bytes as read or records recsh encoded; a file a user names is read as its
  /// name says.
  package init(sniffing bytes: some Collection<UInt8>) {
    let first = bytes.first { byte in
      byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09 && byte != 0xEF && byte != 0xBB
        && byte != 0xBF
    }
    switch first {
    case nil, UInt8(ascii: "["): self = .array
    case UInt8(ascii: "{"): self = .lines
    default:
      let firstLine = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
      self = firstLine.contains(0x09) ? .tsv : .csv
    }
  }
}

extension JSONReader {
  /// Reads the records of a JSON file of `layout`: `readArray` or `readLines`, calling
  /// `body` once per record with the reader on it. A CSV or TSV file is not JSON: its
  /// records are read by `DelimitedFile`, and here it reads as an array would.
  mutating func readRecords(_ layout: RecordLayout, _ body: (inout JSONReader) throws -> Void) throws {
    switch layout {
    case .array, .csv, .tsv: try readArray(body)
    case .lines: try readLines(body)
    }
  }
}
