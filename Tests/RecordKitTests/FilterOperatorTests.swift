import Testing

@testable import RecordKit

/// Every filter operator (`=`, `!=`, `<`, `<=`, `>`, `>=`, `~`, `=null`, `!=null`) on every
/// kind of field — string, int, number, bool, date, date-time, list, nullable, a custom
/// field of any JSON, a nested path — of the shipped kinds and of run-time kinds (inferred,
/// and from a schema), through the matchers `list`, `count` and the bulk edits use.
///
/// The records that must match are written out by hand for each case, from the rules in
/// `FilterOperator`: a comparison with a value never matches a null or absent
/// field and `!=` does; a list's `=` means "contains"; strings compare by code point;
/// `~` is a case-insensitive substring of the value as `show` prints it; dates compare by
/// calendar day when either side is a date only, date-times as instants (offsets applied);
/// a custom field's JSON values compare only with values of their own type.
///
/// `due<null` and the like are refused by the parser, before a matcher is made; that is
/// tested through the binary (`QueryOracleTests.aFilterThatCannotHoldIsRefused`).
@Suite struct FilterOperatorTests {
  /// One filter and the ids of the records it must match, in file order.
  struct Case: Sendable, CustomTestStringConvertible {
    let field: String
    let op: FilterOperator
    let operand: FilterOperand
    let expected: [String]

    init(_ field: String, _ op: FilterOperator, _ operand: FilterOperand, _ expected: [String]) {
      self.field = field
      self.op = op
      self.operand = operand
      self.expected = expected
    }

    var testDescription: String {
      switch operand {
      case .null: "\(field)\(op.rawValue)null"
      case .value(let token): "\(field)\(op.rawValue)\(token.description)"
      }
    }
  }

  /// A bare word (`title=Apple`).
  static func w(_ text: String) -> FilterOperand { .value(.word(text)) }
  /// A double-quoted string (`title="apple pie"`).
  static func q(_ text: String) -> FilterOperand { .value(.quoted(text)) }

  /// The ids of the records of `document` that `filter` matches, in file order.
  static func matching<Root: Record>(_ document: Document<Root>, _ filter: Case) throws -> [String] {
    let field = Root.fields.field(named: filter.field) ?? FieldTable<Root>.custom(filter.field)
    let matcher = try field.matcher(filter.op, filter.operand)
    return document.positions(matching: [matcher]).map { document.records[$0].id }
  }

  /// The ids of every record of `document`, sorted by `field` as `list sort` sorts.
  static func sorted<Root: Record>(_ document: Document<Root>, by field: String, descending: Bool) -> [String]
  {
    let accessor = Root.fields.field(named: field) ?? FieldTable<Root>.custom(field)
    let positions = document.sorted(
      Array(document.records.indices), by: [(accessor.recordOrder, descending)])
    return positions.map { document.records[$0].id }
  }

  // MARK: The task kind: string, bool, int, list, nullable date and date-time, custom JSON

  /// `due`: t3 is 08:00Z on 12-01; t5 is 22:30Z on 12-01 but written on 12-02; t6 is
  /// 04:30Z on 12-02 but written on 12-01. `size` is a custom field of any JSON.
  static let tasks = """
    [
      {"id": "t1", "title": "Apple", "detail": "x", "done": false, "priority": 1, "tags": ["work", "home"],
       "due": "2026-12-01", "size": 3},
      {"id": "t2", "title": "banana", "done": true, "priority": 5, "tags": [], "due": null, "size": "3"},
      {"id": "t3", "title": "Äpfel", "priority": 3, "tags": ["Work"], "due": "2026-12-01T10:00:00+02:00",
       "size": "abc"},
      {"id": "t4", "title": "", "done": false, "tags": ["home"], "due": "2026-11-30", "size": true},
      {"id": "t5", "done": true, "priority": 0, "due": "2026-12-02T00:30:00+02:00", "size": null},
      {"id": "t6", "title": "apple pie", "priority": 3, "due": "2026-12-01T23:30:00-05:00", "size": [3, "a"]},
      {"id": "t7", "title": "Zoë", "priority": 2, "size": 2.50}
    ]
    """

  static let taskCases: [Case] = [
    // A string, by code point: "A" < "Z" < "a" < "b" < "Ä".
    Case("title", .equal, w("Apple"), ["t1"]),
    Case("title", .equal, q("apple"), []),
    Case("title", .equal, q(""), ["t4"]),
    Case("title", .notEqual, w("Apple"), ["t2", "t3", "t4", "t5", "t6", "t7"]),
    Case("title", .less, w("apple"), ["t1", "t4", "t7"]),
    Case("title", .lessOrEqual, q("apple pie"), ["t1", "t4", "t6", "t7"]),
    Case("title", .greater, w("banana"), ["t3"]),
    Case("title", .greaterOrEqual, w("Zoë"), ["t2", "t3", "t6", "t7"]),
    Case("title", .contains, w("APP"), ["t1", "t6"]),
    Case("title", .contains, w("ÄP"), ["t3"]),
    Case("title", .contains, q(""), ["t1", "t2", "t3", "t4", "t6", "t7"]),
    Case("title", .equal, .null, ["t5"]),
    Case("title", .notEqual, .null, ["t1", "t2", "t3", "t4", "t6", "t7"]),
    Case("detail", .equal, w("x"), ["t1"]),
    Case("detail", .notEqual, w("x"), ["t2", "t3", "t4", "t5", "t6", "t7"]),
    Case("detail", .less, w("y"), ["t1"]),
    Case("detail", .equal, .null, ["t2", "t3", "t4", "t5", "t6", "t7"]),
    // A bool: `=`, `!=`, `~` and null only.
    Case("done", .equal, w("true"), ["t2", "t5"]),
    Case("done", .equal, w("false"), ["t1", "t4"]),
    Case("done", .notEqual, w("true"), ["t1", "t3", "t4", "t6", "t7"]),
    Case("done", .contains, w("RU"), ["t2", "t5"]),
    Case("done", .equal, .null, ["t3", "t6", "t7"]),
    Case("done", .notEqual, .null, ["t1", "t2", "t4", "t5"]),
    // An int.
    Case("priority", .equal, w("3"), ["t3", "t6"]),
    Case("priority", .notEqual, w("3"), ["t1", "t2", "t4", "t5", "t7"]),
    Case("priority", .less, w("3"), ["t1", "t5", "t7"]),
    Case("priority", .lessOrEqual, w("3"), ["t1", "t3", "t5", "t6", "t7"]),
    Case("priority", .greater, w("3"), ["t2"]),
    Case("priority", .greaterOrEqual, w("1"), ["t1", "t2", "t3", "t6", "t7"]),
    Case("priority", .contains, w("5"), ["t2"]),
    Case("priority", .equal, .null, ["t4"]),
    Case("priority", .notEqual, .null, ["t1", "t2", "t3", "t5", "t6", "t7"]),
    // A list: `=` is "contains", case and all.
    Case("tags", .equal, w("work"), ["t1"]),
    Case("tags", .equal, w("Work"), ["t3"]),
    Case("tags", .notEqual, w("work"), ["t2", "t3", "t4", "t5", "t6", "t7"]),
    Case("tags", .contains, w("WORK"), ["t1", "t3"]),
    Case("tags", .equal, .null, ["t5", "t6", "t7"]),
    Case("tags", .notEqual, .null, ["t1", "t2", "t3", "t4"]),
    // A nullable date, and date-times with offsets.
    Case("due", .equal, w("2026-12-01"), ["t1", "t3", "t6"]),
    Case("due", .equal, q("2026-12-01T08:00:00Z"), ["t1", "t3"]),
    Case("due", .equal, w("2026-12-01T10:00:00+02:00"), ["t1", "t3"]),
    Case("due", .equal, w("2026-12-02T04:30:00Z"), ["t6"]),
    Case("due", .notEqual, w("2026-12-01"), ["t2", "t4", "t5", "t7"]),
    Case("due", .less, w("2026-12-01"), ["t4"]),
    Case("due", .lessOrEqual, w("2026-12-01"), ["t1", "t3", "t4", "t6"]),
    Case("due", .greater, w("2026-12-01"), ["t5"]),
    Case("due", .greaterOrEqual, w("2026-12-01T22:00:00Z"), ["t1", "t5", "t6"]),
    Case("due", .less, w("2026-12-01T22:00:00Z"), ["t3", "t4"]),
    Case("due", .greater, w("2026-12-02T04:00:00+00:00"), ["t6"]),
    Case("due", .contains, w("t10"), ["t3"]),
    Case("due", .contains, w("-05:"), ["t6"]),
    Case("due", .equal, .null, ["t2", "t7"]),
    Case("due", .notEqual, .null, ["t1", "t3", "t4", "t5", "t6"]),
    // The id.
    Case("id", .equal, w("t3"), ["t3"]),
    Case("id", .notEqual, w("t3"), ["t1", "t2", "t4", "t5", "t6", "t7"]),
    Case("id", .less, w("t3"), ["t1", "t2"]),
    Case("id", .contains, w("T"), ["t1", "t2", "t3", "t4", "t5", "t6", "t7"]),
    Case("id", .equal, .null, []),
    // A custom field of any JSON: a word that is a number is one, a quoted one a string;
    // values compare only with their own type; a list's `=` means "contains".
    Case("size", .equal, w("3"), ["t1", "t6"]),
    Case("size", .equal, w("3.0"), ["t1", "t6"]),
    Case("size", .equal, q("3"), ["t2"]),
    Case("size", .equal, w("a"), ["t6"]),
    Case("size", .equal, w("true"), ["t4"]),
    Case("size", .equal, w("2.5"), ["t7"]),
    Case("size", .notEqual, w("3"), ["t2", "t3", "t4", "t5", "t7"]),
    Case("size", .less, w("3"), ["t7"]),
    Case("size", .lessOrEqual, w("3"), ["t1", "t7"]),
    Case("size", .greater, w("2.5"), ["t1"]),
    Case("size", .greaterOrEqual, w("2.5"), ["t1", "t7"]),
    Case("size", .less, w("zzz"), ["t2", "t3"]),
    Case("size", .contains, w("A"), ["t3", "t6"]),
    Case("size", .contains, w("2.5"), ["t7"]),
    Case("size", .equal, .null, ["t5"]),
    Case("size", .notEqual, .null, ["t1", "t2", "t3", "t4", "t6", "t7"]),
  ]

  @Test(arguments: taskCases)
  func aTaskFilterMatchesWhatTheRulesSay(_ filter: Case) throws {
    let document = try RecordFile<TaskRecord>.decode(Array(Self.tasks.utf8)).document
    #expect(try Self.matching(document, filter) == filter.expected)
  }

  // MARK: The contact kind: a nested path and a nullable date

  static let contacts = """
    [
      {"id": "c1", "name": "Ann", "address": {"city": "Paris", "zip": "75001"}, "birthday": "1990-05-01"},
      {"id": "c2", "name": "Ben", "address": {"city": "paris"}, "birthday": null},
      {"id": "c3", "name": "Cleo", "address": {"street": "Main St 1"}},
      {"id": "c4", "name": "Dan"},
      {"id": "c5", "name": "Eve", "address": {"city": "Zürich"}, "birthday": "1985-12-24"},
      {"id": "c6", "name": "Fay", "address": {"city": ""}}
    ]
    """

  static let contactCases: [Case] = [
    Case("address.city", .equal, w("Paris"), ["c1"]),
    Case("address.city", .notEqual, w("Paris"), ["c2", "c3", "c4", "c5", "c6"]),
    Case("address.city", .less, w("Zürich"), ["c1", "c6"]),
    Case("address.city", .lessOrEqual, w("Zürich"), ["c1", "c5", "c6"]),
    Case("address.city", .greater, w("Paris"), ["c2", "c5"]),
    Case("address.city", .greaterOrEqual, w("paris"), ["c2"]),
    Case("address.city", .contains, w("PAR"), ["c1", "c2"]),
    Case("address.city", .contains, w("Ü"), ["c5"]),
    Case("address.city", .equal, .null, ["c3", "c4"]),
    Case("address.city", .notEqual, .null, ["c1", "c2", "c5", "c6"]),
    Case("address.zip", .equal, w("75001"), ["c1"]),
    Case("address.street", .contains, w("main"), ["c3"]),
    Case("birthday", .less, w("1990-01-01"), ["c5"]),
    Case("birthday", .greaterOrEqual, w("1985-12-24"), ["c1", "c5"]),
    Case("birthday", .equal, .null, ["c2", "c3", "c4", "c6"]),
  ]

  @Test(arguments: contactCases)
  func aContactFilterMatchesWhatTheRulesSay(_ filter: Case) throws {
    let document = try RecordFile<ContactRecord>.decode(Array(Self.contacts.utf8)).document
    #expect(try Self.matching(document, filter) == filter.expected)
  }

  // MARK: Run-time kinds, inferred and from a schema

  /// `t`: r1 and r2 are the same instant (08:00Z); r3 half a second before; r4 is 01:00Z
  /// on 12-01, written on 11-30. `z` is null in r4, absent in r2 and r5. `m` holds values
  /// of several types: a field of any JSON when inferred, a custom field under the schema.
  static let things = """
    [
      {"id": "r1", "n": 1, "x": 2.50, "s": "apple", "b": true, "d": "2026-12-01",
       "t": "2026-12-01T10:00:00+02:00", "l": ["a", "b c"], "o": {"c": "Paris"}, "z": "zed", "m": 3},
      {"id": "r2", "n": -7, "x": 1e1, "s": "Apple", "b": false, "d": "2024-02-29",
       "t": "2026-12-01T08:00:00Z", "l": [], "o": {"c": "paris"}, "m": "3"},
      {"id": "r3", "n": 0, "x": -0.5, "s": "", "b": true, "d": "2026-12-02", "t": "2026-12-01T07:59:59.5Z",
       "l": ["B C"], "z": "", "m": true},
      {"id": "r4", "x": 2.5, "s": "Äpfel", "d": "2025-01-01", "t": "2026-11-30T23:00:00-02:00", "l": ["a"],
       "o": {"c": "Zürich"}, "z": null, "m": null},
      {"id": "r5", "n": 12, "s": "zebra", "b": false, "o": {"d": 1}, "m": [1, "x"]}
    ]
    """

  static let thingsSchema = """
    {
      "type": "object",
      "properties": {
        "id": {"type": "string"},
        "n": {"type": "integer"},
        "x": {"type": "number"},
        "s": {"type": "string"},
        "b": {"type": "boolean"},
        "d": {"type": "string", "format": "date"},
        "t": {"type": "string", "format": "date-time"},
        "l": {"type": "array", "items": {"type": "string"}},
        "o": {"type": "object", "properties": {"c": {"type": "string"}, "d": {"type": "integer"}}},
        "z": {"type": ["string", "null"]}
      },
      "required": ["id", "s"]
    }
    """

  enum RunTimeSource: String, Sendable, CaseIterable {
    case inferred, schema
  }

  /// The things, loaded as the kind `source` makes, bound for `body`.
  static func withThings<T>(_ source: RunTimeSource, _ body: (Document<RunTimeRecord>) throws -> T) throws
    -> T
  {
    let schema: RecordSchema? =
      source == .schema ? try RecordSchema(reading: JSONValue.parse(bytes: Array(thingsSchema.utf8))) : nil
    let loaded = try Array(things.utf8).withUnsafeBufferPointer {
      try RunTimeFile.decode($0, layout: .array, schema: schema, name: "things")
    }
    return try RunTimeKind.$current.withValue(loaded.kind) { try body(loaded.document) }
  }

  static let runTimeCases: [Case] = [
    // An integer; `1.0` is an integer's spelling too.
    Case("n", .equal, w("1"), ["r1"]),
    Case("n", .equal, w("1.0"), ["r1"]),
    Case("n", .notEqual, w("1"), ["r2", "r3", "r4", "r5"]),
    Case("n", .less, w("1"), ["r2", "r3"]),
    Case("n", .lessOrEqual, w("0"), ["r2", "r3"]),
    Case("n", .greater, w("0"), ["r1", "r5"]),
    Case("n", .greaterOrEqual, w("-7"), ["r1", "r2", "r3", "r5"]),
    Case("n", .contains, w("1"), ["r1", "r5"]),
    Case("n", .contains, w("-"), ["r2"]),
    Case("n", .equal, .null, ["r4"]),
    Case("n", .notEqual, .null, ["r1", "r2", "r3", "r5"]),
    // A number, by value; `~` looks at its spelling.
    Case("x", .equal, w("2.5"), ["r1", "r4"]),
    Case("x", .equal, w("10"), ["r2"]),
    Case("x", .notEqual, w("2.5"), ["r2", "r3", "r5"]),
    Case("x", .less, w("2.5"), ["r3"]),
    Case("x", .lessOrEqual, w("2.5"), ["r1", "r3", "r4"]),
    Case("x", .greater, w("2.5"), ["r2"]),
    Case("x", .greaterOrEqual, w("-0.5"), ["r1", "r2", "r3", "r4"]),
    Case("x", .contains, w("E"), ["r2"]),
    Case("x", .contains, w("2.50"), ["r1"]),
    Case("x", .equal, .null, ["r5"]),
    // A string.
    Case("s", .equal, w("apple"), ["r1"]),
    Case("s", .equal, q(""), ["r3"]),
    Case("s", .notEqual, w("apple"), ["r2", "r3", "r4", "r5"]),
    Case("s", .less, w("apple"), ["r2", "r3"]),
    Case("s", .lessOrEqual, w("Apple"), ["r2", "r3"]),
    Case("s", .greater, w("apple"), ["r4", "r5"]),
    Case("s", .greaterOrEqual, w("zebra"), ["r4", "r5"]),
    Case("s", .contains, w("APP"), ["r1", "r2"]),
    Case("s", .contains, w("äp"), ["r4"]),
    Case("s", .contains, q(""), ["r1", "r2", "r3", "r4", "r5"]),
    Case("s", .equal, .null, []),
    Case("s", .notEqual, .null, ["r1", "r2", "r3", "r4", "r5"]),
    // A bool.
    Case("b", .equal, w("true"), ["r1", "r3"]),
    Case("b", .equal, w("false"), ["r2", "r5"]),
    Case("b", .notEqual, w("true"), ["r2", "r4", "r5"]),
    Case("b", .contains, w("RU"), ["r1", "r3"]),
    Case("b", .equal, .null, ["r4"]),
    // A date.
    Case("d", .equal, w("2026-12-01"), ["r1"]),
    Case("d", .equal, q("2026-12-01T23:00:00Z"), ["r1"]),
    Case("d", .notEqual, w("2026-12-01"), ["r2", "r3", "r4", "r5"]),
    Case("d", .less, w("2026-01-01"), ["r2", "r4"]),
    Case("d", .lessOrEqual, w("2025-01-01"), ["r2", "r4"]),
    Case("d", .greater, w("2026-12-01"), ["r3"]),
    Case("d", .greaterOrEqual, w("2026-12-01"), ["r1", "r3"]),
    Case("d", .contains, w("-02-"), ["r2"]),
    Case("d", .equal, .null, ["r5"]),
    // A date-time: instants, offsets applied, fractions of a second digit by digit; a
    // date compares with it by the day it is written on.
    Case("t", .equal, w("2026-12-01T08:00:00Z"), ["r1", "r2"]),
    Case("t", .notEqual, w("2026-12-01T10:00:00+02:00"), ["r3", "r4", "r5"]),
    Case("t", .less, w("2026-12-01T08:00:00Z"), ["r3", "r4"]),
    Case("t", .lessOrEqual, w("2026-12-01T08:00:00+00:00"), ["r1", "r2", "r3", "r4"]),
    Case("t", .greater, w("2026-12-01T07:59:59Z"), ["r1", "r2", "r3"]),
    Case("t", .greaterOrEqual, w("2026-12-01T07:59:59.50Z"), ["r1", "r2", "r3"]),
    Case("t", .equal, w("2026-12-01"), ["r1", "r2", "r3"]),
    Case("t", .less, w("2026-12-01"), ["r4"]),
    Case("t", .contains, w("-02:"), ["r4"]),
    Case("t", .equal, .null, ["r5"]),
    // A list of strings.
    Case("l", .equal, w("a"), ["r1", "r4"]),
    Case("l", .equal, q("b c"), ["r1"]),
    Case("l", .notEqual, w("a"), ["r2", "r3", "r5"]),
    Case("l", .contains, q("B C"), ["r1", "r3"]),
    Case("l", .equal, .null, ["r5"]),
    Case("l", .notEqual, .null, ["r1", "r2", "r3", "r4"]),
    // Nested paths.
    Case("o.c", .equal, w("Paris"), ["r1"]),
    Case("o.c", .notEqual, w("Paris"), ["r2", "r3", "r4", "r5"]),
    Case("o.c", .less, w("a"), ["r1", "r4"]),
    Case("o.c", .contains, w("pAR"), ["r1", "r2"]),
    Case("o.c", .equal, .null, ["r3", "r5"]),
    Case("o.d", .equal, w("1"), ["r5"]),
    Case("o.d", .equal, .null, ["r1", "r2", "r3", "r4"]),
    // A nullable string: null and absent alike for `=null`; a quoted "null" is text.
    Case("z", .equal, w("zed"), ["r1"]),
    Case("z", .notEqual, w("zed"), ["r2", "r3", "r4", "r5"]),
    Case("z", .less, w("zed"), ["r3"]),
    Case("z", .contains, w("E"), ["r1"]),
    Case("z", .equal, q("null"), []),
    Case("z", .equal, .null, ["r2", "r4", "r5"]),
    Case("z", .notEqual, .null, ["r1", "r3"]),
    // Any JSON: a string is never below a number; a list's `=` means "contains".
    Case("m", .equal, w("3"), ["r1"]),
    Case("m", .equal, q("3"), ["r2"]),
    Case("m", .equal, w("x"), ["r5"]),
    Case("m", .equal, w("1"), ["r5"]),
    Case("m", .equal, w("true"), ["r3"]),
    Case("m", .notEqual, w("3"), ["r2", "r3", "r4", "r5"]),
    Case("m", .less, w("4"), ["r1"]),
    Case("m", .greater, q("2"), ["r2"]),
    Case("m", .contains, w("X"), ["r5"]),
    Case("m", .contains, w("3"), ["r1", "r2"]),
    Case("m", .equal, .null, ["r4"]),
    // The key.
    Case("id", .equal, w("r2"), ["r2"]),
    Case("id", .less, w("r3"), ["r1", "r2"]),
  ]

  @Test(arguments: runTimeCases, RunTimeSource.allCases)
  func aRunTimeFilterMatchesWhatTheRulesSay(_ filter: Case, source: RunTimeSource) throws {
    let found = try Self.withThings(source) { try Self.matching($0, filter) }
    #expect(found == filter.expected)
  }

  // MARK: Filters that mean nothing

  /// Each refused with the field, before any record is looked at.
  @Test func anOrderOnABoolOrAListAndAValueOfTheWrongTypeAreErrors() throws {
    let tasks = try RecordFile<TaskRecord>.decode(Array(Self.tasks.utf8)).document
    #expect(throws: FieldError.notOrdered(field: "done", operator: "<", type: "bool")) {
      try Self.matching(tasks, Case("done", .less, Self.w("true"), []))
    }
    #expect(throws: FieldError.notOrdered(field: "tags", operator: "<", type: "list of strings")) {
      try Self.matching(tasks, Case("tags", .less, Self.w("a"), []))
    }
    #expect(
      throws: FieldError.invalidValue(field: "priority", expected: "an integer 0–5", found: "high")
    ) {
      try Self.matching(tasks, Case("priority", .equal, Self.w("high"), []))
    }
    #expect(throws: FieldError.invalidValue(field: "priority", expected: "an integer 0–5", found: "9")) {
      try Self.matching(tasks, Case("priority", .less, Self.w("9"), []))
    }
    let dates = "an ISO 8601 date (2026-12-01) or date-time (2026-12-01T09:30:00Z) or null"
    #expect(throws: FieldError.invalidValue(field: "due", expected: dates, found: "tomorrow")) {
      try Self.matching(tasks, Case("due", .less, Self.w("tomorrow"), []))
    }
    #expect(throws: FieldError.invalidValue(field: "due", expected: dates, found: "2026-02-30")) {
      try Self.matching(tasks, Case("due", .equal, Self.w("2026-02-30"), []))
    }
    // Only = and != compare with null, in the core as in the parser.
    let nullOnly = "a value (only =, == and != compare with null)"
    #expect(throws: FieldError.invalidValue(field: "due", expected: nullOnly, found: "null")) {
      try Self.matching(tasks, Case("due", .less, .null, []))
    }
    #expect(throws: FieldError.invalidValue(field: "id", expected: nullOnly, found: "null")) {
      try Self.matching(tasks, Case("id", .contains, .null, []))
    }
    #expect(throws: FieldError.invalidValue(field: "done", expected: "true or false", found: "yes")) {
      try Self.matching(tasks, Case("done", .equal, Self.w("yes"), []))
    }
  }

  @Test(arguments: RunTimeSource.allCases)
  func aRunTimeFilterOfTheWrongTypeIsAnError(source: RunTimeSource) throws {
    try Self.withThings(source) { things in
      #expect(throws: FieldError.notOrdered(field: "b", operator: "<", type: "bool")) {
        try Self.matching(things, Case("b", .less, Self.w("true"), []))
      }
      #expect(throws: FieldError.notOrdered(field: "l", operator: ">=", type: "list of string")) {
        try Self.matching(things, Case("l", .greaterOrEqual, Self.w("a"), []))
      }
      #expect(throws: FieldError.invalidValue(field: "n", expected: "an integer", found: "2.5")) {
        try Self.matching(things, Case("n", .equal, Self.w("2.5"), []))
      }
      #expect(throws: FieldError.invalidValue(field: "x", expected: "a number", found: "abc")) {
        try Self.matching(things, Case("x", .less, Self.w("abc"), []))
      }
      #expect(throws: FieldError.invalidValue(field: "b", expected: "true or false", found: "yes")) {
        try Self.matching(things, Case("b", .equal, Self.w("yes"), []))
      }
    }
  }

  /// A date field of a run-time kind reads a filter's value as a date, as the task kind's
  /// `due` does and as `set` does: `d<soon` is no comparison of text.
  @Test(arguments: RunTimeSource.allCases)
  func aRunTimeDateFilterRefusesWhatIsNoDate(source: RunTimeSource) throws {
    try Self.withThings(source) { things in
      let date = "an ISO 8601 date (2026-12-01)"
      #expect(throws: FieldError.invalidValue(field: "d", expected: date, found: "soon")) {
        try Self.matching(things, Case("d", .less, Self.w("soon"), []))
      }
      #expect(throws: FieldError.invalidValue(field: "d", expected: date, found: "2026-02-30")) {
        try Self.matching(things, Case("d", .equal, Self.w("2026-02-30"), []))
      }
      let dateTime = "an ISO 8601 date-time (2026-12-01T09:30:00Z)"
      #expect(throws: FieldError.invalidValue(field: "t", expected: dateTime, found: "noon")) {
        try Self.matching(things, Case("t", .greater, Self.w("noon"), []))
      }
    }
  }

  // MARK: Strings by code point

  /// "é" as one code point (NFC) and as "e" and a combining accent (NFD) are different
  /// strings to a file, to `JSONValue`'s `==`, and to the order `JSONOrder` documents (by
  /// code point, the order of UTF-8 bytes): `=` must not take one for the other, and
  /// `sort` must order them by their bytes.
  @Test func stringsCompareByCodePointNotByCanonicalEquivalence() throws {
    let text = """
      [
        {"id": "n1", "title": "caf\\u00e9", "tags": ["caf\\u00e9"]},
        {"id": "n2", "title": "cafe\\u0301", "tags": ["cafe\\u0301"]},
        {"id": "n3", "title": "cafe"},
        {"id": "n4", "title": "cafz"}
      ]
      """
    let tasks = try RecordFile<TaskRecord>.decode(Array(text.utf8)).document
    #expect(try Self.matching(tasks, Case("title", .equal, Self.q("caf\u{e9}"), [])) == ["n1"])
    #expect(try Self.matching(tasks, Case("title", .equal, Self.q("cafe\u{301}"), [])) == ["n2"])
    #expect(
      try Self.matching(tasks, Case("title", .notEqual, Self.q("caf\u{e9}"), [])) == ["n2", "n3", "n4"])
    #expect(try Self.matching(tasks, Case("tags", .equal, Self.q("caf\u{e9}"), [])) == ["n1"])
    // "cafe" < "cafe\u{301}" < "cafz" < "caf\u{e9}", byte by byte.
    #expect(Self.sorted(tasks, by: "title", descending: false) == ["n3", "n2", "n4", "n1"])
  }

  // MARK: Sort

  /// `sort` orders by value, stable (ties keep file order); null and absent values come
  /// last in both directions, and tie with each other.
  @Test func sortPutsNullAndAbsentLastEitherWay() throws {
    let tasks = try RecordFile<TaskRecord>.decode(Array(Self.tasks.utf8)).document
    #expect(
      Self.sorted(tasks, by: "priority", descending: false) == ["t5", "t1", "t7", "t3", "t6", "t2", "t4"])
    #expect(
      Self.sorted(tasks, by: "priority", descending: true) == ["t2", "t3", "t6", "t7", "t1", "t5", "t4"])
    #expect(Self.sorted(tasks, by: "title", descending: false) == ["t4", "t1", "t7", "t6", "t2", "t3", "t5"])
    #expect(Self.sorted(tasks, by: "title", descending: true) == ["t3", "t2", "t6", "t7", "t1", "t4", "t5"])
    // Any JSON: numbers, strings, booleans, lists, then null.
    #expect(Self.sorted(tasks, by: "size", descending: false) == ["t7", "t1", "t2", "t3", "t4", "t6", "t5"])
    #expect(Self.sorted(tasks, by: "size", descending: true) == ["t6", "t4", "t3", "t2", "t1", "t7", "t5"])
    let contacts = try RecordFile<ContactRecord>.decode(Array(Self.contacts.utf8)).document
    #expect(
      Self.sorted(contacts, by: "address.city", descending: false) == ["c6", "c1", "c5", "c2", "c3", "c4"])
    #expect(
      Self.sorted(contacts, by: "address.city", descending: true) == ["c2", "c5", "c1", "c6", "c3", "c4"])
  }

  @Test(arguments: RunTimeSource.allCases)
  func aRunTimeSortPutsNullAndAbsentLastEitherWay(source: RunTimeSource) throws {
    try Self.withThings(source) { things in
      #expect(Self.sorted(things, by: "n", descending: true) == ["r5", "r1", "r3", "r2", "r4"])
      #expect(Self.sorted(things, by: "x", descending: false) == ["r3", "r1", "r4", "r2", "r5"])
      // Instants; r1 and r2 tie.
      #expect(Self.sorted(things, by: "t", descending: false) == ["r4", "r3", "r1", "r2", "r5"])
      #expect(Self.sorted(things, by: "t", descending: true) == ["r1", "r2", "r3", "r4", "r5"])
      // Element by element, a prefix first.
      #expect(Self.sorted(things, by: "l", descending: false) == ["r2", "r3", "r4", "r1", "r5"])
      #expect(Self.sorted(things, by: "l", descending: true) == ["r1", "r4", "r3", "r2", "r5"])
      #expect(Self.sorted(things, by: "m", descending: false) == ["r1", "r2", "r3", "r5", "r4"])
      #expect(Self.sorted(things, by: "m", descending: true) == ["r5", "r3", "r2", "r1", "r4"])
      // r2 and r5 have no `z`, r4 holds null: the three tie, in file order.
      #expect(Self.sorted(things, by: "z", descending: false) == ["r3", "r1", "r2", "r4", "r5"])
      #expect(Self.sorted(things, by: "z", descending: true) == ["r1", "r3", "r2", "r4", "r5"])
    }
  }
}
