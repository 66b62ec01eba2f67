/// Infers a kind from records: a JSON Schema (draft 2020-12) whose `properties` are the
/// keys the records hold, each typed from every value it holds.
///
/// A key's type: `string`, `integer` (every number spelled without a fraction or an
/// exponent), `number`, `boolean`, a string in `format` `date` or `date-time` (every
/// string value is one), a list (`array`, with `items` typed the same way when its
/// elements agree), or a nested object (its keys become fields with composed paths,
/// `publisher.city`, as `address.city` is for contacts). Values that disagree give a key
/// no `type`: any JSON value. A `null` value adds `"null"` to the type; a key every record
/// holds is `required`. Keys keep the order in which they were first met.
///
/// The result goes through `RecordSchema` like a schema file, so an inferred kind and
/// its schema saved beside the file and read back are the same kind.
///
/// **Bounds.** At most `fieldLimit` keys are typed, over all nesting levels; keys met
/// after that stay custom fields of their records (and a warning says so), so a file
/// whose every record has other keys is inferred in bounded memory. Nesting is followed
/// `depthLimit` levels down; deeper objects are "any JSON value". Costs one pass over
/// the records' members; a key's slot is found by its place in the record before it is
/// hashed, since records mostly list their keys in one order.
package struct KindInference {
  static let fieldLimit = 1000
  static let depthLimit = 4

  private var fieldCount = 0
  private var root = KeyTable()
  /// Keys not typed because `fieldLimit` was reached.
  private(set) var untypedKeys = 0

  package init() {}

  /// Adds one record's members to what is known, read from their text (nothing is
  /// decoded but the strings tested as dates and the keys not met before).
  package mutating func add(_ members: CustomFields) {
    var table = root
    root = KeyTable()
    if members.isEmpty {
      table.objectCount += 1
    } else {
      members.withText { text in add(text, 0..<text.count, to: &table, depth: 0) }
    }
    root = table
  }

  /// The schema document inferred from everything added, titled `title`.
  package func schemaDocument(title: String) -> JSONValue {
    var document = JSONObject()
    document["$schema"] = .string("https://json-schema.org/draft/2020-12/schema")
    document["title"] = .string(title)
    for member in objectSchema(root, depth: 0).members { document[member.key] = member.value }
    return .object(document)
  }

  /// Adds one record's members, their text `text` as the reader wrote and marked it
  /// (`MemberMarks`). What `add(_:)` does, without finding where each key and value ends
  /// or walking a list's elements.
  mutating func add(_ text: UnsafeBufferPointer<UInt8>, members marks: MemberMarks) {
    var table = root
    root = KeyTable()
    table.objectCount += 1
    // A loop of its own, not `MemberMarks.forEach`: through its closure, `add` retained
    // the table's arrays on every member (180 instructions a record).
    for place in 0..<marks.count {
      let (key, value) = marks.member(place, of: text)
      add(text, key: key, value: value, elements: marks[place].elements, place: place, to: &table, depth: 0)
    }
    root = table
  }

  /// Adds the members of the object `text[object]` (canonical text) to `table`.
  private mutating func add(
    _ text: UnsafeBufferPointer<UInt8>, _ object: Range<Int>, to table: inout KeyTable, depth: Int
  ) {
    table.objectCount += 1
    var place = 0
    CanonicalJSON.forEachMember(text, object) { key, value in
      add(
        text, key: UnsafeBufferPointer(rebasing: text[key]), value: value, elements: nil, place: place,
        to: &table, depth: depth)
      place += 1
      return true
    }
  }

  /// Adds one member, the key token `key` and its value `text[value]`, the
  /// `place`th of its object, to `table`; `elements`: when the value is a list, its
  /// elements' kinds, if the reader told them (`MemberMarks`).
  @inline(__always)
  private mutating func add(
    _ text: UnsafeBufferPointer<UInt8>, key: UnsafeBufferPointer<UInt8>, value: Range<Int>,
    elements: ValueKinds?,
    place: Int, to table: inout KeyTable, depth: Int
  ) {
    // Each key's statistics are changed in place: copies of them would retain and release
    // strings and arrays for every member of every record.
    guard
      let index = table.slot(of: key, place: place)
        ?? newSlot(CanonicalJSON.string(key, 0..<key.count), in: &table)
    else {
      untypedKeys += 1
      return
    }
    record(text, value, elements: elements, in: &table.stats[index], depth: depth)
  }

  private mutating func newSlot(_ key: String, in table: inout KeyTable) -> Int? {
    guard fieldCount < Self.fieldLimit else { return nil }
    fieldCount += 1
    return table.insert(key)
  }

  /// Adds the value `text[value]` (canonical text) to a key's statistics, counting one
  /// more object that holds the key (in one access to them, not two). `elements`: as `add`
  /// takes them (a list's elements are walked when they are not given).
  private mutating func record(
    _ text: UnsafeBufferPointer<UInt8>, _ value: Range<Int>, elements: ValueKinds?, in stats: inout KeyStats,
    depth: Int
  ) {
    stats.count += 1
    let kind = ValueKinds(text, value)
    stats.kinds.insert(kind)
    switch kind {
    case .string:
      // A key's strings stop being looked at once one is neither a date nor a date-time.
      guard stats.allDates || stats.allDateTimes else { return }
      let string = CanonicalJSON.string(text, value)
      if stats.allDates, !StringFormat.date.admits(string) { stats.allDates = false }
      if stats.allDateTimes, !StringFormat.dateTime.admits(string) { stats.allDateTimes = false }
    case .array:
      if let elements {
        stats.elementKinds.formUnion(elements)
        return
      }
      CanonicalJSON.forEachElement(text, value) { element in
        stats.elementKinds.insert(ValueKinds(text, element))
        return true
      }
    case .object:
      guard depth + 1 < Self.depthLimit else { return }
      var nested = stats.nested ?? KeyTable()
      stats.nested = nil  // so that `nested` is the only reference, changed in place
      add(text, value, to: &nested, depth: depth + 1)
      stats.nested = nested
    default:
      break
    }
  }

  /// `type`, `properties` and `required` for objects whose keys `table` knows.
  private func objectSchema(_ table: KeyTable, depth: Int) -> JSONObject {
    var properties = JSONObject()
    var required: [JSONValue] = []
    for (key, stats) in zip(table.keys, table.stats) {
      properties.members.append(JSONObject.Member(key: key, value: .object(valueSchema(stats, depth: depth))))
      if stats.count == table.objectCount { required.append(.string(key)) }
    }
    var schema = JSONObject()
    schema["type"] = .string("object")
    schema["properties"] = .object(properties)
    if !required.isEmpty { schema["required"] = .array(required) }
    return schema
  }

  private func valueSchema(_ stats: KeyStats, depth: Int) -> JSONObject {
    var kinds = stats.kinds
    let nullable = kinds.contains(.null)
    kinds.remove(.null)
    var schema = JSONObject()
    let type: String?
    switch kinds {
    case .string:
      type = "string"
      if stats.allDates {
        schema["format"] = .string("date")
      } else if stats.allDateTimes {
        schema["format"] = .string("date-time")
      }
    case .integer: type = "integer"
    case .number, [.number, .integer]: type = "number"
    case .bool: type = "boolean"
    case .array:
      type = "array"
      if let items = Self.itemType(stats.elementKinds) {
        schema["items"] = .object(JSONObject(["type": .string(items)]))
      }
    case .object:
      type = "object"
      if let nested = stats.nested {
        for member in objectSchema(nested, depth: depth + 1).members where member.key != "type" {
          schema[member.key] = member.value
        }
      }
    default: type = nil
    }
    if let type {
      var ordered = JSONObject()
      ordered["type"] = nullable ? .array([.string(type), .string("null")]) : .string(type)
      ordered.members += schema.members
      return ordered
    }
    return schema
  }

  private static func itemType(_ kinds: ValueKinds) -> String? {
    switch kinds {
    case .string: "string"
    case .integer: "integer"
    case .number, [.number, .integer]: "number"
    case .bool: "boolean"
    default: nil
    }
  }
}

/// What is known of one key.
struct KeyStats {
  /// Records (or objects) holding the key.
  var count = 0
  var kinds: ValueKinds = []
  var elementKinds: ValueKinds = []
  var allDates = true
  var allDateTimes = true
  var nested: KeyTable?
}

/// The keys of one level of objects, in the order first met, with what is known of each.
struct KeyTable {
  var keys: [String] = []
  /// Each key's canonical string token, what a record's text is compared with.
  private var tokens: [[UInt8]] = []
  var stats: [KeyStats] = []
  var objectCount = 0
  private var slots: [String: Int] = [:]

  /// The slot of the key whose string token is `key`: tried at `place` (where
  /// records put it before) first, by its bytes; then, in a table of a few keys, every
  /// key by its bytes (a key that comes and goes moves those after it: a `String` made
  /// and hashed for each of them cost more than the comparisons); else hashed.
  func slot(of key: UnsafeBufferPointer<UInt8>, place: Int) -> Int? {
    func holds(_ slot: Int) -> Bool {
      tokens[slot].withUnsafeBufferPointer { CanonicalJSON.sameBytes($0, key) }
    }
    if place < tokens.count, holds(place) { return place }
    guard tokens.count > Self.comparedKeys else { return tokens.indices.first(where: holds) }
    return slots[CanonicalJSON.string(key, 0..<key.count)]
  }

  /// Up to how many keys a table looks for a key by comparing bytes rather than hashing.
  private static var comparedKeys: Int { 16 }

  mutating func insert(_ key: String) -> Int {
    keys.append(key)
    tokens.append(CanonicalJSON.token(of: key))
    stats.append(KeyStats())
    slots[key] = keys.count - 1
    return keys.count - 1
  }
}

/// What reading a file's records keeps from one record to the next: the compact writer a
/// record's members are read into (canonical text, its keys as codes: `KeyCodes`), and —
/// while a kind is inferred from the records, or they are checked against a schema — the
/// inference and the schema, given each record's members as the reader marked them (so
/// that neither walks the records' text again to find each member, and the check reads
/// the text while the read has just brought it into the cache).
struct RecordReading: ~Copyable {
  var builder = JSONWriter(compact: true)
  /// Where the records' texts go: many to a block (`TextArena`).
  var texts = TextArena()
  var inference: KindInference?
  /// The schema each record is checked against as it is read, and the records (0-based)
  /// whose text it refused.
  let schema: JSONSchema?
  var refused: [Int] = []
  /// The key member's name as a canonical string token, when each record is to be given
  /// its value as identity (`keyIdentity`), and whether every record so far was.
  let keyToken: [UInt8]?
  var keyed: Bool
  /// The marks of the record just read (`JSONReader.readCanonicalObject(into:members:)`).
  var members = MemberMarks()
  /// Whether the schema's check of a record (when there is one) reads its members through
  /// the marks alone, so that the reader may write the keys as their codes: found once,
  /// as the schema is not reached for every record (see `admits(marked:)`).
  let checksKeyedText: Bool

  init(inferring: Bool = false, checking schema: JSONSchema? = nil, keyedBy key: String? = nil) {
    inference = inferring ? KindInference() : nil
    self.schema = schema
    checksKeyedText = schema?.checksMembersByMarks ?? true
    keyToken = key.map(CanonicalJSON.token(of:))
    keyed = key != nil
  }

  /// The identity of the record just read, whose text is `text` (as the reader
  /// wrote it, `{}` for no members): its key
  /// member's string, when that is non-empty and has no escape (what
  /// `FieldTable.runTimeRecord` gives such a record under a kind with a string key);
  /// `nil`, noted in `keyed`, for any other record, which is then given its identity
  /// after the read.
  mutating func keyIdentity(_ text: UnsafeBufferPointer<UInt8>) -> String? {
    // Once one record is not keyed so, the read keys none (they are all keyed after it).
    guard keyed, keyToken != nil else { return nil }
    let identity = identity(of: text)
    if identity == nil { keyed = false }
    return identity
  }

  /// `keyIdentity`'s answer, found without copying `self` (as `admits(marked:)`).
  private func identity(of text: UnsafeBufferPointer<UInt8>) -> String? {
    keyToken?.withUnsafeBufferPointer { token -> String? in
      for place in 0..<members.count {
        let (key, value) = members.member(place, of: text)
        guard CanonicalJSON.sameBytes(token, key) else { continue }
        guard text[value.lowerBound] == UInt8(ascii: "\"") else { return nil }
        let inner = UnsafeBufferPointer(rebasing: text[(value.lowerBound + 1)..<(value.upperBound - 1)])
        // One scan says whether the string has an escape (its first quote or backslash is
        // then not its closing quote) and whether it is ASCII, which the string then
        // need not find out again.
        var nonASCII = false
        let stop = JSONStringScan.firstSpecial(in: text, from: value.lowerBound + 1, sawNonASCII: &nonASCII)
        guard !inner.isEmpty, stop == value.upperBound - 1 else { return nil }
        return nonASCII ? UTF8Validation.knownValidString(inner) : UTF8Validation.asciiString(inner)
      }
      return nil
    } ?? nil
  }

  /// Checks the record just read, number `index` (0-based), whose members are `custom`,
  /// against `schema` (when there is one), noting it in `refused` when its text breaks a
  /// rule: a record read through a tree.
  mutating func check(_ custom: CustomFields, record index: Int) {
    if let schema, !custom.meets(schema) { refused.append(index) }
  }

  /// `check(_:record:)` of the record just read, whose text the reader wrote as
  /// `text` (`{}` for no members) and marked in `members`.
  mutating func check(marked text: UnsafeBufferPointer<UInt8>, record index: Int) {
    if schema != nil, !admits(marked: text) { refused.append(index) }
  }

  /// Whether the record just read, `text` as marked in `members`, meets `schema` (any
  /// record does without one). Not mutating, and the schema reached by optional chaining:
  /// bound to a name, or read from a `self` a mutating method holds, it would be copied
  /// (each of its references retained) for every record. Never inlined, as `infer`.
  @inline(never)
  private func admits(marked text: UnsafeBufferPointer<UInt8>) -> Bool {
    schema?.admits(canonical: text, 0..<text.count, members: members) ?? true
  }

  /// Adds the record just read, whose text the reader wrote as `text` and marked
  /// in `members`, to the inference (changed in place: a copy of it would retain each of
  /// its tables for every record). Never inlined: inlined everywhere in RecordKit, its
  /// symbol was left out while RecordShell's cross-module copy of the read still called
  /// it (the fuzz targets failed to link).
  @inline(never)
  mutating func infer(marked text: UnsafeBufferPointer<UInt8>) {
    let marks = members
    inference?.add(text, members: marks)
  }
}
