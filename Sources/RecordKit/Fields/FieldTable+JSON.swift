/// Records to and from JSON objects, through the field table.
///
/// Key order written: `id`, then the declared fields in table order (a nested
/// object such as `address` where its first field stands, its undeclared keys
/// after its declared ones), then the custom keys in the order they were read.
/// A nested object with nothing in it is not written.
extension FieldTable {
  /// Writes the record's members, in `encode`'s order, straight to `writer`:
  /// saving a flat kind builds no object per record. The record is reached through a
  /// pointer's `pointee` (an addressor): passed by value, it was copied for each record.
  func write(_ record: UnsafePointer<Root>, to writer: inout JSONWriter) {
    guard !keepsAllMembers else {
      // Every member is in the record's text, which is copied (containers re-laid out).
      record.pointee.custom.write(to: &writer)
      return
    }
    guard !hasNestedObjects else {
      for member in encode(record.pointee).members {
        writer.key(member.key)
        writer.value(member.value)
      }
      return
    }
    fields.withUnsafeBufferPointer { fields in
      for field in fields { field.write(record, to: &writer) }
    }
    record.pointee.custom.write(to: &writer)
  }

  public func encode(_ record: Root) -> JSONObject {
    encode(record, custom: record.custom.members)
  }

  /// `encode(_:)` with the record's custom members decoded already (`custom`: they are
  /// kept as text, and a save that compares a record with its original decodes them once
  /// for both when they are the same).
  func encode(_ record: Root, custom: [JSONObject.Member]) -> JSONObject {
    if keepsAllMembers { return JSONObject(custom) }
    var object = JSONObject()
    object.members.reserveCapacity(fields.count + custom.count)
    // Saving calls this for every record: a kind without nested objects skips looking
    // for dots in field names.
    if !hasNestedObjects {
      for field in fields {
        guard let value = field.json(in: record) else { continue }
        object.members.append(JSONObject.Member(key: field.name, value: value))
      }
      object.members += custom
      return object
    }
    var nested: [String: JSONObject] = [:]
    var nestedOrder: [String] = []
    for field in fields {
      guard let value = field.json(in: record) else {
        if let (parent, _) = Self.split(field.name), nested[parent] == nil, nestedObject(parent) != nil {
          nested[parent] = JSONObject()
          nestedOrder.append(parent)
          object.members.append(JSONObject.Member(key: parent, value: .null))
        }
        continue
      }
      if let (parent, child) = Self.split(field.name), nestedObject(parent) != nil {
        if nested[parent] == nil {
          nested[parent] = JSONObject()
          nestedOrder.append(parent)
          object.members.append(JSONObject.Member(key: parent, value: .null))
        }
        nested[parent]?.members.append(JSONObject.Member(key: child, value: value))
      } else {
        object.members.append(JSONObject.Member(key: field.name, value: value))
      }
    }
    for parent in nestedOrder {
      guard var inner = nested[parent], let spec = nestedObject(parent) else { continue }
      inner.members += record[keyPath: spec.extras].members
      object[parent] = inner.isEmpty ? nil : .object(inner)
    }
    object.members += custom
    return object
  }

  /// The record a file's object describes. The id is required; a declared field
  /// of the wrong type is an error naming it; other keys are kept as custom ones.
  ///
  /// A run-time kind's record keeps every member as it is (the file is checked against
  /// the kind's schema as a whole when it is read); its identity is its key's value, or,
  /// without a key, `identity` when given (the journal keeps it), else `#` and
  /// `position + 1`.
  public func decode(_ object: JSONObject, position: Int = 0, identity: String? = nil)
    throws(RecordDecodingError) -> Root
  {
    if keepsAllMembers {
      return try runTimeRecord(CustomFields(object.members), position: position, identity: identity)
    }
    guard let idValue = object["id"] else { throw .missingID }
    guard case .string(let id) = idValue, !id.isEmpty else { throw .badID(FieldError.found(idValue)) }
    var record = Root(id: id)
    var custom: [JSONObject.Member] = []
    // One reach into `fields` per record, not one per member: generic code looks up
    // the type of an array's elements at run time on each access.
    try fields.withUnsafeBufferPointer { (declared) throws(RecordDecodingError) in
      for member in object.members where member.key != "id" {
        if let index = index(ofField: member.key) {
          do throws(FieldError) {
            try declared[index].decode(member.value, into: &record)
          } catch {
            throw .field(error)
          }
        } else if hasNestedObjects, let spec = nestedObject(member.key) {
          try decodeNested(spec, member.value, into: &record)
        } else {
          custom.append(member)
        }
      }
    }
    record.custom = CustomFields(custom)
    return record
  }

  /// A record as the log keeps it (an insert, a delete): its object, and,
  /// for a kind whose records have no key, the identity beside it, which the object
  /// cannot say and later journal entries name: `{"identity": "#3", "record": {…}}`.
  func encodeForJournal(_ record: Root) -> JSONValue {
    guard keepsAllMembers, key == nil else { return .object(encode(record)) }
    return .object(JSONObject(["identity": .string(record.id), "record": .object(encode(record))]))
  }

  /// Reads back what `encodeForJournal` wrote.
  func decodeFromJournal(_ value: JSONValue) throws(RecordDecodingError) -> Root {
    guard keepsAllMembers, key == nil else {
      guard case .object(let object) = value else { throw .notAnObject(found: value.kindDescription) }
      return try decode(object)
    }
    guard case .object(let wrapper) = value, case .string(let identity)? = wrapper["identity"],
      case .object(let object)? = wrapper["record"]
    else { throw .notAnObject(found: value.kindDescription) }
    return try decode(object, identity: identity)
  }

  /// A run-time kind's record with the members `custom`, at `position` in its file: see
  /// `decode(_:position:identity:)` for its identity. Every reader of run-time records
  /// (a file's array or lines, a table's rows, the journal) makes them here.
  func runTimeRecord(_ custom: CustomFields, position: Int, identity given: String?)
    throws(RecordDecodingError)
    -> Root
  {
    var record = Root(id: try runTimeIdentity(of: custom, position: position, given: given))
    record.custom = custom
    return record
  }

  /// The identity of a run-time kind's record whose members are `custom`.
  private func runTimeIdentity(of custom: CustomFields, position: Int, given: String?)
    throws(RecordDecodingError) -> String
  {
    guard let key else { return given ?? Self.ordinalIdentity(position + 1) }
    if !key.isInteger, let text = custom.unescapedString(key.name), !text.isEmpty { return text }
    guard let value = custom[key.name] else { throw .missingKey(key.name) }
    switch value {
    case .string(let text) where !text.isEmpty && !key.isInteger: return text
    case .number(let spelling) where key.isInteger && DecimalNumber(spelling)?.isInteger == true:
      return spelling
    default: throw .badKey(key, found: FieldError.found(value))
    }
  }

  /// `#` and `number` in decimal, written digit by digit into a small string (`"#" +
  /// String(number)` went through `description` and an append: a third of the cost of
  /// an inferred record's identity). `number` must not be negative.
  static func ordinalIdentity(_ number: Int) -> String {
    var digits = 1
    var rest = number / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    return String(unsafeUninitializedCapacity: digits + 1) { buffer in
      buffer[0] = UInt8(ascii: "#")
      var rest = number
      for place in stride(from: digits, through: 1, by: -1) {
        buffer[place] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      }
      return digits + 1
    }
  }

  /// Sets the declared fields of a nested object (`address.city`) from its value, and
  /// keeps its other keys.
  private func decodeNested(_ spec: NestedObject<Root>, _ value: JSONValue, into record: inout Root)
    throws(RecordDecodingError)
  {
    guard case .object(let inner) = value else {
      throw .field(.invalidValue(field: spec.name, expected: "an object", found: FieldError.found(value)))
    }
    var extras: [JSONObject.Member] = []
    for innerMember in inner.members {
      if let field = field(named: spec.name + "." + innerMember.key) {
        do throws(FieldError) {
          try field.decode(innerMember.value, into: &record)
        } catch {
          throw .field(error)
        }
      } else {
        extras.append(innerMember)
      }
    }
    record[keyPath: spec.extras] = CustomFields(extras)
  }

  /// The record of the object at the reader, read straight from the bytes: each declared
  /// field's value goes to its field (`FieldAccessor.read(from:into:)`), and only custom
  /// keys and nested objects become `JSONValue`s: no tree per record (what that cost is
  /// in docs/PERFORMANCE.md).
  ///
  /// False when the record is not the common case of a file recsh wrote: `id` is not the
  /// first key (the record cannot be made before its id is known), a value does not fit
  /// its field, or a key comes twice. The caller then reads the object again as a tree
  /// and `decode(_:)`s it, which finds the same syntax errors at the same places and
  /// words every other error; the reader may be anywhere inside the object. Syntax
  /// errors met on the way are thrown, the same ones the tree would meet first.
  ///
  /// The record is appended to `records` (true) rather than returned. `reading`, kept by
  /// the caller for the whole file, holds the compact writer the record's members are
  /// read into as canonical text (`CustomFields`).
  ///
  /// A run-time kind's record is its object's members, all of them, read into that text
  /// (`JSONReader.readCanonicalObject`): no tree, no key strings. Its identity is its key's
  /// value (false, for the tree to word the error, when that is missing or wrong), else
  /// `identity` when given, else `#N`. The reader marks the record's members as it reads
  /// them (`MemberMarks`), and the identity, the inference and the schema's check (when
  /// `reading` has them) read them so.
  func readRecord(
    from reader: inout JSONReader, appendingTo records: inout [Root], reading: inout RecordReading,
    identity given: String? = nil
  ) throws(JSONSyntaxError) -> Bool {
    guard !keepsAllMembers else {
      guard try reader.peek() == .object else { return false }
      reading.builder.reset()
      // The reader marks the members (for the identity, the inference and the check) and
      // writes the keys as their codes, the form the record keeps, unless the schema's
      // check needs the text as it is: the record's text is then keyed after the read.
      let keying = reading.checksKeyedText
      reading.members.removeAll()
      try reader.readCanonicalObject(into: &reading.builder, members: &reading.members, keying: keying)
      // The text as the reader wrote it (valid until the builder's next write).
      let text = reading.builder.unsafeBytes
      let custom =
        keying
        ? CustomFields(keyed: text, in: &reading.texts)
        : CustomFields(canonical: text, in: &reading.texts, marks: reading.members)
      // Asked only when there is a key to give (an inferred kind's read makes no call).
      let identity = given ?? (reading.keyToken == nil ? nil : reading.keyIdentity(text))
      guard let record = try? runTimeRecord(custom, position: records.count, identity: identity) else {
        return false
      }
      records.append(record)
      if reading.inference != nil { reading.infer(marked: text) }
      reading.check(marked: text, record: records.count - 1)
      return true
    }
    guard fields.count <= 64, try reader.peek() == .object, try reader.enterObject(),
      try reader.readMemberKey(in: keyTable) == .name(0)
    else { return false }
    try reader.readColon()
    guard try reader.peek() == .string else { return false }
    let id = try reader.readStringToken()
    guard !id.isEmpty else { return false }
    // The record is made in place at the end of `records`: made in a variable and then
    // appended, it was copied, a retain and release per field.
    records.append(Root(id: id))
    let complete = try records.withUnsafeMutableBufferPointer { (stored) throws(JSONSyntaxError) -> Bool in
      try readMembers(from: &reader, into: &stored[stored.count - 1], reading: &reading)
    }
    if !complete { records.removeLast() }
    return complete
  }

  /// The members after `id` of the object `readRecord` is reading, into `record`; false
  /// when the record needs the tree (see `readRecord`). Custom members are read into
  /// `reading.builder` as canonical text, which goes to `reading.texts` with the texts
  /// of the declared fields kept as bytes.
  private func readMembers(
    from reader: inout JSONReader, into record: inout Root, reading: inout RecordReading
  )
    throws(JSONSyntaxError) -> Bool
  {
    var customKeys = JSONKeySet(base: reader.keyStack.count)
    // The custom members written so far.
    var customCount = 0
    reading.builder.reset()
    // The declared fields read so far, one bit each: a second one is a duplicate key.
    var seen: UInt64 = 1
    let complete = try fields.withUnsafeBufferPointer { (declared) throws(JSONSyntaxError) -> Bool in
      while try reader.advanceInObject() {
        switch try reader.readMemberKey(in: keyTable) {
        case .name(let index):
          let bit: UInt64 = 1 << UInt64(index)
          guard seen & bit == 0 else { return false }
          try reader.readColon()
          guard try declared[index].read(from: &reader, into: &record, texts: &reading.texts) else {
            return false
          }
          seen |= bit
        case .other(let key):
          guard customKeys.insert(key, into: &reader.keyStack) else { return false }
          try reader.readColon()
          if hasNestedObjects, let spec = nestedObject(key) {
            let value = try reader.readValue()
            do throws(RecordDecodingError) {
              try decodeNested(spec, value, into: &record)
            } catch {
              return false
            }
          } else {
            if customCount == 0 { reading.builder.beginObject() }
            // Written keyed, the form the record keeps (`KeyCodes`).
            let memberStart = reading.builder.byteCount
            reading.builder.key(key)
            _ = reading.texts.codeKeyWritten(in: &reading.builder, since: memberStart, place: customCount)
            customCount += 1
            _ = try reader.peek()
            try reader.readCanonical(into: &reading.builder)
          }
        }
      }
      return true
    }
    customKeys.removeAll(from: &reader.keyStack)
    guard complete else { return false }
    if customCount > 0 {
      reading.builder.endObject()
      record.custom = CustomFields(keyed: reading.builder.unsafeBytes, in: &reading.texts)
    }
    return true
  }

  private func nestedObject(_ name: String) -> NestedObject<Root>? {
    nestedObjects.first { $0.name == name }
  }

  private static func split(_ name: String) -> (String, String)? {
    guard let dot = name.utf8.firstIndex(of: UInt8(ascii: ".")) else { return nil }
    return (String(name[..<dot]), String(name[name.utf8.index(after: dot)...]))
  }
}

/// Why a JSON object is not a record of the kind.
public enum RecordDecodingError: Error, Equatable, Sendable {
  case notAnObject(found: String)
  case missingID
  case badID(String)
  case field(FieldError)
  /// A run-time kind's key member is missing, or not a non-empty string / an integer.
  case missingKey(String)
  case badKey(RecordKey, found: String)
}

extension RecordDecodingError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .notAnObject(let found): "expected an object, found \(found)"
    case .missingID: "no \"id\""
    case .badID(let found): "field 'id': expected a non-empty string, found \(found)"
    case .field(let error): error.description
    case .missingKey(let name): "no \"\(name)\" (the kind's key)"
    case .badKey(let key, let found):
      "field '\(key.name)' (the kind's key): expected \(key.isInteger ? "an integer" : "a non-empty string"), found \(found)"
    }
  }
}
