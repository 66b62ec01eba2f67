import Testing

@testable import RecordKit

/// `EditRecordHead`: the start of a one-field edit's log record, written with one append,
/// is the start of what the JSON tree encoder writes for the same edit, for every action,
/// record numbers of every length, declared and custom fields, names that need escapes and
/// a name too long for any fixed buffer; and it appends after what is already there.
@Suite struct EditRecordHeadTests {
  static let names = [
    "title", "a", "naïve key", "quote \" and \\ back", "tab\there", String(repeating: "k", count: 5_000),
  ]
  static let numbers: [UInt32] = [0, 1, 9, 10, 99, 100, 12_345, 999_999_999, 1_000_000_000, UInt32.max]

  @Test(arguments: [false, true]) func writesWhatTheTreeEncoderWrites(isCustom: Bool) {
    for name in Self.names {
      let head = EditRecordHead(field: name, isCustom: isCustom)
      for action in EditAction.allCases {
        for number in Self.numbers {
          var out: [UInt8] = []
          head.append(action, record: RecordNumber(number), to: &out)
          out += "], []]".utf8
          let field: JSONValue = isCustom ? .array([.string(name)]) : .string(name)
          let tree = JSONValue.array([
            .string(action.rawValue), .number(String(number)), field, .array([]), .array([]),
          ])
          #expect(out == tree.compactUTF8, "\(action) \(number) \(name.prefix(20))")
        }
      }
    }
  }

  @Test func appendsAfterWhatIsThere() {
    let head = EditRecordHead(field: "priority", isCustom: false)
    var out = Array("{\"do\": ".utf8)
    head.append(.set, record: RecordNumber(42), to: &out)
    head.append(.remove, record: RecordNumber(7), to: &out)
    #expect(
      String(decoding: out, as: UTF8.self) == #"{"do": ["set", 42, "priority", [["remove", 7, "priority", ["#)
  }
}
