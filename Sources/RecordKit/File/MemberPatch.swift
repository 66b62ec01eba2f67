/// A changed record written over its original bytes without decoding them: the common
/// save of a record whose values changed in place (a `set` of a title, a priority, a
/// run-time kind's member).
///
/// Walks the original object's members once. A declared field's value is written
/// compact and compared with the member's bytes; where they differ the member alone is
/// read back through the field and compared as the field compares values (so a string
/// spelled with escapes that is the same value keeps its bytes). A custom member — every
/// member of a run-time kind — is compared with the record's canonical text, the original
/// made canonical only when it has an escape or is a list or object. Each member that
/// changed has its value replaced, every other byte stands: exactly what `FileImage`'s
/// patch of the whole values writes for such a record (`MemberPatchTests` compares the
/// two on random records and edits).
///
/// A declared field the original lacks goes where the whole-value patch puts it.
///
/// Answers false, writing nothing, where that patch has more to do: a member to remove, a
/// custom member to add, custom members in another order, a key with an escape, a changed
/// value that is or becomes a list or object, a kind with nested objects. The caller then
/// patches the whole values.
///
/// One patch serves a whole save of one kind: its writers and member list are reused
/// from record to record, and the kind's field table is read once (each reach into the
/// table's array of existentials looked up their type's metadata). O(bytes of the
/// record), no allocation per record once warm.
final class MemberPatch<Root: Record> {
  /// The table's fields, copied once.
  private let fields: UnsafeMutableBufferPointer<any FieldAccessor<Root>>
  /// The table's names as bytes and its two facts the patch asks, held here: reached
  /// through the table (a class's stored struct) at every member, the names' arrays were
  /// retained and released each time.
  private let keyTable: JSONNameTable
  private let keepsAllMembers: Bool
  private let hasNestedObjects: Bool

  /// The record's value of one field, compact.
  private var value = JSONWriter(compact: true)
  /// An original custom value made canonical, when its bytes are not already.
  private var canonical = JSONWriter(compact: true)
  /// The original object's members: key token (quotes included) and value.
  private var members: [(key: Range<Int>, value: Range<Int>)] = []
  /// What changes, in order of `order` where two stand at one place: original bytes
  /// `replacing` (empty for a member put in) give way to `news[new]`.
  private var edits: [(replacing: Range<Int>, order: Int, new: Range<Int>)] = []
  private var news: [UInt8] = []
  /// Where each declared field stands in the original, by the field's index.
  private var places: [MemberPlace] = []
  /// Whether declared field `index` may differ from the original, by `write`'s `changed`.
  @inline(__always)
  private static func mayHaveChanged(_ index: Int, in changed: UInt64) -> Bool {
    index >= 64 || changed & (1 << UInt64(index)) != 0
  }

  init() {
    let table = Root.fields
    (keyTable, keepsAllMembers, hasNestedObjects) = (
      table.keyTable, table.keepsAllMembers, table.hasNestedObjects
    )
    fields = .allocate(capacity: table.fields.count)
    _ = fields.initialize(from: table.fields)
  }

  deinit {
    fields.deinitialize()
    fields.deallocate()
  }

  /// Writes `record` over its original object `bytes[span]` to `out` and answers true, or
  /// answers false and writes nothing (see the type). `changed` says which declared fields
  /// may differ from the original, a bit per field index below 64 (`ChangeMarks`): the
  /// others keep their bytes, or their absence, without being compared.
  ///
  /// Specialized for each kind by name: a save's rewrite, specialized in the module that
  /// saves, called this generic code unspecialized, where reading the record's custom
  /// members copied the whole record and each field went through its witnesses (the
  /// copy's retains alone were 1.6% of a run of 1M edits and its save; docs/PERFORMANCE.md).
  @_specialize(where Root == TaskRecord)
  @_specialize(where Root == ContactRecord)
  @_specialize(where Root == RunTimeRecord)
  func write(
    _ record: UnsafePointer<Root>, over span: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>,
    changed: UInt64 = ~0, into out: inout [UInt8]
  ) -> Bool {
    guard !hasNestedObjects, JSONSpan.members(ofObjectAt: span.lowerBound, in: bytes, into: &members)
    else { return false }
    edits.removeAll(keepingCapacity: true)
    news.removeAll(keepingCapacity: true)
    places.removeAll(keepingCapacity: true)
    places.append(contentsOf: repeatElement(.absent, count: fields.count))
    let matched = record.pointee.custom.withKeyedText { custom in
      matchMembers(of: record, custom: custom, in: bytes, changed: changed)
        && (keepsAllMembers || insertNew(of: record, in: bytes, changed: changed))
    }
    guard matched else { return false }
    // Members put in come after the changes, among which they belong.
    if edits.contains(where: { $0.replacing.isEmpty }) {
      edits.sort { ($0.replacing.lowerBound, $0.order) < ($1.replacing.lowerBound, $1.order) }
    }
    var copied = span.lowerBound
    for edit in edits {
      out += bytes[copied..<edit.replacing.lowerBound]
      out += news[edit.new]
      copied = edit.replacing.upperBound
    }
    out += bytes[copied..<span.upperBound]
    return true
  }

  /// Compares each of the original's members with the record's: a declared field with its
  /// field, the others in order with the record's custom members (`custom`, their text in
  /// the keyed form), noting the changes; false when the patch cannot go on.
  private func matchMembers(
    of record: UnsafePointer<Root>, custom: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>,
    changed: UInt64
  ) -> Bool {
    /// The next of the record's custom members, by the offset of its key token.
    var next = custom.isEmpty ? 0 : 1
    let end = max(custom.count - 1, 0)
    for position in members.indices {
      let member = members[position]
      if !keepsAllMembers,
        let (index, _) = keyTable.match(in: bytes, at: member.key.lowerBound + 1)
      {
        places[index] = .member(position)
        guard
          !Self.mayHaveChanged(index, in: changed)
            || declared(fields[index], of: record, member: member.value, in: bytes)
        else { return false }
        continue
      }
      guard next < end else { return false }
      let (key, value) = KeyedText.member(at: next, of: custom)
      guard
        CanonicalJSON.sameBytes(UnsafeBufferPointer(rebasing: bytes[member.key]), key),
        customMember(member.value, in: bytes, record: UnsafeBufferPointer(rebasing: custom[value]))
      else { return false }
      next = value.upperBound + 1
    }
    // No custom member the original lacks.
    return next >= end
  }

  /// Puts in each declared field the record has and the original lacks; false when one
  /// cannot be.
  private func insertNew(
    of record: UnsafePointer<Root>, in bytes: UnsafeBufferPointer<UInt8>, changed: UInt64
  )
    -> Bool
  {
    for index in fields.indices {
      guard case .absent = places[index], Self.mayHaveChanged(index, in: changed) else { continue }
      value.reset()
      guard fields[index].writeValue(record, to: &value) else { continue }
      guard insert(fields[index].name, at: index, in: bytes) else { return false }
    }
    return true
  }

  /// Compares declared field `field` with the original's value `bytes[original]`, noting a
  /// change; false when the patch cannot go on (the record lacks the field, a list).
  private func declared(
    _ field: any FieldAccessor<Root>, of record: UnsafePointer<Root>, member original: Range<Int>,
    in bytes: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    value.reset()
    guard field.writeValue(record, to: &value) else { return false }
    let new = value.unsafeBytes
    let old = UnsafeBufferPointer(rebasing: bytes[original])
    if CanonicalJSON.sameBytes(new, old) || (!Self.isScalar(old) && Self.sameOutsideWhiteSpace(old, new)) {
      return true
    }
    // The same value spelled otherwise keeps its bytes: read back through the field and
    // compared with the record's in place (a copy of the record cost a retain and release
    // of each of its fields).
    var reader = JSONReader(unsafeBytes: old)
    guard let same = field.holdsValue(readFrom: &reader, in: record) else { return false }
    if same { return true }
    guard Self.isScalar(old), Self.isScalar(new) else { return false }
    note(new, replacing: original)
    return true
  }

  /// Compares the original custom value `bytes[original]` with the record's canonical
  /// `new`, noting a change; false when the patch cannot go on (a list or object changed).
  private func customMember(
    _ original: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, record new: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    let old = UnsafeBufferPointer(rebasing: bytes[original])
    if CanonicalJSON.sameBytes(new, old) { return true }
    // A scalar without an escape is its own canonical text; anything else is made so.
    if !Self.isScalar(old) || old.contains(UInt8(ascii: "\\")) {
      canonical.reset()
      var reader = JSONReader(unsafeBytes: old)
      guard (try? reader.peek()) != nil, (try? reader.readCanonical(into: &canonical)) != nil else {
        return false
      }
      if CanonicalJSON.sameBytes(new, canonical.unsafeBytes) { return true }
    }
    guard Self.isScalar(old), Self.isScalar(new) else { return false }
    note(new, replacing: original)
    return true
  }

  /// Notes declared field `index`, called `name`, whose value is in `value`, as a member
  /// the original lacks: put after the member that holds the field before it in table
  /// order (the record's member order), or after the field before that one where that was
  /// put, with the separators and key separator the whole-value patch takes
  /// (`SpanSplice`): the one that stood before the member it follows, or between the
  /// first two members when it follows another new one or the first. False for a list
  /// or object value, or an original of fewer than two members.
  private func insert(_ name: String, at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard members.count >= 2, Self.isScalar(value.unsafeBytes) else { return false }
    var previous = index - 1
    while previous >= 0, case .absent = places[previous] { previous -= 1 }
    let anchor: Int
    let separatorBefore: Int
    switch previous >= 0 ? places[previous] : .absent {
    case .absent: return false
    case .member(let position): (anchor, separatorBefore) = (position, max(position, 1))
    case .after(let position): (anchor, separatorBefore) = (position, 1)
    }
    places[index] = .after(anchor)
    let start = news.count
    news += bytes[members[separatorBefore - 1].value.upperBound..<members[separatorBefore].key.lowerBound]
    canonical.reset()
    canonical.string(name)
    news += canonical.unsafeBytes
    let last = members[members.count - 1]
    news += bytes[last.key.upperBound..<last.value.lowerBound]
    news += value.unsafeBytes
    let at = members[anchor].value.upperBound
    edits.append((at..<at, edits.count, start..<news.count))
    return true
  }

  /// Notes that `new` replaces the original's value `bytes[original]`.
  private func note(_ new: UnsafeBufferPointer<UInt8>, replacing original: Range<Int>) {
    let start = news.count
    news += new
    edits.append((original, edits.count, start..<news.count))
  }

  /// Whether a list or object's text in a file, `original`, is `compact`'s but for white
  /// space between its tokens (a list laid out over lines): then they are the same value.
  /// One pass over both; strings compared byte for byte, escapes and all.
  static func sameOutsideWhiteSpace(
    _ original: UnsafeBufferPointer<UInt8>, _ compact: UnsafeBufferPointer<UInt8>
  )
    -> Bool
  {
    var index = 0
    var other = 0
    var inString = false
    while index < original.count {
      let byte = original[index]
      if !inString, JSONSpan.isWhitespace(byte) {
        index += 1
        continue
      }
      guard other < compact.count, compact[other] == byte else { return false }
      if byte == UInt8(ascii: "\\") && inString {
        // The escaped byte, whatever it is, is compared as it stands.
        guard index + 1 < original.count, other + 1 < compact.count, original[index + 1] == compact[other + 1]
        else { return false }
        index += 2
        other += 2
        continue
      }
      if byte == UInt8(ascii: "\"") { inString.toggle() }
      index += 1
      other += 1
    }
    return other == compact.count
  }

  /// Whether a value's text is a scalar: not a list or object, which the whole-value
  /// patch lays out or patches element by element.
  private static func isScalar(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = text.first, first == UInt8(ascii: "[") || first == UInt8(ascii: "{") else {
      return true
    }
    return false
  }
}

/// Where a declared field stands in the original a `MemberPatch` writes over. Not nested
/// in the generic class: a type nested there is generic too, and each use looked its
/// metadata up at run time.
private enum MemberPlace {
  case absent
  /// Held by the original's member at this position.
  case member(Int)
  /// Put in after the original's member at this position (after any put in there before).
  case after(Int)
}
