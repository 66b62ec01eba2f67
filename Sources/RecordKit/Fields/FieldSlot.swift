/// Where one field's value lives in a record, and the only code that touches a record's
/// memory to reach it.
///
/// A field is a `WritableKeyPath<Root, Value?>`. When the key path is a chain of stored
/// properties (every declared field of a shipped kind, nested ones such as
/// `\ContactRecord.address.city` too), `MemoryLayout<Root>.offset(of:)` gives its byte
/// offset, and the value is read and written there directly — what the documentation of
/// `offset(of:)` allows, and far cheaper than the runtime's generic key-path code (the
/// figures are in docs/PERFORMANCE.md). Any other key path (a custom field's subscript
/// `\Root.custom[positioned: name]`, a run-time kind's fields) is applied as usual, but
/// for a member named by one key (`customKey`: a custom field, a run-time kind's
/// top-level field), whose subscript is called directly: through the runtime's key-path
/// code an edit of a run-time kind's member cost about 8,000 instructions more. That
/// choice is made once, here, and every access below honours it.
///
/// Contract of every `at:` method: `record` points to an initialized `Root` for the whole
/// call; the `store` and `replace` forms need it mutable and leave it initialized. Each
/// access is O(1) for a stored field and costs what the key path's getter or setter
/// costs otherwise. No other file binds, offsets or reinterprets record memory; the
/// only other bindings in Sources are of plain bytes (a mapped data file as `UInt8`, the C
/// array libedit frees), and a test lists them.
struct FieldSlot<Root: Record, Value: Equatable>: @unchecked Sendable {
  /// The field's key path; applied when `offset` is `nil`.
  let keyPath: WritableKeyPath<Root, Value?>
  /// The byte offset of the field's `Value?` in `Root`, when the key path is stored.
  let offset: Int?

  /// The member's key when the key path is `\Root.custom[positioned: customKey]` (and
  /// `Value` is `CustomValue`): its subscript is called directly.
  let customKey: String?

  /// The slot of `keyPath`: stored at an offset when the key path allows it.
  init(_ keyPath: WritableKeyPath<Root, Value?>) {
    self.keyPath = keyPath
    offset = MemoryLayout<Root>.offset(of: keyPath)
    customKey = nil
  }

  /// The slot of custom member `key`, `\Root.custom[positioned: key]`.
  init(customKey key: String) where Value == CustomValue {
    keyPath = \Root.custom[positioned: key]
    offset = nil
    customKey = key
  }

  /// The member's value, when `customKey` is set (so `Value` is `CustomValue`, which the
  /// initializer that sets it requires: the cast changes no bits).
  @inline(__always)
  private func member(of custom: CustomFields, _ key: String) -> Value? {
    unsafeBitCast(custom[positioned: key], to: Value?.self)
  }

  @inline(__always)
  private func setMember(of custom: inout CustomFields, _ key: String, to value: Value?) {
    custom[positioned: key] = unsafeBitCast(value, to: CustomValue?.self)
  }

  /// `replace(with:at:writing:)` of the member: found once (`CustomFields.exchange`).
  @inline(__always)
  private func exchangeMember(of custom: inout CustomFields, _ key: String, with value: Value) -> Value?? {
    unsafeBitCast(custom.exchange(key, with: unsafeBitCast(value, to: CustomValue.self)), to: Value??.self)
  }

  /// Whether the value is reached at a fixed offset rather than through the key path.
  var isStored: Bool { offset != nil }

  /// The field's value in `record`.
  @inline(__always)
  func value(in record: Root) -> Value? {
    guard let offset else {
      if let customKey { return member(of: record.custom, customKey) }
      return record[keyPath: keyPath]
    }
    return withUnsafeBytes(of: record) { raw in raw.load(fromByteOffset: offset, as: Value?.self) }
  }

  /// The field's value in the record at `record`, read in place: the record is not
  /// copied (a copy would retain every field of it).
  @inline(__always)
  func value(at record: UnsafePointer<Root>) -> Value? {
    guard let offset else {
      if let customKey { return member(of: record.pointee.custom, customKey) }
      return record.pointee[keyPath: keyPath]
    }
    return typedPointer(UnsafeMutablePointer(mutating: record), offset).pointee
  }

  /// Calls `body` with where the record at `record` holds the field's value, when the
  /// field is stored at a fixed place (`isStored`); else calls nothing. Lends the place,
  /// not a copy: a copy of a value that holds an object retains it, which touches the
  /// object's memory.
  @inline(__always)
  func withStoredValue(at record: UnsafePointer<Root>, _ body: (UnsafePointer<Value?>) -> Void) {
    guard let offset else { return }
    body(typedPointer(UnsafeMutablePointer(mutating: record), offset))
  }

  /// How many bytes of a record's members' text `warmValue` asks for: a member is found
  /// by walking the text from its start, and a run-time record's text is mostly a few
  /// hundred bytes.
  static var warmedMemberBytes: Int { 256 }

  /// Asks the processor for what a read of the field's value in the record at `record`
  /// reads outside the record: for a field stored in the record, what `warmStored` says of
  /// the value in place (`withStoredValue`); for a member by key, the first
  /// `warmedMemberBytes` of the members' text, where the walk to it goes. Reads the
  /// record, retains nothing; a key path field of another form is left alone.
  @inline(__always)
  func warmValue(at record: UnsafePointer<Root>, _ warmStored: (UnsafePointer<Value?>) -> Void) {
    if offset != nil { return withStoredValue(at: record, warmStored) }
    guard customKey != nil, let span = record.pointee.custom.byteSpan else { return }
    CacheHint.read(address: span.address, byteCount: min(span.count, Self.warmedMemberBytes))
  }

  /// Sets the field of `record` to `value`.
  @inline(__always)
  func store(_ value: Value?, in record: inout Root) {
    guard let offset else {
      if let customKey {
        setMember(of: &record.custom, customKey, to: value)
        return
      }
      record[keyPath: keyPath] = value
      return
    }
    withUnsafeMutablePointer(to: &record) { pointer in typedPointer(pointer, offset).pointee = value }
  }

  /// Sets the field of the record at `record` to `value`, in place.
  @inline(__always)
  func store(_ value: Value?, at record: UnsafeMutablePointer<Root>) {
    guard let offset else {
      if let customKey {
        setMember(of: &record.pointee.custom, customKey, to: value)
        return
      }
      record.pointee[keyPath: keyPath] = value
      return
    }
    typedPointer(record, offset).pointee = value
  }

  /// The edit path's one access: when the field of the record at `record` differs from
  /// `value`, returns the value it held and, when `writing`, puts `value` in its place
  /// (moved out, not copied: no retain, so its memory is not touched — with a million
  /// records, a cache miss saved per edit); `nil` when it already holds `value`. One
  /// pass over the field's memory for a stored field.
  @inline(__always)
  func replace(with value: Value, at record: UnsafeMutablePointer<Root>, writing: Bool) -> Value?? {
    guard let offset else {
      if writing, let customKey { return exchangeMember(of: &record.pointee.custom, customKey, with: value) }
      let old = self.value(at: UnsafePointer(record))
      guard old != value else { return nil }
      if writing { store(value, at: record) }
      return .some(old)
    }
    let slot = typedPointer(record, offset)
    guard slot.pointee != value else { return nil }
    guard writing else { return .some(slot.pointee) }
    let old = slot.move()
    slot.initialize(to: value)
    return .some(old)
  }

  /// The field's memory in the record at `record`. `offset` came from
  /// `MemoryLayout<Root>.offset(of: keyPath)` for this very key path, so the bytes there
  /// are an initialized `Value?` for as long as the record is.
  @inline(__always)
  private func typedPointer(_ record: UnsafeMutablePointer<Root>, _ offset: Int) -> UnsafeMutablePointer<
    Value?
  > {
    assert(offset >= 0 && offset + MemoryLayout<Value?>.size <= MemoryLayout<Root>.size)
    return (UnsafeMutableRawPointer(record) + offset).assumingMemoryBound(to: Value?.self)
  }
}
