/// A changed record written over its original bytes without decoding them: the common
/// save of a record whose values changed in place (a `set` of a title, a priority, a
/// run-time kind's member).
///
/// Walks the original object's members once. A declared field's value is written
/// compact and compared with the member's bytes; where they differ the member alone is
/// read back through the field and compared as the field compares values (so a string
/// spelled with escapes, or in another normalization, that is the same value keeps its
/// bytes). A custom member — every member of a run-time kind — is compared with the
/// record's canonical text, the original made canonical only when it has an escape or is
/// a list or object. Each member that changed has its value replaced, every other byte
/// stands: exactly what `FileImage`'s patch of the whole values writes for such a record
/// (`MemberPatchTests` compares the two on random records and edits).
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
  private let table: FieldTable<Root>
  /// The table's fields, copied once.
  private let fields: UnsafeMutableBufferPointer<any FieldAccessor<Root>>

  /// The record's value of one field, compact.
  private var value = JSONWriter(compact: true)
  /// An original custom value made canonical, when its bytes are not already.
  private var canonical = JSONWriter(compact: true)
  /// The original object's members: key token (quotes included) and value.
  private var members: [(key: Range<Int>, value: Range<Int>)] = []
  /// The members whose values change, in order, with where their new bytes lie in `news`.
  private var changes: [(value: Range<Int>, new: Range<Int>)] = []
  private var news: [UInt8] = []
  /// Declared fields the original lacks and the record has, each after the member it
  /// follows (by that member's value end), in the order they go there.
  private var inserts: [(at: Int, order: Int, new: Range<Int>)] = []
  /// For each declared field, the original's member that holds it, or where a new one is
  /// put after (its anchor's member, as a negative number -1 - member); `Int.min`: neither.
  private var placed: [Int] = []

  init() {
    table = Root.fields
    fields = .allocate(capacity: table.fields.count)
    _ = fields.initialize(from: table.fields)
  }

  deinit {
    fields.deinitialize()
    fields.deallocate()
  }

  /// Writes `record` over its original object `bytes[span]` to `out` and answers true, or
  /// answers false and writes nothing (see the type).
  func write(
    _ record: UnsafePointer<Root>, over span: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>,
    into out: inout [UInt8]
  ) -> Bool {
    let fields = self.fields
    guard !table.hasNestedObjects, fields.count <= 64, scanMembers(span, in: bytes) else {
      return false
    }
    changes.removeAll(keepingCapacity: true)
    news.removeAll(keepingCapacity: true)
    inserts.removeAll(keepingCapacity: true)
    placed.removeAll(keepingCapacity: true)
    placed.append(contentsOf: repeatElement(Int.min, count: fields.count))
    let custom = record.pointee.custom
    var matched = true
    custom.withText { text in
      /// The next of the record's custom members, by the offset of its key token.
      var next = text.isEmpty ? 0 : 1
      let end = max(text.count - 1, 0)
      for position in members.indices {
        let member = members[position]
        if !table.keepsAllMembers,
          let (index, _) = table.keyTable.match(in: bytes, at: member.key.lowerBound + 1)
        {
          placed[index] = position
          guard declared(fields[index], of: record, member: member.value, in: bytes) else {
            matched = false
            return
          }
          continue
        }
        guard next < end else {
          matched = false
          return
        }
        let keyEnd = CanonicalJSON.stringEnd(text, from: next)
        let valueEnd = CanonicalJSON.valueEnd(text, from: keyEnd + 1)
        guard
          CanonicalJSON.sameBytes(
            UnsafeBufferPointer(rebasing: bytes[member.key]),
            UnsafeBufferPointer(rebasing: text[next..<keyEnd])),
          customMember(
            member.value, in: bytes, record: UnsafeBufferPointer(rebasing: text[(keyEnd + 1)..<valueEnd]))
        else {
          matched = false
          return
        }
        next = valueEnd + 1
      }
      // A custom member the original lacks, or a declared field it lacks and the record has.
      if next < end { matched = false }
      guard matched, !table.keepsAllMembers else { return }
      for index in fields.indices where placed[index] == Int.min {
        value.reset()
        guard fields[index].writeValue(record, to: &value) else { continue }
        guard insert(fields[index].name, at: index, in: bytes) else {
          matched = false
          return
        }
      }
    }
    guard matched else { return false }
    if inserts.count > 1 { inserts.sort { ($0.at, $0.order) < ($1.at, $1.order) } }
    var copied = span.lowerBound
    var nextInsert = 0
    for change in changes {
      while nextInsert < inserts.count, inserts[nextInsert].at <= change.value.lowerBound {
        out += bytes[copied..<inserts[nextInsert].at]
        out += news[inserts[nextInsert].new]
        copied = inserts[nextInsert].at
        nextInsert += 1
      }
      out += bytes[copied..<change.value.lowerBound]
      out += news[change.new]
      copied = change.value.upperBound
    }
    for insert in inserts[nextInsert...] {
      out += bytes[copied..<insert.at]
      out += news[insert.new]
      copied = insert.at
    }
    out += bytes[copied..<span.upperBound]
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
    // The same value spelled otherwise keeps its bytes: read back through the field.
    var copy = Root(id: record.pointee.id)
    var reader = JSONReader(unsafeBytes: old)
    guard (try? field.read(from: &reader, into: &copy)) == true else { return false }
    if field.sameValue(in: copy, and: record.pointee) { return true }
    guard Self.isScalar(old), Self.isScalar(new) else { return false }
    note(original, new)
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
    note(original, new)
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
    while previous >= 0, placed[previous] == Int.min { previous -= 1 }
    guard previous >= 0 else { return false }
    let chained = placed[previous] < 0
    let anchor = chained ? -1 - placed[previous] : placed[previous]
    placed[index] = -1 - anchor
    let separatorBefore = chained || anchor == 0 ? 1 : anchor
    let start = news.count
    news += bytes[members[separatorBefore - 1].value.upperBound..<members[separatorBefore].key.lowerBound]
    canonical.reset()
    canonical.string(name)
    news += canonical.unsafeBytes
    let last = members[members.count - 1]
    news += bytes[last.key.upperBound..<last.value.lowerBound]
    news += value.unsafeBytes
    inserts.append((members[anchor].value.upperBound, inserts.count, start..<news.count))
    return true
  }

  private func note(_ original: Range<Int>, _ new: UnsafeBufferPointer<UInt8>) {
    let start = news.count
    news += new
    changes.append((original, start..<news.count))
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

  /// The top-level members of the object at `span` (white space before it skipped) into
  /// `members`; false when it is no object. The bytes read as JSON (a record of a file
  /// that loaded), so nothing is checked: strings, numbers and containers are stepped over.
  private func scanMembers(_ span: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    members.removeAll(keepingCapacity: true)
    var index = span.lowerBound
    while index < span.upperBound, JSONSpan.isWhitespace(bytes[index]) { index += 1 }
    guard index < span.upperBound, bytes[index] == UInt8(ascii: "{") else { return false }
    index += 1
    while index < span.upperBound {
      let byte = bytes[index]
      if byte == UInt8(ascii: "}") { return true }
      if byte == UInt8(ascii: ",") || JSONSpan.isWhitespace(byte) {
        index += 1
        continue
      }
      let keyStart = index
      index = CanonicalJSON.stringEnd(bytes, from: index)
      let key = keyStart..<index
      while bytes[index] != UInt8(ascii: ":") { index += 1 }
      index += 1
      while JSONSpan.isWhitespace(bytes[index]) { index += 1 }
      let valueStart = index
      index = Self.valueEnd(bytes, from: index)
      members.append((key, valueStart..<index))
    }
    return false
  }

  /// Where the value that starts at `start` ends: `CanonicalJSON.valueEnd`, but a number
  /// or literal also ends at white space.
  private static func valueEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    switch bytes[start] {
    case UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "{"):
      return CanonicalJSON.valueEnd(bytes, from: start)
    default:
      var cursor = start + 1
      while cursor < bytes.count {
        let byte = bytes[cursor]
        if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
          || JSONSpan.isWhitespace(byte)
        {
          break
        }
        cursor += 1
      }
      return cursor
    }
  }
}
