import Foundation
import RecordKit
import Testing

/// `list` (filters, `sort`, `limit`), `count` and the bulk edits (`set`, `unset`, `add`,
/// `remove` and `delete`, each with `where`), checked against sqlite3 as an oracle.
///
/// Each test writes seeded random records to a file, has sqlite3 read the same file
/// (`json_each(readfile(…))`), and runs the same random queries and bulk edits through one
/// `recsh --format jsonl -s SCRIPT` process and one `sqlite3` process: the keys each `list`
/// finds, in order, each `count`, the records after each bulk edit, and the names of the
/// undo steps (which say how many records each edit changed) must agree.
///
/// Where recsh's rule differs from SQL's on purpose, the SQL says so (`OracleSQL`):
/// - a comparison with a value never matches a null or absent field, and `!=VALUE` does
///   match them (SQL's `!=` is NULL there: `NOT coalesce(positive, 0)`);
/// - `=` of a list field means "contains" (`EXISTS (SELECT 1 FROM json_each(…))`);
/// - strings compare by code point, which is what sqlite's BINARY collation does on UTF-8;
/// - `~` is a case-insensitive substring; sqlite's `lower` lowercases ASCII only, so the
///   needles are ASCII and the data holds no character whose lowercase is ASCII (no Kelvin
///   sign, no dotted capital I) and no combining mark (`~` compares whole characters: the
///   "e" of "e\u{301}" is no "e");
/// - `sort` puts null and absent last in both directions, tied with each other (`ORDER BY
///   col IS NULL, col [DESC]`), and keeps file order for ties (`, pos`);
/// - dates are date-only, so they compare correctly as text (date-times are in
///   `FilterOperatorTests`, where the expected matches are written out).
///
/// The strings hold no two canonically equivalent spellings ("é" and "e\u{301}"): recsh
/// takes those as equal in `=` and `sort` where sqlite does not; `FilterOperatorTests`
/// pins that case by itself (see `stringsCompareByCodePoint…` there).
@Suite struct QueryOracleTests {
  static let seed: UInt64 = 0x5EED_0A11_CE10_0010
  static let queriesPerKind = 400
  static let editsPerKind = 60

  @Test func aSchemaKindFindsSortsCountsAndEditsAsSQLiteDoes() throws {
    var run = OracleRun(variant: .schema, seed: Self.seed)
    try run.check()
  }

  @Test func anInferredKindFindsSortsCountsAndEditsAsSQLiteDoes() throws {
    var run = OracleRun(variant: .inferred, seed: Self.seed &+ 1)
    try run.check()
  }

  @Test func theTaskKindFindsSortsCountsAndEditsAsSQLiteDoes() throws {
    var run = OracleRun(variant: .task, seed: Self.seed &+ 2)
    try run.check()
  }

  /// Filters that cannot mean anything are refused, saying what is wrong, never run as a
  /// filter that matches nothing: an order on a bool or a list, a value of the wrong type
  /// (a run-time kind's date field too, as the task kind's `due`), an order with `null`.
  @Test(arguments: [
    (
      "task", "count done<true",
      "in the filter done<true: field 'done' (bool) has no order: " + Self.noOrder("<")
    ),
    (
      "task", "count tags<a",
      "in the filter tags<a: field 'tags' (list of strings) has no order: " + Self.noOrder("<")
    ),
    (
      "task", "count priority=high",
      "in the filter priority=high: field 'priority': expected an integer 0–5, found high"
    ),
    (
      "task", "count due<tomorrow",
      "in the filter due<tomorrow: field 'due': expected an ISO 8601 date (2026-12-01) or date-time "
        + "(2026-12-01T09:30:00Z) or null, found tomorrow"
    ),
    ("task", "count due<null", "in 'due<null': only =, == and != compare with null"),
    ("task", "list extra>=null", "in 'extra>=null': only =, == and != compare with null"),
    (
      "items", "count flag<true",
      "in the filter flag<true: field 'flag' (bool) has no order: " + Self.noOrder("<")
    ),
    (
      "items", "count tags>=a",
      "in the filter tags>=a: field 'tags' (list of string) has no order: " + Self.noOrder(">=")
    ),
    ("items", "count n=2.5", "in the filter n=2.5: field 'n': expected an integer, found 2.5"),
    ("items", "count price<abc", "in the filter price<abc: field 'price': expected a number, found abc"),
    ("items", "count note<null", "in 'note<null': only =, == and != compare with null"),
    // A date field of a run-time kind reads the operand as a date, as `set` does.
    (
      "items", "count day<soon",
      "in the filter day<soon: field 'day': expected an ISO 8601 date (2026-12-01), found soon"
    ),
    (
      "items", "count day=2026-02-30",
      "in the filter day=2026-02-30: field 'day': expected an ISO 8601 date (2026-12-01), found 2026-02-30"
    ),
  ])
  func aFilterThatCannotHoldIsRefused(kind: String, command: String, message: String) throws {
    let folder = try TempFolder()
    let variant: OracleVariant = kind == "task" ? .task : .schema
    var random = SplitMix64(seed: 7)
    try folder.write(variant.fileName, variant.makeFile(records: 5, using: &random).text)
    if let schema = variant.schema { try folder.write("items.schema.json", schema) }
    let result = try folder.recsh(variant.arguments + ["-c", command])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr == "<command>:1: error: \(message)\n")
  }

  static func noOrder(_ op: String) -> String {
    "'\(op)' compares numbers, strings and dates; use '=' or '!='"
  }
}

// MARK: - One run: a file, its queries and edits, recsh and sqlite3

/// The records, queries and edits of one test, and the comparison of what recsh and
/// sqlite3 made of them.
private struct OracleRun {
  let variant: OracleVariant
  var random: SplitMix64

  init(variant: OracleVariant, seed: UInt64) {
    self.variant = variant
    random = SplitMix64(seed: seed)
  }

  mutating func check() throws {
    let folder = try TempFolder()
    let file = variant.makeFile(records: 300, using: &random)
    try folder.write(variant.fileName, file.text)
    if let schema = variant.schema { try folder.write("items.schema.json", schema) }
    var script = ""
    var sql = OracleSQL.load(variant.fileName)
    var queries: [OracleQuery] = []
    for _ in 0..<QueryOracleTests.queriesPerKind {
      let query = makeQuery(file.fields)
      queries.append(query)
      script += query.recshLines
      sql += query.sql
    }
    var edits: [OracleEdit] = []
    for _ in 0..<QueryOracleTests.editsPerKind {
      let edit = makeEdit(file.fields)
      edits.append(edit)
      script += edit.recsh + "\nlist\ncount\n"
      sql += edit.sql(keyOrder: variant.keyOrder)
    }
    script += "history\nquit!\n"
    try folder.write("oracle.rsh", script)
    try folder.write("oracle.sql", sql)

    let oracle = try SQLite.run(script: "oracle.sql", in: folder)
    let shell = try folder.recsh(variant.arguments + ["--format", "jsonl", "-s", "oracle.rsh"])
    // `quit!` leaves the edits unsaved, which recsh mentions, and a bulk edit that changes
    // nothing says so (the records after it are compared below); nothing else may be said.
    let complaints = shell.stderr.split(separator: "\n").filter {
      !($0.hasPrefix("warning: ") && $0.hasSuffix(" unsaved changes to \"\(variant.fileName)\" not saved"))
        && !$0.contains(": warning: no record changed (") && !$0.contains(": warning: no record deleted (")
    }
    #expect(shell.status == 0 && complaints.isEmpty, "recsh failed: \(shell.stderr.prefix(2000))")
    guard shell.status == 0, complaints.isEmpty else { return }

    var recsh = ShellLines(shell.stdout)
    var expected = OracleLines(oracle)
    try compareQueries(queries, &recsh, &expected)
    let steps = try compareEdits(edits, &recsh, &expected)
    let names = try recsh.historyNames()
    #expect(names == steps, "the undo steps the bulk edits made")
  }

  /// Every query's keys, in order, and its count.
  private func compareQueries(
    _ queries: [OracleQuery], _ recsh: inout ShellLines, _ oracle: inout OracleLines
  ) throws {
    var mismatches = 0
    var matchedSome = 0
    for query in queries {
      let (keys, count) = try recsh.keysAndCount()
      let (wanted, wantedCount) = try oracle.keysAndCount()
      if wantedCount > 0 { matchedSome += 1 }
      guard keys != wanted || count != wantedCount else { continue }
      mismatches += 1
      if mismatches <= 10 {
        let order = keys.sorted() == wanted.sorted() ? " (the same records, in another order)" : ""
        Issue.record(
          """
          \(variant) query disagrees with sqlite3\(order):
            recsh:  \(query.list)   (count \(count))
            sqlite: \(query.select)   (count \(wantedCount))
            recsh found  \(keys)
            sqlite found \(wanted)
          """)
      }
    }
    #expect(mismatches == 0, "\(mismatches) of \(queries.count) queries disagree")
    // The queries must mostly find something, or they test little.
    #expect(matchedSome > queries.count / 2, "only \(matchedSome) queries matched a record")
  }

  /// The records after every bulk edit; the names of the steps the edits must have made.
  private func compareEdits(_ edits: [OracleEdit], _ recsh: inout ShellLines, _ sqlite: inout OracleLines)
    throws -> [String]
  {
    var steps: [String] = []
    var changedSome = 0
    for edit in edits {
      let (matched, changed, fields) = try sqlite.editCounts()
      if let name = edit.stepName(changed: changed, fields: fields) { steps.append(name) }
      if changed > 0 { changedSome += 1 }
      let records = try recsh.records()
      let wanted = try sqlite.records()
      guard let first = try Self.firstDifference(records, wanted) else { continue }
      Issue.record(
        """
        \(variant) records differ after: \(edit.recsh)
          (sqlite: \(matched) matched, \(changed) changed)
          (recsh has \(records.count) records, sqlite \(wanted.count))
          first difference at record \(first + 1):
          recsh:  \(first < records.count ? records[first] : "none")
          sqlite: \(first < wanted.count ? wanted[first] : "none")
        """)
      // The states part here; what follows would only repeat this difference.
      throw OracleFailure.statesDiffer
    }
    #expect(changedSome >= edits.count / 3, "only \(changedSome) bulk edits changed a record")
    return steps
  }

  /// Where two lists of records (JSON lines) first differ; `nil` when they hold the same
  /// records. A line is compared as bytes first (sqlite and recsh write compact JSON alike,
  /// keys in the record's order), and parsed only when they differ.
  static func firstDifference(_ records: [Substring], _ wanted: [Substring]) throws -> Int? {
    for (index, (line, other)) in zip(records, wanted).enumerated() {
      guard !line.utf8.elementsEqual(other.utf8) else { continue }
      if try JSONTree.parse(line) != JSONTree.parse(other) { return index }
    }
    return records.count == wanted.count ? nil : min(records.count, wanted.count)
  }

  // MARK: Random queries and edits

  private mutating func makeFilters(_ fields: [OracleField], count: Int) -> [OracleFilter] {
    (0..<count).map { _ in
      let field = random.pick(fields)
      let op = random.pick(field.operators)
      switch op {
      case .isNull, .isNotNull: return OracleFilter(field: field, op: op, operand: .null)
      case .contains: return OracleFilter(field: field, op: op, operand: .needle(random.pick(field.needles)))
      default:
        let value = random.pick(field.values)
        return OracleFilter(field: field, op: op, operand: .value(value, bare: random.chance(40)))
      }
    }
  }

  private mutating func makeQuery(_ fields: [OracleField]) -> OracleQuery {
    let filters = makeFilters(fields, count: random.below(4))
    // Sorting is what costs recsh most (a debug build sorts 300 records in ~15 ms), so a
    // third of the queries sort, by one key or two.
    let keys = random.chance(33) ? 1 + random.below(2) : 0
    let sort = (0..<keys).map { _ in (field: random.pick(fields), descending: random.chance(50)) }
    let limit = random.chance(40) ? random.below(25) : nil
    return OracleQuery(key: variant.key, filters: filters, sort: sort, limit: limit)
  }

  private mutating func makeEdit(_ fields: [OracleField]) -> OracleEdit {
    // Deletes are rare and narrow, so that records are left to edit.
    let kind = random.below(100)
    var filters = makeFilters(fields, count: 1 + random.below(3))
    if kind < 4, let narrow = fields.first(where: { $0.name == variant.narrowField }) {
      let value = random.pick(narrow.values)
      filters.insert(OracleFilter(field: narrow, op: .equal, operand: .value(value, bare: false)), at: 0)
      return OracleEdit(change: .delete, filters: filters)
    }
    let list = fields.first { $0.shape == .list }
    if kind < 24, let list {
      let element = random.pick(variant.tagWords)
      return OracleEdit(change: kind < 16 ? .add(list, element) : .remove(list, element), filters: filters)
    }
    let unsettable = fields.filter(\.unsettable)
    if kind < 34, !unsettable.isEmpty {
      return OracleEdit(change: .unset(random.pick(unsettable)), filters: filters)
    }
    var assignments: [(OracleField, OracleValue)] = []
    var settable = fields.filter(\.settable)
    for _ in 0..<(1 + random.below(2)) where !settable.isEmpty {
      let field = settable.remove(at: random.below(settable.count))
      var value = random.pick(field.setValues)
      if field.nullable, random.chance(15) { value = .null }
      assignments.append((field, value))
    }
    return OracleEdit(change: .set(assignments), filters: filters)
  }
}

private enum OracleFailure: Error {
  case statesDiffer
  case outputEnded(String)
  case badLine(String)
}

// MARK: - Kinds, fields and values

/// A value as the data file holds it, as recsh's command line types it, and as sqlite
/// compares it.
private enum OracleValue: Equatable {
  case number(String)
  case text(String)
  case bool(Bool)
  case null

  /// As the data file (JSON) spells it.
  var json: String {
    switch self {
    case .number(let spelling): spelling
    case .text(let text): OracleText.jsonQuoted(text)
    case .bool(let flag): flag ? "true" : "false"
    case .null: "null"
    }
  }

  /// As typed after a filter's operator or in `set`: a string in double quotes, or bare
  /// when asked and it is a plain word that no other type would claim.
  func typed(bare: Bool) -> String {
    switch self {
    case .text(let text):
      return bare && Self.isPlain(text) ? text : OracleText.recshQuoted(text)
    default: return json
    }
  }

  /// A word that reads as this string bare: letters (no word of the language, nor `null`,
  /// `true`, `false`), or a date (digits and dashes, no number).
  private static func isPlain(_ text: String) -> Bool {
    let scalars = text.unicodeScalars
    let letters = scalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }
    if letters {
      return !text.isEmpty && !["null", "true", "false", "where", "sort", "limit", "fields"].contains(text)
    }
    let date = scalars.allSatisfy { ("0"..."9").contains($0) || $0 == "-" }
    return date && scalars.contains("-") && scalars.first != "-"
  }

  /// As an SQL literal to compare `json_extract` with (a bool is 1 or 0 there).
  var sqlLiteral: String {
    switch self {
    case .number(let spelling): spelling
    case .text(let text): OracleText.sqlQuoted(text)
    case .bool(let flag): flag ? "1" : "0"
    case .null: "NULL"
    }
  }

  /// As `json_set`'s value: a number or literal through `json(…)`, which keeps its spelling.
  var sqlJSON: String {
    switch self {
    case .text(let text): OracleText.sqlQuoted(text)
    default: "json('\(json)')"
    }
  }

  /// The types of `json_type` this value has (for a field of any JSON).
  var sqlTypes: String {
    switch self {
    case .number: "('integer', 'real')"
    case .text: "('text')"
    case .bool: "('true', 'false')"
    case .null: "('null')"
    }
  }
}

private enum OracleShape {
  case integer, number, string, bool, date, list, json
}

/// One field as the oracle sees it: its name, what it holds, the values filters compare
/// with and `set` writes, and how sqlite reads it.
private struct OracleField {
  let name: String
  let shape: OracleShape
  var values: [OracleValue] = []
  var needles: [String] = []
  var setValues: [OracleValue] = []
  var settable = true
  var unsettable = false
  var nullable = false
  /// A custom field: `set` names it `+name` (which also works while no record has it).
  var custom = false

  init(_ name: String, _ shape: OracleShape) {
    self.name = name
    self.shape = shape
  }

  var operators: [OracleOperator] {
    switch shape {
    case .bool, .list: [.equal, .notEqual, .contains, .isNull, .isNotNull]
    default: OracleOperator.allCases
    }
  }

  var path: String { "'$.\(name)'" }
  var type: String { "json_type(rec, \(path))" }
  var value: String { "json_extract(rec, \(path))" }
  var text: String { "(rec -> \(path))" }
  /// Holds a value: neither absent (`json_type` NULL) nor null.
  var present: String { "(\(type) IS NOT NULL AND \(type) != 'null')" }
  /// What `~` looks in, as `show` prints it: a string's text, a number's spelling,
  /// `true`/`false`, a list's elements (its JSON text: with needles of letters only, the
  /// brackets, commas and quotes of either spelling never match).
  var display: String {
    switch shape {
    case .string, .date: value
    case .integer, .number, .list: text
    case .bool: type
    case .json: "(CASE WHEN \(type) = 'text' THEN \(value) ELSE \(text) END)"
    }
  }

  /// Whether the field holds exactly `candidate` (for the records a `set` leaves alone:
  /// recsh compares the JSON spelling, so `2.50` is not `2.5`).
  func holds(_ candidate: OracleValue) -> String {
    switch candidate {
    case .number(let spelling): "coalesce(\(type) IN ('integer', 'real') AND \(text) = '\(spelling)', 0)"
    case .text: "coalesce(\(type) = 'text' AND \(value) = \(candidate.sqlLiteral), 0)"
    case .bool(let flag): "coalesce(\(type) = '\(flag)', 0)"
    case .null: "coalesce(\(type) = 'null', 0)"
    }
  }

  func listContains(_ element: String) -> String {
    "EXISTS (SELECT 1 FROM json_each(rec, \(path)) WHERE value = \(OracleText.sqlQuoted(element)))"
  }

  /// `ORDER BY` terms for `sort`: null and absent last either way, then the values.
  func order(descending: Bool) -> [String] {
    let direction = descending ? " DESC" : ""
    let last = "(\(type) IS NULL OR \(type) = 'null')"
    switch shape {
    case .list:
      // Element by element, a shorter list first when it is a prefix: the elements, each
      // ended by a byte below any they hold, compare so as bytes.
      return [
        last,
        "coalesce((SELECT group_concat(value || char(1), '') FROM json_each(rec, \(path))), '')\(direction)",
      ]
    case .json:
      // JSONOrder: numbers, then strings, then booleans; each by its own order.
      return [
        last,
        "(CASE WHEN \(type) IN ('integer', 'real') THEN 0 WHEN \(type) = 'text' THEN 1 ELSE 2 END)"
          + direction,
        "(CASE WHEN \(type) IN ('integer', 'real') THEN \(value) END)\(direction)",
        "(CASE WHEN \(type) = 'text' THEN \(value) END)\(direction)",
        "(CASE WHEN \(type) IN ('true', 'false') THEN \(value) END)\(direction)",
      ]
    default: return [last, "\(value)\(direction)"]
    }
  }
}

private enum OracleOperator: String, CaseIterable {
  case equal = "="
  case notEqual = "!="
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="
  case contains = "~"
  case isNull = "=null"
  case isNotNull = "!=null"
}

private struct OracleFilter {
  enum Operand {
    case null
    case needle(String)
    case value(OracleValue, bare: Bool)
  }

  let field: OracleField
  let op: OracleOperator
  let operand: Operand

  var recsh: String {
    switch operand {
    case .null: field.name + op.rawValue
    case .needle(let needle): field.name + "~" + (needle.isEmpty ? "\"\"" : needle)
    case .value(let value, let bare): field.name + op.rawValue + value.typed(bare: bare)
    }
  }

  var sql: String {
    switch (op, operand) {
    case (.isNull, _): return "NOT \(field.present)"
    case (.isNotNull, _): return field.present
    case (_, .needle(let needle)):
      return
        "(\(field.present) AND instr(lower(\(field.display)), lower(\(OracleText.sqlQuoted(needle)))) > 0)"
    case (_, .value(let value, _)):
      // recsh: a comparison with a value never matches null or absent, and `!=` is the
      // negation of `=`, so it does match them.
      let sqlOp = op == .notEqual ? "=" : op.rawValue
      let positive: String
      if field.shape == .list {
        guard case .text(let element) = value else { preconditionFailure("a list holds strings") }
        positive = field.listContains(element)
      } else {
        let types = field.shape == .json ? value.sqlTypes : field.sqlTypes
        positive =
          "(\(field.type) IS NOT NULL AND \(field.type) IN \(types) "
          + "AND \(field.value) \(sqlOp) \(value.sqlLiteral))"
      }
      return op == .notEqual ? "NOT coalesce(\(positive), 0)" : "coalesce(\(positive), 0)"
    case (_, .null): preconditionFailure("a value operator without a value")
    }
  }
}

extension OracleField {
  fileprivate var sqlTypes: String {
    switch shape {
    case .integer, .number: "('integer', 'real')"
    case .string, .date: "('text')"
    case .bool: "('true', 'false')"
    case .list: "('array')"
    case .json: "('integer', 'real', 'text', 'true', 'false')"
    }
  }
}

/// `list FILTERS sort … limit N fields KEY` and `count FILTERS`, and the same in SQL.
private struct OracleQuery {
  let key: String
  let filters: [OracleFilter]
  let sort: [(field: OracleField, descending: Bool)]
  let limit: Int?

  var list: String {
    var words = ["list"] + filters.map(\.recsh)
    if !sort.isEmpty {
      words += ["sort", sort.map { ($0.descending ? "-" : "") + $0.field.name }.joined(separator: ",")]
    }
    if let limit { words += ["limit", String(limit)] }
    return (words + ["fields", key]).joined(separator: " ")
  }

  var recshLines: String {
    list + "\n" + (["count"] + filters.map(\.recsh)).joined(separator: " ") + "\n"
  }

  var condition: String {
    filters.isEmpty ? "1" : filters.map(\.sql).joined(separator: " AND ")
  }

  var select: String {
    let terms = sort.flatMap { $0.field.order(descending: $0.descending) } + ["pos"]
    return "SELECT json_extract(rec, '$.\(key)') FROM r WHERE \(condition) ORDER BY "
      + terms.joined(separator: ", ") + (limit.map { " LIMIT \($0)" } ?? "") + ";"
  }

  var sql: String {
    select + "\nSELECT 'count ' || count(*) FROM r WHERE \(condition);\n"
  }
}

/// A bulk edit: its recsh command, the SQL that makes it, and the name of its step.
private struct OracleEdit {
  enum Change {
    case set([(OracleField, OracleValue)])
    case unset(OracleField)
    case add(OracleField, String)
    case remove(OracleField, String)
    case delete
  }

  let change: Change
  let filters: [OracleFilter]

  var recsh: String {
    let condition = "where " + filters.map(\.recsh).joined(separator: " ")
    switch change {
    case .set(let pairs):
      let assigned = pairs.map { ($0.custom ? "+" : "") + $0.name + " " + $1.typed(bare: false) }
      return "set " + assigned.joined(separator: " ") + " " + condition
    case .unset(let field): return "unset \(field.name) \(condition)"
    case .add(let field, let element):
      return "add \(field.name) \(OracleValue.text(element).typed(bare: true)) \(condition)"
    case .remove(let field, let element):
      return "remove \(field.name) \(OracleValue.text(element).typed(bare: true)) \(condition)"
    case .delete: return "delete \(condition)"
    }
  }

  /// The step recsh records, named for what it did: the fields it changed (`fields`
  /// holds how many records each of a `set` changed) and on how many records; none when it
  /// changed none.
  func stepName(changed: Int, fields: [Int]) -> String? {
    guard changed > 0 else { return nil }
    let records = "\(changed) record\(changed == 1 ? "" : "s")"
    switch change {
    case .set(let pairs):
      let names = zip(pairs, fields).filter { $1 > 0 }.map(\.0.0.name)
      return "Set \(names.joined(separator: ", ")) on \(records)"
    case .unset(let field): return "Unset \(field.name) on \(records)"
    case .add(let field, _): return "Add to \(field.name) on \(records)"
    case .remove(let field, _): return "Remove from \(field.name) on \(records)"
    case .delete: return "Delete \(records)"
    }
  }

  /// Whether the change may give a record a key it did not have.
  private var addsKeys: Bool {
    switch change {
    case .set, .add: true
    case .unset, .remove, .delete: false
    }
  }

  /// The records a change changes among those that match (a record already holding the
  /// value is not counted, nor changed).
  private var changes: String {
    switch change {
    case .set(let pairs): "(" + pairs.map { "NOT \($0.holds($1))" }.joined(separator: " OR ") + ")"
    case .unset(let field): "\(field.type) IS NOT NULL"
    case .add(let field, let element): "NOT \(field.listContains(element))"
    case .remove(let field, let element): field.listContains(element)
    case .delete: "1"
    }
  }

  private var update: String {
    switch change {
    case .set(let pairs):
      let assigned = pairs.map { "\($0.path), \($1.sqlJSON)" }.joined(separator: ", ")
      return "UPDATE r SET rec = json_set(rec, \(assigned))"
    case .unset(let field): return "UPDATE r SET rec = json_remove(rec, \(field.path))"
    case .add(let field, let element):
      let quoted = OracleText.sqlQuoted(element)
      return """
        UPDATE r SET rec = CASE WHEN \(field.type) IS NULL \
        THEN json_set(rec, \(field.path), json_array(\(quoted))) \
        ELSE json_insert(rec, '$.\(field.name)[#]', \(quoted)) END
        """
    case .remove(let field, let element):
      // The first element equal to it goes.
      return """
        UPDATE r SET rec = json_remove(rec, '$.\(field.name)[' || (SELECT min(CAST(key AS INTEGER)) \
        FROM json_each(rec, \(field.path)) WHERE value = \(OracleText.sqlQuoted(element))) || ']')
        """
    case .delete: return "DELETE FROM r"
    }
  }

  /// `keyOrder`: the order a shipped kind writes its keys in (then custom keys in their
  /// order), into which an edit that adds a key puts the record back.
  func sql(keyOrder: [String]?) -> String {
    let matching = filters.map(\.sql).joined(separator: " AND ")
    var counts = [
      "(SELECT count(*) FROM r WHERE \(matching))",
      "(SELECT count(*) FROM r WHERE \(matching) AND \(changes))",
    ]
    if case .set(let pairs) = change {
      counts += pairs.map { "(SELECT count(*) FROM r WHERE \(matching) AND NOT \($0.holds($1)))" }
    }
    return """
      SELECT 'edit ' || \(counts.joined(separator: " || ' ' || "));
      \(update) WHERE \(matching) AND \(changes);
      \(OracleSQL.dropEmptyObjects)
      \(addsKeys ? keyOrder.map(OracleSQL.reorder) ?? "" : "")
      SELECT rec FROM r ORDER BY pos;
      SELECT 'count ' || count(*) FROM r;

      """
  }
}

private enum OracleSQL {
  /// The table `r`: one row per record, `pos` its place in the file, `rec` its JSON.
  static func load(_ file: String) -> String {
    "CREATE TABLE r AS SELECT CAST(key AS INTEGER) AS pos, value AS rec "
      + "FROM json_each(readfile('\(file)'));\n"
  }

  /// Rewrites every record with its keys in `order`, then any others as they were: a
  /// shipped kind writes its records so (`json_set` appends a key it adds). Each value is
  /// carried over as JSON text (`->`), so numbers keep their spelling.
  static func reorder(_ order: [String]) -> String {
    let rank = order.enumerated().map { "WHEN '\($1)' THEN \($0)" }.joined(separator: " ")
    return """
      UPDATE r SET rec = (SELECT json_group_object(key, json(member)) FROM (SELECT key, \
      (r.rec -> ('$."' || key || '"')) AS member FROM json_each(r.rec) \
      ORDER BY CASE key \(rank) ELSE \(order.count) END, id));
      """
  }

  /// recsh writes no empty nested object: unsetting the last member of `place` removes
  /// `place` (`CustomFields[member:]`); `json_remove` leaves `{}`.
  static let dropEmptyObjects =
    "UPDATE r SET rec = json_remove(rec, '$.place') WHERE json_type(rec, '$.place') = 'object' "
    + "AND NOT EXISTS (SELECT 1 FROM json_each(rec, '$.place'));"
}

// MARK: - The records

/// Which kind the records are opened as.
private enum OracleVariant: CustomStringConvertible {
  /// A run-time kind from `items.schema.json` beside the file; `extra` is a custom field.
  case schema
  /// The same records with no schema: a kind inferred from them; `extra` holds values of
  /// several types, so it is a field of any JSON.
  case inferred
  /// The shipped `task` kind; `extra` is a custom field.
  case task

  var description: String {
    switch self {
    case .schema: "schema kind"
    case .inferred: "inferred kind"
    case .task: "task kind"
    }
  }

  var fileName: String {
    switch self {
    case .schema: "items.json"
    case .inferred: "loose.json"
    case .task: "tasks.json"
    }
  }

  var arguments: [String] {
    self == .task ? [fileName, "--kind", "task"] : [fileName]
  }

  var key: String { "id" }

  /// The order the task kind writes its members in: `id`, its fields, then custom keys.
  var keyOrder: [String]? {
    self == .task ? ["id", "title", "detail", "done", "priority", "tags", "due"] : nil
  }
  var narrowField: String { self == .task ? "id" : "n" }

  var tagWords: [String] {
    ["red", "green", "blue", "Red", "two words", "café", "日本", "x"]
  }

  var schema: String? {
    guard self == .schema else { return nil }
    return """
      {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "items",
        "type": "object",
        "properties": {
          "id": {"type": "integer"},
          "n": {"type": "integer"},
          "price": {"type": "number"},
          "name": {"type": "string"},
          "flag": {"type": "boolean"},
          "day": {"type": "string", "format": "date"},
          "note": {"type": ["string", "null"]},
          "tags": {"type": "array", "items": {"type": "string"}},
          "place": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "zip": {"type": "string"}}
          }
        },
        "required": ["id", "name"]
      }

      """
  }

  /// Strings with non-ASCII letters, mixed case, the empty string, the word `null`, a
  /// number's spelling, quotes and a backslash.
  static let words = [
    "apple", "Apple", "APPLE", "", "banana", "Bananas", "café", "Café", "naïve", "Ärger", "über", "Zebra",
    "zebra", "日本", "日本語", "🎉 party", "a b", "a", "b", "null", "3", "O'Brien", "say \"hi\"", "back\\slash",
    "Straße", "ø", "Ω omega", "z",
  ]
  static let syllables = ["ka", "Lo", "mé", "ß", "ü", "X", "zz", " ", "ap", "É", "日"]

  /// A string: most often one of `words` (so that `=` finds some), else made of syllables.
  static func word(using random: inout SplitMix64) -> String {
    if random.chance(65) { return random.pick(words) }
    return (0..<(1 + random.below(3))).map { _ in random.pick(syllables) }.joined()
  }

  static func date(using random: inout SplitMix64) -> String {
    let year = 2024 + random.below(4)
    let month = 1 + random.below(12)
    let days = [31, year % 4 == 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    let day = 1 + random.below(days)
    return String(format: "%04d-%02d-%02d", year, month, day)
  }

  /// A number of quarters spelled one of several ways (`12.5`, `12.50`, `125e-1`, `1.25E1`).
  static func decimal(using random: inout SplitMix64) -> String {
    let quarters = random.below(81) - 40
    let sign = quarters < 0 ? "-" : ""
    let whole = abs(quarters) / 4
    let fraction = ["", ".25", ".5", ".75"][abs(quarters) % 4]
    switch random.below(5) {
    case 0 where fraction.isEmpty: return "\(sign)\(whole).0"
    case 1: return "\(sign)\(whole)\(fraction.isEmpty ? ".00" : fraction + "0")"
    case 2: return "\(sign)\(abs(quarters) * 25)e-2"
    case 3 where whole > 0: return "\(sign)\(Double(abs(quarters)) / 40)E1"
    default: return "\(sign)\(whole)\(fraction)"
    }
  }

  static let jsonValues: [OracleValue] = [
    .number("3"), .number("3.0"), .number("-1"), .number("2.5"), .number("0"), .text("3"), .text("abc"),
    .text("Abc"), .text("zz"), .text(""), .text("null"), .bool(true), .bool(false),
  ]

  func makeFile(records count: Int, using random: inout SplitMix64) -> OracleFile {
    guard self != .task else { return Self.taskFile(count, using: &random) }
    var file = Self.itemsFile(count, using: &random)
    // The schema does not declare `extra`: a custom field, which `set` names `+extra`.
    for index in file.fields.indices where file.fields[index].name == "extra" {
      file.fields[index].custom = self == .schema
    }
    return file
  }

  // MARK: Run-time kinds

  private static func itemsFile(_ count: Int, using random: inout SplitMix64) -> OracleFile {
    var ids = Set<Int>()
    var records: [[(String, String)]] = []
    var names: [String] = []
    var dates: [String] = []
    var decimals: [String] = []
    while ids.count < count { ids.insert(1 + random.below(999)) }
    var order = Array(ids).sorted()
    for index in order.indices.reversed() { order.swapAt(index, random.below(index + 1)) }
    for id in order {
      var members: [(String, String)] = [("id", String(id))]
      if random.chance(85) { members.append(("n", random.chance(3) ? "-0" : String(random.below(41) - 20))) }
      if random.chance(80) {
        decimals.append(decimal(using: &random))
        members.append(("price", decimals[decimals.count - 1]))
      }
      names.append(word(using: &random))
      members.append(("name", OracleValue.text(names[names.count - 1]).json))
      if random.chance(75) { members.append(("flag", random.chance(50) ? "true" : "false")) }
      if random.chance(80) {
        dates.append(date(using: &random))
        members.append(("day", OracleValue.text(dates[dates.count - 1]).json))
      }
      let note = random.below(10)
      if note < 5 { members.append(("note", OracleValue.text(word(using: &random)).json)) }
      if note >= 5, note < 8 { members.append(("note", "null")) }
      if random.chance(80) { members.append(("tags", tags(using: &random))) }
      if random.chance(70) { members.append(("extra", random.pick(jsonValues).json)) }
      let cities = ["Paris", "paris", "Zürich", "Berlin", "", "São Paulo"]
      switch random.below(20) {
      case 0..<8: members.append(("place", "{\"city\": \(OracleValue.text(random.pick(cities)).json)}"))
      case 8..<11:
        members.append(
          ("place", "{\"city\": \(OracleValue.text(random.pick(cities)).json), \"zip\": \"75001\"}"))
      case 11..<13: members.append(("place", "{\"zip\": \"10115\"}"))
      default: break
      }
      // Keys in another order now and then: recsh keeps each record's order.
      if random.chance(10) { members.reverse() }
      records.append(members)
    }
    var fields: [OracleField] = []
    var id = OracleField("id", .integer)
    id.values = order.prefix(20).map { .number(String($0)) } + [.number("500"), .number("1"), .number("999")]
    id.needles = ["1", "2", "50", "9"]
    id.settable = false
    fields.append(id)
    var n = OracleField("n", .integer)
    n.values = (-20...20).map { .number(String($0)) } + [.number("4.0"), .number("1e1"), .number("-0")]
    n.setValues = (-20...20).map { .number(String($0)) }
    n.needles = ["1", "-", "0", "5"]
    n.unsettable = true
    fields.append(n)
    var price = OracleField("price", .number)
    price.values = decimals.prefix(30).map { .number($0) } + [.number("0"), .number("2.5"), .number("1e1")]
    price.setValues = ["2.50", "2.5", "-3.75", "0", "1e1", "7"].map { .number($0) }
    price.needles = ["1", "5", ".", "e", "0", "25", "-"]
    price.unsettable = true
    fields.append(price)
    var name = OracleField("name", .string)
    name.values = words.map { .text($0) } + names.prefix(10).map { .text($0) }
    name.setValues = ["apple", "Zebra", "", "naïve", "日本"].map { .text($0) }
    name.needles = ["a", "AP", "b", "z", "e", "Zz", ""]
    fields.append(name)
    var flag = OracleField("flag", .bool)
    flag.values = [.bool(true), .bool(false)]
    flag.setValues = flag.values
    flag.needles = ["t", "FA", "e"]
    flag.unsettable = true
    fields.append(flag)
    var day = OracleField("day", .date)
    day.values =
      dates.prefix(20).map { .text($0) } + ["2025-01-01", "2026-06-30", "2024-02-29"].map { .text($0) }
    day.setValues = ["2025-01-01", "2026-12-01", "2024-02-29"].map { .text($0) }
    day.needles = ["2025", "-0", "12", "29"]
    day.unsettable = true
    fields.append(day)
    var note = OracleField("note", .string)
    note.values = words.map { .text($0) }
    note.setValues = ["apple", "", "Ω omega"].map { .text($0) }
    note.needles = ["a", "E", "ka", "o"]
    note.unsettable = true
    note.nullable = true
    fields.append(note)
    var tags = OracleField("tags", .list)
    tags.values = OracleVariant.schema.tagWords.map { .text($0) }
    tags.needles = ["r", "E", "wo", "x"]
    tags.settable = false
    tags.unsettable = true
    fields.append(tags)
    var extra = OracleField("extra", .json)
    extra.values = jsonValues
    extra.setValues = jsonValues
    extra.needles = ["3", "a", "T", "0", "z"]
    extra.unsettable = true
    fields.append(extra)
    var city = OracleField("place.city", .string)
    city.values = ["Paris", "paris", "Zürich", "Berlin", "", "São Paulo", "Rome"].map { .text($0) }
    city.setValues = ["Paris", "Rome"].map { .text($0) }
    city.needles = ["PA", "r", "s", ""]
    city.unsettable = true
    fields.append(city)
    return OracleFile(records: records, fields: fields)
  }

  static func tags(using random: inout SplitMix64) -> String {
    let words = OracleVariant.schema.tagWords
    var chosen: [String] = []
    for _ in 0..<random.below(4) {
      let word = random.pick(words)
      // Now and then twice: `remove` takes out the first.
      if !chosen.contains(word) || random.chance(10) { chosen.append(word) }
    }
    return "[" + chosen.map { OracleValue.text($0).json }.joined(separator: ", ") + "]"
  }

  // MARK: The task kind

  private static func taskFile(_ count: Int, using random: inout SplitMix64) -> OracleFile {
    let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    var ids: [String] = []
    var seen = Set<String>()
    var records: [[(String, String)]] = []
    var titles: [String] = []
    var dates: [String] = []
    while ids.count < count {
      let id = String((0..<8).map { _ in random.pick(letters) })
      if seen.insert(id).inserted { ids.append(id) }
    }
    for id in ids {
      var members: [(String, String)] = [("id", OracleValue.text(id).json)]
      if random.chance(90) {
        titles.append(word(using: &random))
        members.append(("title", OracleValue.text(titles[titles.count - 1]).json))
      }
      if random.chance(50) { members.append(("detail", OracleValue.text(word(using: &random)).json)) }
      if random.chance(80) { members.append(("done", random.chance(50) ? "true" : "false")) }
      if random.chance(80) { members.append(("priority", String(random.below(6)))) }
      if random.chance(80) { members.append(("tags", tags(using: &random))) }
      switch random.below(20) {
      case 0..<11:
        dates.append(date(using: &random))
        members.append(("due", OracleValue.text(dates[dates.count - 1]).json))
      case 11..<15: members.append(("due", "null"))
      default: break
      }
      if random.chance(30) { members.append(("extra", random.pick(jsonValues).json)) }
      records.append(members)
    }
    var fields: [OracleField] = []
    var id = OracleField("id", .string)
    id.values =
      ids.prefix(20).map { .text($0) } + ids.prefix(5).map { .text(String($0.prefix(3))) } + [.text("m")]
    id.needles = ["a", "0", "Q", "z9"]
    id.settable = false
    fields.append(id)
    var title = OracleField("title", .string)
    title.values = words.map { .text($0) } + titles.prefix(10).map { .text($0) }
    title.setValues = ["apple", "Zebra", "", "日本"].map { .text($0) }
    title.needles = ["a", "AP", "b", "z", "e", ""]
    fields.append(title)
    var detail = OracleField("detail", .string)
    detail.values = words.map { .text($0) }
    detail.setValues = ["banana", "O'Brien"].map { .text($0) }
    detail.needles = ["a", "n", "LO"]
    fields.append(detail)
    var done = OracleField("done", .bool)
    done.values = [.bool(true), .bool(false)]
    done.setValues = done.values
    done.needles = ["t", "FA", "e"]
    fields.append(done)
    var priority = OracleField("priority", .integer)
    priority.values = (0...5).map { .number(String($0)) }
    priority.setValues = priority.values
    priority.needles = ["1", "5", "0"]
    fields.append(priority)
    var tags = OracleField("tags", .list)
    tags.values = OracleVariant.task.tagWords.map { .text($0) }
    tags.needles = ["r", "E", "wo", "x"]
    tags.settable = false
    fields.append(tags)
    var due = OracleField("due", .date)
    due.values =
      dates.prefix(20).map { .text($0) } + ["2025-01-01", "2026-06-30", "2024-02-29"].map { .text($0) }
    due.setValues = ["2025-01-01", "2026-12-01"].map { .text($0) }
    due.needles = ["2025", "-0", "12"]
    due.unsettable = true
    due.nullable = true
    fields.append(due)
    var extra = OracleField("extra", .json)
    extra.values = jsonValues
    extra.setValues = jsonValues
    extra.needles = ["3", "a", "T", "0"]
    extra.unsettable = true
    extra.custom = true
    fields.append(extra)
    return OracleFile(records: records, fields: fields)
  }
}

/// The records of a test, and the fields the queries use.
private struct OracleFile {
  var records: [[(String, String)]]
  var fields: [OracleField]

  /// The file: an array of objects, keys as given.
  var text: String {
    "[\n"
      + records.map { members in
        "  {" + members.map { "\(OracleText.jsonQuoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
      }.joined(separator: ",\n") + "\n]\n"
  }
}

// MARK: - Quoting

/// Quoting for the texts the binary's tests type: JSON (which recsh's double-quoted words
/// read the same), recsh, SQL.
enum OracleText {
  static func jsonQuoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// In double quotes for recsh, `"` and `\` escaped.
  static func recshQuoted(_ text: String) -> String { jsonQuoted(text) }

  static func sqlQuoted(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
  }
}

// MARK: - Reading the two outputs

/// A JSON value compared by meaning: numbers by value (`2.50` is `2.5`), objects
/// regardless of the order of their keys.
private indirect enum JSONTree: Equatable, CustomStringConvertible {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONTree])
  case object([String: JSONTree])

  /// Parses one JSON text (a line of output). Throws on anything that is not JSON.
  static func parse(_ line: Substring) throws -> JSONTree {
    var parser = JSONLineParser(bytes: Array(line.utf8))
    let value = try parser.value()
    parser.skipSpace()
    guard parser.index == parser.bytes.count else { throw OracleFailure.badLine(String(line)) }
    return value
  }

  var description: String {
    switch self {
    case .null: "null"
    case .bool(let flag): "\(flag)"
    case .number(let number): "\(number)"
    case .string(let text): OracleText.jsonQuoted(text)
    case .array(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
    case .object(let members):
      "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
        + "}"
    }
  }

  /// A key as text: a string as it is, a number as an integer when it is one.
  var keyText: String {
    switch self {
    case .string(let text): text
    case .number(let number) where number == number.rounded(): String(Int(number))
    default: description
    }
  }
}

/// A small JSON reader for the tests' lines, independent of recsh's own: strict enough
/// for output that is JSON, numbers read as `Double` (values here have few digits).
private struct JSONLineParser {
  let bytes: [UInt8]
  var index = 0

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  private mutating func take(_ byte: UInt8) throws {
    skipSpace()
    guard index < bytes.count, bytes[index] == byte else { throw failure }
    index += 1
  }

  private var failure: OracleFailure { .badLine(String(decoding: bytes, as: UTF8.self)) }

  mutating func value() throws -> JSONTree {
    skipSpace()
    guard index < bytes.count else { throw failure }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      var members: [String: JSONTree] = [:]
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      repeat {
        skipSpace()
        let key = try string()
        try take(UInt8(ascii: ":"))
        members[key] = try value()
        skipSpace()
      } while try more(closing: UInt8(ascii: "}"))
      return .object(members)
    case UInt8(ascii: "["):
      index += 1
      var items: [JSONTree] = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      repeat {
        items.append(try value())
        skipSpace()
      } while try more(closing: UInt8(ascii: "]"))
      return .array(items)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    default:
      let start = index
      while index < bytes.count, "+-.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
      guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else { throw failure }
      return .number(number)
    }
  }

  /// After a member or element: `,` (more follow) or the closing bracket.
  private mutating func more(closing: UInt8) throws -> Bool {
    guard index < bytes.count else { throw failure }
    index += 1
    if bytes[index - 1] == UInt8(ascii: ",") { return true }
    guard bytes[index - 1] == closing else { throw failure }
    return false
  }

  private mutating func literal(_ word: String, _ value: JSONTree) throws -> JSONTree {
    let end = index + word.utf8.count
    guard end <= bytes.count, bytes[index..<end].elementsEqual(word.utf8) else { throw failure }
    index = end
    return value
  }

  private mutating func string() throws -> String {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure }
    index += 1
    var scalars = String.UnicodeScalarView()
    var plain: [UInt8] = []
    func flush() {
      scalars.append(contentsOf: String(decoding: plain, as: UTF8.self).unicodeScalars)
      plain.removeAll()
    }
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: "\"") {
        flush()
        return String(scalars)
      }
      guard byte == UInt8(ascii: "\\") else {
        plain.append(byte)
        continue
      }
      flush()
      guard index < bytes.count else { throw failure }
      let escape = bytes[index]
      index += 1
      switch escape {
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "b"): scalars.append("\u{8}")
      case UInt8(ascii: "f"): scalars.append("\u{C}")
      case UInt8(ascii: "u"):
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
          try take(UInt8(ascii: "\\"))
          guard index < bytes.count, bytes[index] == UInt8(ascii: "u") else { throw failure }
          index += 1
          code = 0x10000 + ((code - 0xD800) << 10) + (try hex4() - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw failure }
        scalars.append(scalar)
      default: scalars.append(Unicode.Scalar(escape))
      }
    }
    throw failure
  }

  private mutating func hex4() throws -> UInt32 {
    guard index + 4 <= bytes.count,
      let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
    else { throw failure }
    index += 4
    return code
  }
}

/// recsh's output: each `list` then a `count` (`{"count": N}`), then the history.
private struct ShellLines {
  private var lines: ArraySlice<Substring>

  init(_ text: String) {
    // An empty `list` prints an empty line.
    lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
  }

  private mutating func block() throws -> (lines: [Substring], count: Int) {
    var taken: [Substring] = []
    while let line = lines.popFirst() {
      if line.hasPrefix("{\"count\": "), let count = Int(line.dropFirst(10).dropLast()) {
        return (taken, count)
      }
      taken.append(line)
    }
    throw OracleFailure.outputEnded("recsh")
  }

  mutating func keysAndCount() throws -> ([String], Int) {
    let (found, count) = try block()
    let keys = try found.map { line -> String in
      // `{"id":3}` or `{"id":"k3x9p2aa"}` (ids need no escapes); anything else the long way.
      let prefix = "{\"id\":"
      if line.hasPrefix(prefix), line.hasSuffix("}"), !line.contains(",") {
        let key = line.dropFirst(prefix.count).dropLast()
        return String(key.hasPrefix("\"") ? key.dropFirst().dropLast() : key)
      }
      guard case .object(let members) = try JSONTree.parse(line), let key = members["id"] else {
        throw OracleFailure.badLine(String(line))
      }
      return key.keyText
    }
    return (keys, count)
  }

  mutating func records() throws -> [Substring] {
    try block().lines
  }

  mutating func historyNames() throws -> [String] {
    try lines.map { line in
      guard case .object(let members) = try JSONTree.parse(line), case .string(let name)? = members["name"]
      else {
        throw OracleFailure.badLine(String(line))
      }
      return name
    }
  }
}

/// sqlite3's output: the same blocks, each ended by `count N`; before each edit's records,
/// `edit MATCHED CHANGED`.
private struct OracleLines {
  private var lines: ArraySlice<Substring>

  init(_ text: String) {
    lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
  }

  private mutating func block() throws -> (lines: [Substring], count: Int) {
    var taken: [Substring] = []
    while let line = lines.popFirst() {
      if line.hasPrefix("count "), let count = Int(line.dropFirst(6)) { return (taken, count) }
      taken.append(line)
    }
    throw OracleFailure.outputEnded("sqlite3")
  }

  mutating func keysAndCount() throws -> ([String], Int) {
    let (found, count) = try block()
    return (found.map(String.init), count)
  }

  /// `edit MATCHED CHANGED [CHANGED BY EACH FIELD OF A SET]...`.
  mutating func editCounts() throws -> (matched: Int, changed: Int, fields: [Int]) {
    guard let line = lines.popFirst(), line.hasPrefix("edit ") else {
      throw OracleFailure.outputEnded("sqlite3")
    }
    let numbers = line.dropFirst(5).split(separator: " ").compactMap { Int($0) }
    guard numbers.count >= 2 else { throw OracleFailure.badLine(String(line)) }
    return (numbers[0], numbers[1], Array(numbers.dropFirst(2)))
  }

  mutating func records() throws -> [Substring] {
    try block().lines
  }
}

/// The `sqlite3` command-line tool, which CI installs (`scripts/setup`).
private enum SQLite {
  struct Missing: Error, CustomStringConvertible {
    var description: String {
      "sqlite3 is the oracle of QueryOracleTests and is not on PATH: "
        + "scripts/setup installs it (apt-get install sqlite3)"
    }
  }

  struct Failed: Error, CustomStringConvertible {
    let status: Int32
    let stderr: String
    var description: String { "sqlite3 failed (status \(status)): \(stderr.prefix(2000))" }
  }

  /// Runs the SQL file `script` in `folder` on an in-memory database; its output.
  static func run(script: String, in folder: TempFolder) throws -> String {
    let result = try RecshBinary.runShell(
      "command -v sqlite3 >/dev/null || exit 127; exec sqlite3 -batch -bail :memory: '.read \(script)'",
      directory: folder.url)
    if result.status == 127 { throw Missing() }
    guard result.status == 0, result.stderr.isEmpty else {
      throw Failed(status: result.status, stderr: result.stderr)
    }
    return result.stdout
  }
}

/// The draws the oracle makes from RecordKit's `SplitMix64`, which is fully specified, so
/// that a seed means the same records and queries on every machine and Swift version (the
/// standard library's `random(in:using:)` may change how it draws).
extension SplitMix64 {
  /// A number in `0..<bound` (the tiny bias of `%` does not matter here).
  fileprivate mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
  fileprivate mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
  fileprivate mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
