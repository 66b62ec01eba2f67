import Foundation
import Testing

@testable import RecordKit

/// `FieldSlot`, the one type that reaches into record memory: every access, for a stored
/// field, a nested stored field and a subscript (custom) field, against the key path
/// applied the ordinary way.
@Suite struct FieldSlotTests {
  static func task() -> TaskRecord {
    var record = TaskRecord(id: "a1")
    record.title = "one"
    record.priority = 2
    record.tags = ["x", "y"]
    record.custom = CustomFields([JSONObject.Member(key: "color", value: .string("red"))])
    return record
  }

  /// Checks every access of `slot` on `record` against applying `keyPath`, moving the
  /// field through `values` (each different from the one before).
  static func check<Root, Value: Equatable>(
    _ slot: FieldSlot<Root, Value>, on start: Root, values: [Value?],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    var record = start
    for value in values {
      let before = record[keyPath: slot.keyPath]
      #expect(slot.value(in: record) == before, sourceLocation: sourceLocation)
      withUnsafePointer(to: record) { pointer in
        #expect(slot.value(at: pointer) == before, sourceLocation: sourceLocation)
      }
      // store(in:)
      var stored = record
      slot.store(value, in: &stored)
      #expect(stored[keyPath: slot.keyPath] == value, sourceLocation: sourceLocation)
      // store(at:)
      var placed = record
      withUnsafeMutablePointer(to: &placed) { slot.store(value, at: $0) }
      #expect(placed[keyPath: slot.keyPath] == value, sourceLocation: sourceLocation)
      // replace(with:at:writing:): the old value when it differs, written only when asked.
      if let value {
        var probed = record
        let unchanged = withUnsafeMutablePointer(to: &probed) {
          slot.replace(with: value, at: $0, writing: false)
        }
        #expect(unchanged == .some(before), sourceLocation: sourceLocation)
        #expect(probed[keyPath: slot.keyPath] == before, sourceLocation: sourceLocation)
        var written = record
        let replaced = withUnsafeMutablePointer(to: &written) {
          slot.replace(with: value, at: $0, writing: true)
        }
        #expect(replaced == .some(before), sourceLocation: sourceLocation)
        #expect(written[keyPath: slot.keyPath] == value, sourceLocation: sourceLocation)
        let again = withUnsafeMutablePointer(to: &written) {
          slot.replace(with: value, at: $0, writing: true)
        }
        #expect(again == nil, "the same value again changes nothing", sourceLocation: sourceLocation)
      }
      // withStoredValue(at:): the value in place, for a stored field only.
      withUnsafePointer(to: record) { pointer in
        var lent: [Value?] = []
        slot.withStoredValue(at: pointer) { lent.append($0.pointee) }
        #expect(lent == (slot.isStored ? [before] : []), sourceLocation: sourceLocation)
        // warmValue(at:_:): the stored value in place, and only for a stored field.
        var warmed: [Value?] = []
        slot.warmValue(at: pointer) { warmed.append($0.pointee) }
        #expect(warmed == (slot.isStored ? [before] : []), sourceLocation: sourceLocation)
      }
      // On to the next value.
      withUnsafeMutablePointer(to: &record) { slot.store(value, at: $0) }
    }
  }

  @Test func aStoredFieldIsReachedAtItsOffset() {
    let title = FieldSlot(\TaskRecord.titleText)
    #expect(title.isStored)
    Self.check(
      title, on: Self.task(),
      values: ["two", nil, "three", String(repeating: "long ", count: 50)].map { $0.map { BlockText($0) } })
    // The `String` view of it is computed: applied through its key path, to the same effect.
    let titleString = FieldSlot(\TaskRecord.title)
    #expect(!titleString.isStored)
    Self.check(
      titleString, on: Self.task(), values: ["two", nil, "three", String(repeating: "long ", count: 50)])
    let priority = FieldSlot(\TaskRecord.priorityLevel)
    #expect(priority.isStored)
    Self.check(priority, on: Self.task(), values: [5, nil, 0])
    // `done` shares the record's last 16 bytes with the priority and the date.
    let done = FieldSlot(\TaskRecord.done)
    #expect(done.isStored)
    Self.check(done, on: Self.task(), values: [true, nil, false])
    let tags = FieldSlot(\TaskRecord.tagList)
    #expect(tags.isStored)
    Self.check(tags, on: Self.task(), values: [["z"], nil, []].map { $0.map { TextList($0) } })
    let due = FieldSlot(\TaskRecord.due)
    #expect(due.isStored)
    Self.check(
      due, on: Self.task(),
      values: [.null, nil, .value(ISODate("2026-12-01")!), .value(ISODate("2026-12-01T09:30:00.25+01:00")!)])
  }

  /// The date, the priority and `done` share a task's last 16 bytes: writing one at its
  /// offset leaves the others as they were.
  @Test func fieldsSharingAWordLeaveEachOtherAlone() throws {
    let date = try #require(ISODate("2026-12-01T09:30:00Z"))
    var record = Self.task()
    record.done = true
    record.due = .value(date)
    withUnsafeMutablePointer(to: &record) { pointer in
      _ = FieldSlot(\TaskRecord.priorityLevel).replace(with: 5, at: pointer, writing: true)
      #expect(pointer.pointee.done == true && pointer.pointee.due == .value(date))
      _ = FieldSlot(\TaskRecord.done).replace(with: false, at: pointer, writing: true)
      #expect(pointer.pointee.priority == 5 && pointer.pointee.due == .value(date))
      _ = FieldSlot(\TaskRecord.due).replace(with: .null, at: pointer, writing: true)
      #expect(pointer.pointee.priority == 5 && pointer.pointee.done == false)
    }
    #expect(record.due == .null && record.priority == 5 && record.done == false)
  }

  @Test func aNestedStoredFieldIsReachedAtItsOffsetToo() {
    let address: WritableKeyPath<ContactRecord, Address> = \.address
    let city = FieldSlot(address.appending(path: \Address.city))
    #expect(city.isStored)
    var contact = ContactRecord(id: "c1")
    contact.address.street = "Main St"
    contact.address.city = "Paris"
    Self.check(city, on: contact, values: ["Oslo", nil, "Lima"])
    // Its neighbours are untouched.
    var moved = contact
    withUnsafeMutablePointer(to: &moved) { _ = city.replace(with: "Rome", at: $0, writing: true) }
    #expect(moved.address.street == "Main St")
    #expect(moved.name == contact.name)
  }

  @Test func aSubscriptFieldGoesThroughItsKeyPath() {
    let color = FieldSlot(\TaskRecord.custom[positioned: "color"])
    #expect(!color.isStored)
    Self.check(
      color, on: Self.task(), values: [CustomValue(.string("blue")), nil, CustomValue(.number("3"))])
    let missing = FieldSlot(\TaskRecord.custom[positioned: "size"])
    Self.check(missing, on: Self.task(), values: [CustomValue(.bool(true)), nil])
  }

  /// A member named by one key (`FieldSlot(customKey:)`) calls the subscript itself: the
  /// same values and the same whole records as the key path applied, a member put back
  /// at its place included.
  @Test func aCustomMemberByKeyIsReachedAsItsKeyPathReachesIt() {
    let color = FieldSlot<TaskRecord, CustomValue>(customKey: "color")
    Self.check(
      color, on: Self.task(), values: [CustomValue(.string("blue")), nil, CustomValue(.number("3"))])
    let missing = FieldSlot<TaskRecord, CustomValue>(customKey: "size")
    Self.check(missing, on: Self.task(), values: [CustomValue(.bool(true)), nil])
    // What a member's warming asks for: where the members' stored text is.
    let members = Self.task().custom
    let stored = members.withKeyedText { bytes in bytes.baseAddress.map { (Int(bitPattern: $0), bytes.count) }
    }
    #expect(members.byteSpan?.address == stored?.0 && members.byteSpan?.count == stored?.1)
    #expect(stored != nil && CustomFields().byteSpan == nil)
    var start = Self.task()
    start.custom["size"] = .number("1")
    for value in [
      CustomValue(.string("green")), CustomValue(.null, position: 0), CustomValue(.null, position: 1), nil,
    ] {
      var direct = start
      color.store(value, in: &direct)
      var applied = start
      applied[keyPath: color.keyPath] = value
      #expect(direct == applied)
      #expect(direct.custom.keys == applied.custom.keys, "\(String(describing: value))")
      var removed = start
      color.store(nil, in: &removed)
      var putBack = removed
      withUnsafeMutablePointer(to: &putBack) { color.store(value, at: $0) }
      var reference = removed
      reference[keyPath: color.keyPath] = value
      #expect(
        putBack.custom.keys == reference.custom.keys, "put back at \(String(describing: value?.position))")
    }
    let title = FieldSlot<RunTimeRecord, CustomValue>(customKey: "title")
    let book = RunTimeRecord(id: "#1", members: [JSONObject.Member(key: "title", value: .string("Dune"))])
    Self.check(title, on: book, values: [CustomValue(.string("Emma")), nil, CustomValue(.number("3"))])
  }

  /// A run-time kind's field, top-level or composed (`publisher.city`): a subscript key
  /// path into the record's members, including one whose parent object is missing.
  @Test func aRunTimeFieldGoesThroughItsMemberPath() {
    let record = RunTimeRecord(
      id: "#1",
      members: [
        JSONObject.Member(key: "title", value: .string("Dune")),
        JSONObject.Member(key: "publisher", value: .object(JSONObject(["city": .string("Oslo")]))),
      ])
    let title = FieldSlot(\RunTimeRecord.custom[member: ["title"]])
    #expect(!title.isStored)
    Self.check(title, on: record, values: [CustomValue(.string("Emma")), nil, CustomValue(.number("3"))])
    let city = FieldSlot(\RunTimeRecord.custom[member: ["publisher", "city"]])
    Self.check(city, on: record, values: [CustomValue(.string("Lima")), nil, CustomValue(.string("Rome"))])
    let deep = FieldSlot(\RunTimeRecord.custom[member: ["a", "b", "c"]])
    Self.check(deep, on: record, values: [CustomValue(.bool(true)), nil])
    // A nested field set in a record without its object makes the object; removing the
    // last member removes the object, as recsh writes no empty nested object.
    var edited = record
    deep.store(CustomValue(.null), in: &edited)
    #expect(edited.custom["a"] == .object(JSONObject(["b": .object(JSONObject(["c": .null]))])))
    deep.store(nil, in: &edited)
    #expect(edited.custom["a"] == nil)
    #expect(edited == record)
  }

  /// The fields of both shipped kinds are all stored, so none pays for the key path.
  @Test func everyDeclaredFieldOfTheShippedKindsIsStored() {
    for field in TaskRecord.fields.fields.dropFirst() {
      #expect(Self.isStored(field), "\(field.name)")
    }
    for field in ContactRecord.fields.fields.dropFirst() {
      #expect(Self.isStored(field), "\(field.name)")
    }
  }

  static func isStored<Root: Record>(_ field: any FieldAccessor<Root>) -> Bool {
    if let typed = field as? KeyPathField<Root, StringCodec> { return typed.slot.isStored }
    if let typed = field as? KeyPathField<Root, TextCodec> { return typed.slot.isStored }
    if let typed = field as? KeyPathField<Root, IntCodec<Int8>> { return typed.slot.isStored }
    if let typed = field as? KeyPathField<Root, BoolCodec> { return typed.slot.isStored }
    if let typed = field as? KeyPathField<Root, StringListCodec> { return typed.slot.isStored }
    if let typed = field as? KeyPathField<Root, TextListCodec> { return typed.slot.isStored }
    if let typed = field as? KeyPathField<Root, NullableCodec<DateCodec>> { return typed.slot.isStored }
    return false
  }

  /// Binding, offsetting or reinterpreting record memory happens in FieldSlot.swift only:
  /// no other file of RecordKit outside JSON/ (which works on byte buffers, never on
  /// records) holds such a call, but for the C handle PCRE2's owner passes as `void *`.
  @Test func noOtherFileTouchesRecordMemory() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/RecordKit")
    let patterns = [
      "assumingMemoryBound", "bindMemory", "offset(of:", "withMemoryRebound", "load(fromByteOffset",
      "UnsafeMutableRawPointer(", "UnsafeRawPointer(", "withUnsafeBytes(of", "withUnsafeMutableBytes(of",
      "unsafeBitCast",
    ]
    let files = try #require(FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String])
    var checked = 0
    // The JSON and CSV readers load words of a file's bytes, never a record's memory.
    for file in files
    where file.hasSuffix(".swift") && !file.hasPrefix("JSON/") && !file.hasPrefix("File/CSV/") {
      checked += 1
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for pattern in patterns where text.contains(pattern) {
        // PCRE2's owner hands its JIT stack handle to C as a `void *`, and touches no record.
        if file == "Kinds/Patterns/CompiledPattern.swift" && pattern == "UnsafeMutableRawPointer(" {
          continue
        }
        #expect(file == "Fields/FieldSlot.swift", "\(file) uses \(pattern)")
      }
    }
    #expect(checked > 30, "the scan found the sources")
    let slot = try String(
      contentsOf: sources.appendingPathComponent("Fields/FieldSlot.swift"), encoding: .utf8)
    #expect(
      slot.contains("assumingMemoryBound") && slot.contains("offset(of:"),
      "the test looks for the right words")
  }

  /// Across all of Sources, memory is bound to a type by assumption in one place only,
  /// FieldSlot.swift. The two other typed views of raw memory use the standard library's
  /// scoped forms, each in one known place: the mapped bytes of a data file are read as
  /// `UInt8` inside `withMemoryRebound` (FileReader.swift), a directory entry's name, a C
  /// `char` array imported as a tuple, is read as `CChar`s inside one
  /// (DirectoryListing.swift), and the `malloc`ed array of C strings libedit takes and
  /// frees is made with `initializeMemory(as:)` (LineEditor.swift). A new one must be
  /// added here, with its reason.
  @Test func memoryIsBoundInKnownPlacesOnly() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources")
    let files = try #require(FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String])
    var binding: Set<String> = []
    var scoped: Set<String> = []
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      if text.contains("assumingMemoryBound") || text.contains("bindMemory") { binding.insert(file) }
      if text.contains("withMemoryRebound") || text.contains("initializeMemory(as:") { scoped.insert(file) }
    }
    #expect(binding == ["RecordKit/Fields/FieldSlot.swift"])
    #expect(
      scoped == [
        "RecordShell/Storage/FileReader.swift", "recsh/DirectoryListing.swift", "recsh/LineEditor.swift",
      ])
  }
}
