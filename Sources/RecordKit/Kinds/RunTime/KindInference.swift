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
    if members.text.isEmpty {
      table.objectCount += 1
    } else {
      members.text.withUnsafeBufferPointer { text in add(text, 0..<text.count, to: &table, depth: 0) }
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

  /// Adds the members of the object `text[object]` (canonical text) to `table`.
  private mutating func add(
    _ text: UnsafeBufferPointer<UInt8>, _ object: Range<Int>, to table: inout KeyTable, depth: Int
  ) {
    table.objectCount += 1
    // Each key's statistics are changed in place: copies of them would retain and release
    // strings and arrays for every member of every record.
    var place = 0
    CanonicalJSON.forEachMember(text, object) { key, value in
      defer { place += 1 }
      guard
        let index = table.slot(of: key, in: text, place: place)
          ?? newSlot(CanonicalJSON.string(text, key), in: &table)
      else {
        untypedKeys += 1
        return true
      }
      table.stats[index].count += 1
      record(text, value, in: &table.stats[index], depth: depth)
      return true
    }
  }

  private mutating func newSlot(_ key: String, in table: inout KeyTable) -> Int? {
    guard fieldCount < Self.fieldLimit else { return nil }
    fieldCount += 1
    return table.insert(key)
  }

  /// Adds the value `text[value]` (canonical text) to a key's statistics.
  private mutating func record(
    _ text: UnsafeBufferPointer<UInt8>, _ value: Range<Int>, in stats: inout KeyStats, depth: Int
  ) {
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

/// The kinds of value a key has held, one bit each.
struct ValueKinds: OptionSet {
  let rawValue: UInt8
  static let null = ValueKinds(rawValue: 1)
  static let bool = ValueKinds(rawValue: 2)
  static let integer = ValueKinds(rawValue: 4)
  static let number = ValueKinds(rawValue: 8)
  static let string = ValueKinds(rawValue: 16)
  static let array = ValueKinds(rawValue: 32)
  static let object = ValueKinds(rawValue: 64)

  init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  /// The kind of the value whose canonical text is `text[value]`.
  init(_ text: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) {
    switch text[value.lowerBound] {
    case UInt8(ascii: "n"): self = .null
    case UInt8(ascii: "t"), UInt8(ascii: "f"): self = .bool
    case UInt8(ascii: "\""): self = .string
    case UInt8(ascii: "["): self = .array
    case UInt8(ascii: "{"): self = .object
    default:
      let isWhole = !text[value].contains {
        $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
      }
      self = isWhole ? .integer : .number
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

  /// The slot of the key whose string token is `text[token]`: tried at `place` (where
  /// records put it before) first, by its bytes, then hashed.
  func slot(of token: Range<Int>, in text: UnsafeBufferPointer<UInt8>, place: Int) -> Int? {
    if place < tokens.count,
      tokens[place].withUnsafeBufferPointer({
        CanonicalJSON.sameBytes($0, UnsafeBufferPointer(rebasing: text[token]))
      })
    {
      return place
    }
    return slots[CanonicalJSON.string(text, token)]
  }

  mutating func insert(_ key: String) -> Int {
    keys.append(key)
    tokens.append(CanonicalJSON.token(of: key))
    stats.append(KeyStats())
    slots[key] = keys.count - 1
    return keys.count - 1
  }
}
