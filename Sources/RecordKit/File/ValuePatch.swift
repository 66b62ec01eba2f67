/// A changed value written over its original bytes, changing only what changed: the members
/// of an object and the elements of a list whose values are equal keep their bytes, a set
/// member has only its value written anew, an unset one goes with one adjacent separator,
/// a new one goes after the member before it in the new value's order (after the last, for
/// a key that is new) in its siblings' style (`SpanSplice`).
///
/// `old` is the original value as recsh reads it, `new` the value to write; where they are
/// equal the original bytes stand. O(bytes of the value).
struct ValuePatch {
  let bytes: UnsafeBufferPointer<UInt8>
  let style: JSONLayoutStyle

  /// The bytes for `new` in place of the value at `span` (`old`), whose line is indented
  /// `indent`; `multiline`: whether new lists and objects may spread over lines.
  func write(
    _ span: JSONSpan, old: JSONValue?, new: JSONValue, indent: [UInt8], multiline: Bool,
    into out: inout [UInt8]
  ) {
    if let old, old == new {
      out += bytes[span.range]
      return
    }
    switch (span.content, old, new) {
    case (.object(let inner, let members), .object(let oldObject)?, .object(let newObject)):
      out.append(UInt8(ascii: "{"))
      writeObject(
        inner, members, old: oldObject, new: newObject, indent: indent, multiline: multiline, into: &out)
      out.append(UInt8(ascii: "}"))
    case (.array(let inner, let elements), .array(let oldItems)?, .array(let newItems))
    where oldItems.count == elements.count:
      out.append(UInt8(ascii: "["))
      writeArray(
        inner, elements, old: oldItems, new: newItems, indent: indent, multiline: multiline, into: &out)
      out.append(UInt8(ascii: "]"))
    default:
      style.write(new, indent: indent, multiline: multiline, into: &out)
    }
  }

  /// A splice of `inner` with `parts`, its fresh pieces for an inside that had no parts
  /// (over lines at one more indent than `indent`, or on one line).
  private func splice(
    _ inner: Range<Int>, _ parts: some Sequence<Range<Int>>, indent: [UInt8], multiline: Bool
  ) -> SpanSplice {
    var splice = SpanSplice(bytes: bytes, inner: inner, parts: SpanList(parts))
    if multiline {
      splice.freshOpening = style.lineEnding + indent + style.indentUnit
      splice.freshSeparator = [UInt8(ascii: ",")] + style.lineEnding + indent + style.indentUnit
      splice.freshClosing = style.lineEnding + indent
    } else {
      splice.freshSeparator = style.inlineSeparator
    }
    return splice
  }

  /// Whether the parts of a container stand on lines of their own, and at what indent.
  private func layout(of splice: SpanSplice, indent: [UInt8], multiline: Bool) -> (Bool, [UInt8]) {
    if splice.parts.isEmpty { return (multiline, indent + style.indentUnit) }
    let over = splice.isMultiline && multiline
    return (over, over ? splice.partIndent : indent)
  }

  /// The members of an object: each member of the span found in `old` and `new` by its
  /// key (at its own position first: the common case of members in the same order), the
  /// equal ones kept, the others patched or dropped, then the members only `new` has.
  /// O(members) when the orders agree, O(members²) at worst.
  private func writeObject(
    _ inner: Range<Int>, _ members: [JSONSpan.Member], old: JSONObject, new: JSONObject, indent: [UInt8],
    multiline: Bool, into out: inout [UInt8]
  ) {
    let splice = splice(inner, members.lazy.map(\.range), indent: indent, multiline: multiline)
    let (over, partIndent) = layout(of: splice, indent: indent, multiline: multiline)
    let nested = over && style.nestedMultiline
    /// The parts in order, each with the position in `new` of its member's key (`nil`: a
    /// member `new` does not have, kept because `old` lacks it too).
    var parts: [(part: SpanSplice.Part, inNew: Int?)] = []
    parts.reserveCapacity(members.count)
    /// Which of `new`'s members the span has.
    var inSpan = [Bool](repeating: false, count: new.members.count)
    for (position, member) in members.enumerated() {
      let oldValue = Self.position(of: member.key, in: old.members, near: position).map {
        old.members[$0].value
      }
      guard let inNew = Self.position(of: member.key, in: new.members, near: position) else {
        // Unset (or a member recsh's reading drops, still absent): kept only if it was absent.
        if oldValue == nil { parts.append((.kept(position), nil)) }
        continue
      }
      inSpan[inNew] = true
      let newValue = new.members[inNew].value
      if oldValue == newValue {
        parts.append((.kept(position), inNew))
        continue
      }
      var written = Array(bytes[member.keyStart..<member.value.start])
      write(member.value, old: oldValue, new: newValue, indent: partIndent, multiline: nested, into: &written)
      parts.append((.written(written, replacing: position), inNew))
    }
    let keySeparator =
      members.last.map { Array(bytes[JSONLayoutStyle.keyEnd(of: $0, in: bytes)..<$0.value.start]) }
      ?? style.keySeparator
    // A new member goes after the member before it in the new value's order (where a
    // member put back by an undo stood; a new key comes last there), or after the last.
    for (index, member) in new.members.enumerated() where !inSpan[index] {
      var written: [UInt8] = []
      JSONLayoutStyle.writeScalar(.string(member.key), into: &written)
      written += keySeparator
      style.write(member.value, indent: partIndent, multiline: nested, into: &written)
      let previous = index - 1
      let after = index > 0 ? parts.lastIndex { $0.inNew == previous } : nil
      parts.insert((.written(written, replacing: nil), index), at: after.map { $0 + 1 } ?? parts.count)
    }
    splice.write(parts.map(\.part), into: &out)
  }

  /// An object whose members change in place only: `changes` gives each member whose
  /// value differs (its position among the members of `span`, an object's) with its old
  /// and new value; every other member keeps its bytes, none is added or removed. Writes
  /// exactly what `write(_:old:new:indent:multiline:into:)` writes for the two whole
  /// values, without them. O(bytes of the value).
  func writeMembers(
    _ span: JSONSpan, changes: [(member: Int, old: JSONValue?, new: JSONValue)], indent: [UInt8],
    multiline: Bool, into out: inout [UInt8]
  ) {
    guard case .object(let inner, let members) = span.content, !changes.isEmpty else {
      out += bytes[span.range]
      return
    }
    let splice = splice(inner, members.lazy.map(\.range), indent: indent, multiline: multiline)
    let (over, partIndent) = layout(of: splice, indent: indent, multiline: multiline)
    let nested = over && style.nestedMultiline
    var parts = members.indices.map { SpanSplice.Part.kept($0) }
    for change in changes {
      let member = members[change.member]
      var written = Array(bytes[member.keyStart..<member.value.start])
      write(
        member.value, old: change.old, new: change.new, indent: partIndent, multiline: nested, into: &written)
      parts[change.member] = .written(written, replacing: change.member)
    }
    out.append(UInt8(ascii: "{"))
    splice.write(parts, into: &out)
    out.append(UInt8(ascii: "}"))
  }

  /// Where `key` is among `members`: at `hint` when it is there, else the first with it.
  private static func position(of key: String, in members: [JSONObject.Member], near hint: Int) -> Int? {
    if hint < members.count, members[hint].key == key { return hint }
    return members.firstIndex { $0.key == key }
  }

  /// Where the member `key` is in the bytes: at `hint` when it is there, else the first.
  static func position(of key: String, in members: [JSONSpan.Member], near hint: Int) -> Int? {
    if hint < members.count, members[hint].key == key { return hint }
    return members.firstIndex { $0.key == key }
  }

  /// Lists: the elements alike at the start and at the end keep their bytes; those between
  /// are written anew (one for one, patched, where the counts agree).
  private func writeArray(
    _ inner: Range<Int>, _ elements: [JSONSpan], old: [JSONValue], new: [JSONValue], indent: [UInt8],
    multiline: Bool, into out: inout [UInt8]
  ) {
    let splice = splice(inner, elements.lazy.map(\.range), indent: indent, multiline: multiline)
    let (over, partIndent) = layout(of: splice, indent: indent, multiline: multiline)
    let nested = over && style.nestedMultiline
    let (prefix, suffix) = commonEnds(old, new, ==)
    var parts: [SpanSplice.Part] = (0..<prefix).map { .kept($0) }
    let oldMiddle = prefix..<(old.count - suffix)
    let newMiddle = prefix..<(new.count - suffix)
    for index in newMiddle {
      var written: [UInt8] = []
      if oldMiddle.count == newMiddle.count {
        write(
          elements[index], old: old[index], new: new[index], indent: partIndent, multiline: nested,
          into: &written)
        parts.append(.written(written, replacing: index))
      } else {
        style.write(new[index], indent: partIndent, multiline: nested, into: &written)
        parts.append(.written(written, replacing: nil))
      }
    }
    parts += ((old.count - suffix)..<old.count).map { .kept($0) }
    splice.write(parts, into: &out)
  }
}
