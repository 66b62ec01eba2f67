/// The keys of a record that its kind does not declare, in their original order — and,
/// for a run-time kind, all of its members (see `RunTimeRecord`).
///
/// Reachable through the subscript key path `\R.custom[positioned: name]`, so
/// the one generic property-update command edits them like declared fields.
/// The positioned form carries the key's place, so undoing a removal puts the
/// key back where it was and the file keeps its key order.
///
/// **Storage.** The members are kept as the canonical text of one JSON object
/// (`{"key":value,…}`, `CanonicalJSON`) with each key that has a code written as its code
/// (the keyed form, `KeyCodes`: one byte for a file's first 30 keys), or no bytes at all
/// when there are none: a member costs its value's text and a byte or two, not a 40-byte
/// key-and-value pair with a tree of strings and arrays behind it. The text lies in a
/// `TextBlock`: a read puts many records' texts in one (`init(canonical:in:)`), an edit
/// gives the record a block of its own. A value is decoded when it is read (`self[key]`,
/// `members`), found by a walk of the text; equality is the texts' (which is
/// `JSONValue`'s, by the bytes written: every text is keyed alike); saving writes each key
/// token and copies each value (`write(to:)`). Setting a member rewrites the text around
/// it: O(the record's text). 16 bytes in the record.
public struct CustomFields: Equatable, Sendable {
  /// The members' text in the keyed form; no bytes when there are none (never `{}`).
  private var text = BlockText()

  /// Where the members' stored text is, for `CacheHint` (`BlockText.byteSpan`).
  @inline(__always)
  var byteSpan: (address: Int, count: Int)? { text.byteSpan }

  /// Calls `body` with the members' canonical text (empty when there are none): the keys'
  /// codes spelled out in a copy on the stack (or the heap, for a long text), or the
  /// stored bytes in place when no key has a code. O(the text) before `body`: the hot
  /// paths walk the keyed text instead (`forEachMember`).
  func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    try text.withBytes { stored in
      guard let count = KeyedText.canonicalCount(of: stored) else { return try body(stored) }
      return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { room in
        if let out = room.baseAddress { KeyedText.decode(stored, into: out) }
        return try body(UnsafeBufferPointer(room))
      }
    }
  }

  /// Calls `body` with the members' text as stored, in the keyed form (`KeyedText`: walk it
  /// with `KeyedText.member(at:of:)`), empty when there are none. O(1) before `body`.
  func withKeyedText<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    try text.withBytes(body)
  }

  public static func == (lhs: CustomFields, rhs: CustomFields) -> Bool { lhs.text == rhs.text }

  public init(_ members: [JSONObject.Member] = []) {
    guard !members.isEmpty else {
      self.init(stored: BlockText())
      return
    }
    var writer = JSONWriter(compact: true)
    var texts = TextArena.single
    self.init(members, using: &writer, in: &texts)
  }

  /// `init(_:)` written by `writer`, a compact writer kept for many records (emptied
  /// first), into `arena`'s block: what a read of many records (a CSV table's rows) uses,
  /// so that a record's text costs its bytes.
  init(_ members: [JSONObject.Member], using writer: inout JSONWriter, in arena: inout TextArena) {
    guard !members.isEmpty else {
      self.init(stored: BlockText())
      return
    }
    writer.reset()
    writer.beginObject()
    // Each key written as its code as it goes (the arena remembers the codes by place).
    for (place, member) in members.enumerated() {
      let memberStart = writer.byteCount
      writer.key(member.key)
      _ = arena.codeKeyWritten(in: &writer, since: memberStart, place: place)
      writer.value(member.value)
    }
    writer.endObject()
    self.init(keyed: writer.unsafeBytes, in: &arena)
  }

  /// Members from their canonical text, as `JSONReader.readCanonical` or a compact
  /// writer made it (`{}` is taken as no members), in a block of their own.
  init(canonical text: [UInt8]) {
    self = text.withUnsafeBufferPointer { CustomFields(canonical: $0) }
  }

  /// `init(canonical:)` from bytes in place (a writer's, say), keyed and copied once.
  init(canonical text: UnsafeBufferPointer<UInt8>) {
    guard text.count > 2 else { return }
    self.text = TextArena.storeKeyedAlone(text)
  }

  /// Members from their canonical text, keyed into `arena`'s block (what a read that makes
  /// many records uses: their texts share blocks). `marks`, when given, are the reader's
  /// marks of `text`'s members, which the keying then walks instead of the text.
  init(canonical text: UnsafeBufferPointer<UInt8>, in arena: inout TextArena, marks: MemberMarks? = nil) {
    guard text.count > 2 else { return }
    self.text = arena.storeKeyed(text, marks: marks)
  }

  /// Members whose keyed text is `stored`.
  private init(stored: BlockText) { text = stored }

  /// Members from their text in the keyed form already (a keyed read's,
  /// `JSONReader.readCanonicalObject(into:members:keying:)`), copied into `arena`'s block.
  init(keyed text: UnsafeBufferPointer<UInt8>, in arena: inout TextArena) {
    guard text.count > 2 else { return }
    self.text = BlockText(copying: text, in: &arena)
  }

  /// Every member, decoded: a new array of keys and trees (what code that needs them all
  /// as values pays; the hot paths read the text).
  public var members: [JSONObject.Member] { object.members }

  /// The members as one object, decoded in one read of the text.
  var object: JSONObject {
    guard !isEmpty else { return JSONObject() }
    let value = withText { buffer in CanonicalJSON.value(buffer, 0..<buffer.count) }
    guard case .object(let object) = value else { return JSONObject() }
    return object
  }

  /// The value for `key`; setting `nil` removes the key, setting a new key appends it.
  public subscript(key: String) -> JSONValue? {
    get {
      guard let found = find(key) else { return nil }
      return text.withBytes { buffer in CanonicalJSON.value(buffer, found.value) }
    }
    set { self[positioned: key] = newValue.map { CustomValue($0) } }
  }

  /// The value for `key` with its place. Setting a present key replaces its
  /// value in place; setting an absent one inserts it at the value's position
  /// (clamped to the end); `nil` removes it.
  subscript(positioned key: String) -> CustomValue? {
    get {
      guard let found = find(key) else { return nil }
      let value = text.withBytes { buffer in CanonicalJSON.value(buffer, found.value) }
      return CustomValue(value, position: found.index)
    }
    set {
      let found = find(key)
      switch (found, newValue) {
      case (let found?, let value?):
        CanonicalJSON.withText(of: value.json) { replace(found.value, with: $0) }
      case (let found?, nil):
        remove(found)
      case (nil, let value?):
        insert(key, value.json, at: value.position)
      case (nil, nil): break
      }
    }
  }

  /// A `set`'s one access to member `key`: when its value differs from `value` (or it is
  /// absent), puts `value` in its place (an absent key goes in at `value.position`, as the
  /// subscript puts it) and returns what it held, with its place; `nil`, changing
  /// nothing, when it already holds `value`. One scan of the members to find it, where
  /// a read and then a write of the subscript take two.
  mutating func exchange(_ key: String, with value: CustomValue) -> CustomValue?? {
    guard let found = find(key) else {
      insert(key, value.json, at: value.position)
      return .some(nil)
    }
    let old = text.withBytes { buffer in CanonicalJSON.value(buffer, found.value) }
    guard old != value.json else { return nil }
    CanonicalJSON.withText(of: value.json) { replace(found.value, with: $0) }
    return .some(CustomValue(old, position: found.index))
  }

  /// The value of the member `key` when it is a string written without an escape, made
  /// from its bytes at once; `nil` when there is no such member, its value is of another
  /// kind, or it has an escape (then `self[key]` decodes it). What a record's key is read by.
  func unescapedString(_ key: String) -> String? {
    guard let found = find(key) else { return nil }
    return text.withBytes { buffer in
      guard buffer[found.value.lowerBound] == UInt8(ascii: "\""),
        case let inner = UnsafeBufferPointer(
          rebasing: buffer[(found.value.lowerBound + 1)..<(found.value.upperBound - 1)]),
        !inner.contains(UInt8(ascii: "\\"))
      else { return nil }
      return UTF8Validation.knownValidString(inner)
    }
  }

  /// The members whose values differ in `other`, decoded (key, place among the members,
  /// old value, new), when `other` has the same keys in the same order; `nil` when it
  /// does not. Compares the texts member by member; decodes only the values that differ.
  func changedValues(to other: CustomFields) -> [(
    key: String, position: Int, old: JSONValue, new: JSONValue
  )]? {
    var theirs: [(key: UnsafeBufferPointer<UInt8>, value: Range<Int>)] = []
    other.forEachMember { _, _, key, value in
      theirs.append((key, value))
      return true
    }
    var changes: [(key: String, position: Int, old: JSONValue, new: JSONValue)] = []
    var position = 0
    var sameKeys = true
    // A coded key's token is the table's, valid for the process's life; a spelled one lies
    // in `other`'s text, which is kept alive here while `theirs` is read.
    other.text.withBytes { theirText in
      forEachMember { text, _, key, value in
        guard position < theirs.count, CanonicalJSON.sameBytes(key, theirs[position].key) else {
          sameKeys = false
          return false
        }
        let theirValue = theirs[position].value
        if !CanonicalJSON.sameBytes(
          UnsafeBufferPointer(rebasing: text[value]), UnsafeBufferPointer(rebasing: theirText[theirValue]))
        {
          changes.append(
            (
              CanonicalJSON.string(key, 0..<key.count), position, CanonicalJSON.value(text, value),
              CanonicalJSON.value(theirText, theirValue)
            ))
        }
        position += 1
        return true
      }
    }
    // No member added or removed at the end either.
    return sameKeys && position == theirs.count ? changes : nil
  }

  /// Whether a member is called `key` (nothing is decoded: what a presence check asks).
  public func contains(_ key: String) -> Bool { find(key) != nil }

  public var keys: [String] {
    var keys: [String] = []
    forEachMember { _, _, key, _ in
      keys.append(CanonicalJSON.string(key, 0..<key.count))
      return true
    }
    return keys
  }

  /// Adds the members' keys to `keys`. `seen` is the caller's memory of key tokens
  /// already added, kept from record to record: a key whose token is there is not decoded
  /// again. The records of a file mostly hold a few custom keys, so most keys cost a
  /// comparison of their bytes with a few tokens instead of a `String`, an array and a
  /// hash (`recsh FILE -c save` of 100k tasks: the keys' `String`s were 76M instructions).
  /// `seen` keeps at most `seenLimit` tokens: past them, a key is decoded and hashed as
  /// before, so a file of many different keys costs no more than it did.
  package func addKeys(to keys: inout Set<String>, seen: inout [[UInt8]]) {
    forEachMember { _, _, token, _ in
      for known in seen where known.count == token.count {
        if known.withUnsafeBufferPointer({ CanonicalJSON.sameBytes($0, token) }) { return true }
      }
      keys.insert(CanonicalJSON.string(token, 0..<token.count))
      if seen.count < Self.seenLimit { seen.append(Array(token)) }
      return true
    }
  }

  /// How many key tokens `addKeys(to:seen:)` remembers.
  static let seenLimit = 16

  public var isEmpty: Bool { text.isEmpty }

  /// Writes every member, key and value, at the writer's place inside an object, in the
  /// writer's layout: the text copied, nothing decoded but nested containers walked.
  func write(to writer: inout JSONWriter) {
    forEachMember { text, _, key, value in
      writer.canonicalKey(key)
      writer.canonical(text, value)
      return true
    }
  }

  /// Calls `body` with the stored (keyed) text and each member's place in it, its key
  /// token and where its value lies, in order, until it returns false (see
  /// `KeyedText.forEachMember`).
  private func forEachMember(
    _ body: (
      _ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ key: UnsafeBufferPointer<UInt8>, _ value: Range<Int>
    ) -> Bool
  ) {
    guard !isEmpty else { return }
    text.withBytes { buffer in
      KeyedText.forEachMember(buffer) { start, key, value in body(buffer, start, key, value) }
    }
  }

  /// Whether the members, as one object, meet every rule of `schema`: checked on their
  /// text (`JSONSchema.admits(canonical:_:node:)`), nothing decoded that no rule reads.
  func meets(_ schema: JSONSchema) -> Bool {
    guard !isEmpty else {
      return [UInt8(ascii: "{"), UInt8(ascii: "}")].withUnsafeBufferPointer {
        schema.admits(canonical: $0, 0..<2)
      }
    }
    return withText { schema.admits(canonical: $0, 0..<$0.count) }
  }

  /// The member called `key`: its index among the members, and where it starts (its code
  /// or key token) and its value lies in the stored text. A key without `"`, `\` or a
  /// control character is the bytes between its token's quotes (canonical text escapes
  /// nothing else), so each member's key is compared as bytes; any other key is compared
  /// with each token decoded where it has an escape (`CanonicalJSON.token(_:_:is:)`).
  private func find(_ key: String) -> (index: Int, start: Int, value: Range<Int>)? {
    var name = key
    return name.withUTF8 { name in
      guard !name.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 })
      else {
        return find(where: { token in CanonicalJSON.token(token, 0..<token.count, is: key) })
      }
      return find(where: { token in
        token.count == name.count &+ 2
          && CanonicalJSON.sameBytes(UnsafeBufferPointer(rebasing: token[1..<(token.count &- 1)]), name)
      })
    }
  }

  /// The first member whose key token `matches`: its index among the members, and where
  /// it starts and its value lies in the stored text.
  @inline(__always)
  private func find(where matches: (_ token: UnsafeBufferPointer<UInt8>) -> Bool) -> (
    index: Int, start: Int, value: Range<Int>
  )? {
    var found: (Int, Int, Range<Int>)?
    var index = 0
    forEachMember { _, start, token, value in
      if matches(token) {
        found = (index, start, value)
        return false
      }
      index += 1
      return true
    }
    return found
  }

  /// Removes the member `found`, with the comma before it (after it, when it is first).
  private mutating func remove(_ found: (index: Int, start: Int, value: Range<Int>)) {
    var cut = found.start..<found.value.upperBound
    text.withBytes { text in
      if text[cut.upperBound] == UInt8(ascii: ",") {
        cut = cut.lowerBound..<(cut.upperBound + 1)
      } else if text[cut.lowerBound - 1] == UInt8(ascii: ",") {
        cut = (cut.lowerBound - 1)..<cut.upperBound
      }
    }
    replace(cut, with: [])
  }

  /// The stored text with `range` replaced by `bytes` (keyed text too), made straight into
  /// a block of its own (the text is never copied out first); no members when only `{}`
  /// would be left.
  private mutating func replace(_ range: Range<Int>, with bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { replace(range, with: $0) }
  }

  /// `replace(_:with:)` of bytes in place.
  private mutating func replace(_ range: Range<Int>, with bytes: UnsafeBufferPointer<UInt8>) {
    let newCount = text.count - range.count + bytes.count
    guard newCount > 2 else {
      self = CustomFields()
      return
    }
    text = text.withBytes { old in
      BlockText(count: newCount) { made in
        _ = made.append(UnsafeBufferPointer(rebasing: old[..<range.lowerBound]))
        _ = made.append(bytes)
        _ = made.append(UnsafeBufferPointer(rebasing: old[range.upperBound...]))
      }
    }
  }

  /// Inserts `key` with `value` before the member at `position` (at the end when there is
  /// none); the key written as its code, as every stored text has it (given one now when
  /// it has none and the table has room).
  private mutating func insert(_ key: String, _ value: JSONValue, at position: Int) {
    let token = CanonicalJSON.token(of: key)
    var member: [UInt8]
    if let code = token.withUnsafeBufferPointer({ KeyCodes.shared.code(for: $0) }) {
      member = KeyCodes.bytes(of: code)
    } else {
      member = token
      member.append(UInt8(ascii: ":"))
    }
    member += CanonicalJSON.text(of: value)
    guard !isEmpty else {
      text = ([UInt8(ascii: "{")] + member + [UInt8(ascii: "}")]).withUnsafeBufferPointer {
        BlockText(copying: $0)
      }
      return
    }
    var place = text.count - 1
    var index = 0
    forEachMember { _, start, _, _ in
      if index == position {
        place = start
        return false
      }
      index += 1
      return true
    }
    if place == text.count - 1 {
      replace(place..<place, with: [UInt8(ascii: ",")] + member)
    } else {
      replace(place..<place, with: member + [UInt8(ascii: ",")])
    }
  }

}

/// A custom field's value and its place among the record's custom keys.
///
/// Equality is the value's alone: the position says where to put a key that is
/// absent, it is not part of what the field holds.
public struct CustomValue: Equatable, Sendable {
  var json: JSONValue
  /// Index among the custom keys; `Int.max` appends.
  var position: Int

  init(_ json: JSONValue, position: Int = .max) {
    self.json = json
    self.position = position
  }

  public static func == (lhs: CustomValue, rhs: CustomValue) -> Bool {
    lhs.json == rhs.json
  }
}
