import Testing

@testable import RecordKit

/// Parsing and validating typed values for every field type, through the task
/// and contact field tables.
@Suite struct FieldValueTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var field: String
    var token: ValueToken
    var json: JSONValue?
    var testDescription: String { "\(field) \(token)" }
  }

  static let accepted: [Case] = [
    Case(field: "title", token: .word("Buy"), json: .string("Buy")),
    Case(field: "title", token: .quoted("two words"), json: .string("two words")),
    Case(field: "title", token: .quoted("null"), json: .string("null")),
    Case(field: "title", token: .word("true"), json: .string("true")),
    Case(field: "title", token: .quoted("caf\u{E9} \u{1F600}"), json: .string("caf\u{E9} \u{1F600}")),
    Case(field: "title", token: .quoted(""), json: .string("")),
    Case(field: "detail", token: .quoted("line\nbreak"), json: .string("line\nbreak")),
    Case(field: "done", token: .word("true"), json: .bool(true)),
    Case(field: "done", token: .word("false"), json: .bool(false)),
    Case(field: "priority", token: .word("0"), json: .number("0")),
    Case(field: "priority", token: .word("5"), json: .number("5")),
    Case(field: "tags", token: .list([]), json: .array([])),
    Case(
      field: "tags", token: .list([.word("a"), .quoted("b c")]), json: .array([.string("a"), .string("b c")])),
    Case(field: "due", token: .word("2026-12-01"), json: .string("2026-12-01")),
    Case(field: "due", token: .word("2024-02-29"), json: .string("2024-02-29")),
    Case(field: "due", token: .word("2026-12-01T09:30"), json: .string("2026-12-01T09:30")),
    Case(
      field: "due", token: .word("2026-12-01T09:30:15.250+01:00"),
      json: .string("2026-12-01T09:30:15.250+01:00")),
    Case(field: "due", token: .quoted("2026-12-01T23:59:59Z"), json: .string("2026-12-01T23:59:59Z")),
    Case(field: "due", token: .word("null"), json: .null),
  ]

  @Test(arguments: accepted)
  func validValueIsAcceptedAndEncoded(_ item: Case) throws {
    let field = try #require(TaskRecord.fields.field(named: item.field))
    var document = try Document(records: [TaskRecord(id: "abc12345")])
    let edit = try #require(
      try field.makeSet(item.token, for: document.records[0], numbered: document.number(at: 0)))
    edit.apply(to: &document)
    #expect(field.json(in: document.records[0]) == item.json)
  }

  struct Rejection: CustomTestStringConvertible, Sendable {
    var field: String
    var token: ValueToken
    var message: String
    var testDescription: String { "\(field) \(token)" }
  }

  static let rejected: [Rejection] = [
    Rejection(field: "title", token: .word("null"), message: "field 'title': expected a string, found null"),
    Rejection(field: "title", token: .list([]), message: "field 'title': expected a string, found []"),
    Rejection(field: "done", token: .word("yes"), message: "field 'done': expected true or false, found yes"),
    Rejection(field: "done", token: .word("1"), message: "field 'done': expected true or false, found 1"),
    Rejection(
      field: "priority", token: .word("6"), message: "field 'priority': expected an integer 0–5, found 6"),
    Rejection(
      field: "priority", token: .word("-1"), message: "field 'priority': expected an integer 0–5, found -1"),
    Rejection(
      field: "priority", token: .word("high"),
      message: "field 'priority': expected an integer 0–5, found high"),
    Rejection(
      field: "priority", token: .word("2.0"), message: "field 'priority': expected an integer 0–5, found 2.0"),
    Rejection(
      field: "priority", token: .quoted("3"),
      message: "field 'priority': expected an integer 0–5, found \"3\""),
    Rejection(
      field: "tags", token: .word("a"),
      message: "field 'tags': expected a list of strings like [a, \"b c\"], found a"),
    Rejection(
      field: "tags", token: .list([.list([])]),
      message: "field 'tags': expected a list of strings like [a, \"b c\"], found [[]]"),
    Rejection(
      field: "due", token: .word("tomorrow"),
      message:
        "field 'due': expected an ISO 8601 date (2026-12-01) or date-time (2026-12-01T09:30:00Z) or null, found tomorrow"
    ),
    Rejection(
      field: "due", token: .word("2026-02-29"),
      message:
        "field 'due': expected an ISO 8601 date (2026-12-01) or date-time (2026-12-01T09:30:00Z) or null, found 2026-02-29"
    ),
    Rejection(
      field: "due", token: .word("2026-12-01T24:00"),
      message:
        "field 'due': expected an ISO 8601 date (2026-12-01) or date-time (2026-12-01T09:30:00Z) or null, found 2026-12-01T24:00"
    ),
    Rejection(field: "id", token: .word("x"), message: "field 'id' is read-only"),
  ]

  @Test(arguments: rejected)
  func invalidValueIsRejectedNamingFieldTypeAndValue(_ item: Rejection) throws {
    let field = try #require(TaskRecord.fields.field(named: item.field))
    #expect(throws: (any Error).self) {
      try field.makeSet(item.token, for: TaskRecord(id: "abc12345"), numbered: RecordNumber(0))
    }
    do {
      _ = try field.makeSet(item.token, for: TaskRecord(id: "abc12345"), numbered: RecordNumber(0))
    } catch {
      #expect(error.description == item.message)
    }
  }

  @Test(arguments: [
    "2026-12-01", "2000-02-29", "2026-12-01T00:00", "2026-12-01T23:59:60Z", "2026-12-01T10:00:00.1-05:30",
    "0000-01-01", "9999-12-31T23:59:59+23:59", "2026-12-01T10:00-00:00", "2026-12-01T10:00Z",
    "2026-12-01T10:00:00.000000000000000000001Z", "2026-12-01T10:00:00.5",
  ])
  func isoDateAcceptsAndKeepsSpelling(_ text: String) throws {
    let date = try #require(ISODate(text))
    #expect(date.spelling == text)
    #expect(date.withUTF8 { Array($0) } == Array(text.utf8))
    #expect(date.hasTime == (text.utf8.count > 10))
  }

  /// Random spellings of every shape (packed, or kept whole for a fraction): each comes
  /// back byte for byte, and two dates are equal, and hash alike, exactly when their
  /// spellings are.
  @Test func isoDatesKeepRandomSpellingsAndCompareEqualByThem() throws {
    var g = SplitMix64(seed: 30)
    func two(_ limit: Int) -> String {
      let value = g.int(limit)
      return value < 10 ? "0\(value)" : "\(value)"
    }
    func spelling() -> String {
      var text = "\(1999 + g.int(3))-\(["01", "12"][g.int(2)])-\(["01", "15", "28"][g.int(3)])"
      guard g.int(4) > 0 else { return text }
      text += "T\(two(24)):\(two(60))"
      if g.int(2) == 0 {
        text += ":\(two(61))"
        if g.int(4) == 0 { text += "." + String(repeating: "\(g.int(10))", count: 1 + g.int(3)) }
      }
      switch g.int(3) {
      case 0: text += "Z"
      case 1: text += (g.int(2) == 0 ? "+" : "-") + "\(two(24)):\(two(60))"
      default: break
      }
      return text
    }
    let spellings = (0..<400).map { _ in spelling() }
    let dates = try spellings.map { try #require(ISODate($0)) }
    for (text, date) in zip(spellings, dates) { #expect(date.spelling == text) }
    for _ in 0..<2000 {
      let (i, j) = (g.int(spellings.count), g.int(spellings.count))
      #expect((dates[i] == dates[j]) == (spellings[i] == spellings[j]))
      if dates[i] == dates[j] { #expect(dates[i].hashValue == dates[j].hashValue) }
    }
  }

  /// A task is 96 bytes: the fields under 16 bytes (the date, the priority, `done`) share
  /// its last 16. A field added carelessly shows here.
  @Test func aTaskRecordKeepsItsSize() {
    #expect(MemoryLayout<Nullable<ISODate>?>.size == 9)
    #expect(MemoryLayout<TaskRecord>.stride == 96)
  }

  @Test(arguments: [
    "", "2026-1-01", "2026-13-01", "2026-00-10", "2026-04-31", "1900-02-29", "2026-12-01T",
    "2026-12-01 10:00",
    "2026-12-01T10", "2026-12-01T10:60", "2026-12-01T10:00:00.", "2026-12-01T10:00z", "2026-12-01T10:00+0100",
    "26-12-01", "2026-12-01T10:00:00Z ",
  ])
  func isoDateRejectsMalformedOrImpossibleDates(_ text: String) {
    #expect(ISODate(text) == nil)
  }

  @Test func customFieldValuesAreInferredFromTheToken() {
    let infer = CustomFieldCodec.infer
    #expect(infer(.word("red")) == .string("red"))
    #expect(infer(.quoted("42")) == .string("42"))
    #expect(infer(.word("42")) == .number("42"))
    #expect(infer(.word("1.50")) == .number("1.50"))
    #expect(infer(.word("01")) == .string("01"))
    #expect(infer(.word("true")) == .bool(true))
    #expect(infer(.word("null")) == .null)
    #expect(infer(.list([.word("a"), .word("2")])) == .array([.string("a"), .number("2")]))
  }

  @Test func fieldTypesAreNamedForTheFieldsCommand() {
    let names = TaskRecord.fields.fields.map { "\($0.name): \($0.type.name)" }
    #expect(
      names == [
        "id: string", "title: string", "detail: string", "done: bool", "priority: int 0–5",
        "tags: list of strings", "due: date or null",
      ])
    #expect(TaskRecord.fields.field(named: "done")?.completions == ["true", "false"])
    #expect(TaskRecord.fields.field(named: "id")?.isReadOnly == true)
  }

  @Test func contactFieldsMatchTheSpec() {
    #expect(
      ContactRecord.fields.fields.map(\.name) == [
        "id", "name", "email", "phone", "address.street", "address.city", "address.zip", "address.country",
        "tags", "birthday",
      ])
  }
}
