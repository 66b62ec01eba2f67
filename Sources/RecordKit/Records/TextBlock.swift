/// Bytes of many records' texts in one allocation: a run-time record's canonical text
/// (`CustomFields`), a shipped kind's strings and lists (`BlockText`, `TextList`). A
/// file's records are read into blocks of 256 KiB (`TextArena`), so that a text costs its
/// bytes, not an allocation of its own (a `String`'s or an array's 32-byte header and the
/// allocator's own 16 or so, on texts of 40 to 150 bytes). A text set by an edit gets a
/// block of its own, of exactly its size.
///
/// A block's bytes are written once, front to back, while the read that fills it owns it
/// (`TextArena.store`), and never change after: a text handed out is never written again,
/// so records on any thread may share a block.
///
/// Written rather than taken from a library: the standard library's `ManagedBuffer` is the
/// allocation; what is here is the bookkeeping of where the next text goes.
final class TextBlock: ManagedBuffer<Int, UInt8> {
  /// A new block with room for `capacity` bytes, none used.
  static func make(capacity: Int) -> TextBlock {
    unsafeDowncast(TextBlock.create(minimumCapacity: capacity) { _ in 0 }, to: TextBlock.self)
  }

  /// A block holding exactly `bytes`.
  static func make(holding bytes: UnsafeBufferPointer<UInt8>) -> TextBlock {
    let block = make(capacity: bytes.count)
    _ = block.append(bytes)
    return block
  }

  /// How many bytes are used.
  var used: Int { header }

  /// Copies `bytes` after the used ones and returns where they start; `nil` when they do
  /// not fit. O(bytes).
  func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    let start = header
    guard bytes.count <= capacity - start else { return nil }
    withUnsafeMutablePointerToElements { elements in
      if let source = bytes.baseAddress { (elements + start).initialize(from: source, count: bytes.count) }
    }
    header = start + bytes.count
    return start
  }

  /// Lets `fill` write at most `count` bytes after the used ones and keeps as many as it
  /// says it wrote; returns where they start, `nil` (calling nothing) when `count` bytes
  /// do not fit.
  func append(atMost count: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Int) -> Int? {
    let start = header
    guard count <= capacity - start else { return nil }
    let written = withUnsafeMutablePointerToElements { elements in fill(elements + start) }
    precondition(written >= 0 && written <= count, "a fill within its room")
    header = start + written
    return start
  }

  /// Calls `body` with `count` bytes from `start`, which must lie among the used ones.
  func withBytes<Result>(
    from start: Int, count: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows -> Result {
    precondition(start >= 0 && count >= 0 && start + count <= header, "a text inside its block")
    return try withUnsafeMutablePointerToElements { elements in
      try body(UnsafeBufferPointer(start: elements + start, count: count))
    }
  }
}

/// Where a read puts the texts of the records it makes: the block it fills, a new
/// one of 256 KiB (or of the text's size, for a longer text) when a text does not fit.
/// Waste: at most the end of each block a text did not fit in, and of the last one.
/// `TextArena.single` gives each text a block of exactly its size instead (a value read
/// on its own, which 256 KiB would waste).
public struct TextArena {
  private var block: TextBlock?
  /// The size of the blocks it makes (0: each text's own size).
  private let blockSize: Int
  /// Where `build` puts a text together before storing it, kept from one text to the next.
  private var scratch: [UInt8] = []
  /// The codes of the members of the object text keyed before (`KeyedText.encode`); none
  /// kept for `single`, which keys one text.
  private var recentCodes: [Int32] = []

  /// The size of a read's blocks.
  static let readBlockSize = 1 << 18

  /// An arena for a read of many records.
  public init() {
    blockSize = Self.readBlockSize
    recentCodes = Array(repeating: -1, count: KeyedText.recentPlaces)
  }

  private init(blockSize: Int) { self.blockSize = blockSize }

  /// An arena that gives each text a block of its own size (one value read alone).
  static var single: TextArena { TextArena(blockSize: 0) }

  /// The text `body` appends to the bytes it is given (empty), stored as `BlockText`
  /// does; `nil`, with nothing stored, when `body` returns false. What a value made of
  /// parts (a list's elements) is read with: put together in one buffer kept by the arena,
  /// then copied once.
  mutating func build<Failure: Error>(_ body: (inout [UInt8]) throws(Failure) -> Bool) throws(Failure)
    -> BlockText?
  {
    var text: [UInt8] = []
    swap(&text, &scratch)
    defer { swap(&text, &scratch) }
    text.removeAll(keepingCapacity: true)
    guard try body(&text) else { return nil }
    return text.withUnsafeBufferPointer { BlockText(copying: $0, in: &self) }
  }

  /// The object `canonical` (canonical text) stored in the keyed form (`KeyCodes`): in
  /// the arena's block, or in a block of exactly its size for `single`. `marks`: as
  /// `KeyedText.encode`'s.
  mutating func storeKeyed(_ canonical: UnsafeBufferPointer<UInt8>, marks: MemberMarks? = nil) -> BlockText {
    guard blockSize > 0 else { return Self.storeKeyedAlone(canonical) }
    var count = 0
    func fill(_ out: UnsafeMutablePointer<UInt8>) -> Int {
      count = KeyedText.encode(canonical, marks: marks, into: out, recent: &recentCodes)
      return count
    }
    if let block, let start = block.append(atMost: canonical.count, fill) {
      return BlockText(block: block, start: start, count: count)
    }
    let fresh = TextBlock.make(capacity: max(blockSize, canonical.count))
    block = fresh
    // A fresh block has room for the text.
    let start = fresh.append(atMost: canonical.count, fill) ?? 0
    return BlockText(block: fresh, start: start, count: count)
  }

  /// `storeKeyed(_:)` of `single`: the object `canonical` keyed into a block of exactly its
  /// size, each key found in the table (no cache: one text).
  static func storeKeyedAlone(_ canonical: UnsafeBufferPointer<UInt8>) -> BlockText {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: canonical.count) { room in
      var none: [Int32] = []
      let count = room.baseAddress.map { KeyedText.encode(canonical, into: $0, recent: &none) } ?? 0
      return BlockText(copying: UnsafeBufferPointer(rebasing: room[..<count]))
    }
  }

  /// `JSONWriter.codeKeyWritten(since:place:recent:codes:)` with the arena's codes of the
  /// object keyed before: how a read that writes many records' members one by one (a
  /// shipped kind's own members, a table's rows) keys them as it writes them.
  mutating func codeKeyWritten(in writer: inout JSONWriter, since memberStart: Int, place: Int) -> Int32 {
    writer.codeKeyWritten(since: memberStart, place: place, recent: &recentCodes)
  }

  /// `bytes` copied into the arena: the block and where in it they start.
  mutating func store(_ bytes: UnsafeBufferPointer<UInt8>) -> (block: TextBlock, start: Int) {
    if let block, let start = block.append(bytes) { return (block, start) }
    let fresh = TextBlock.make(capacity: max(blockSize, bytes.count))
    block = fresh
    // A fresh block has room for the text.
    return (fresh, fresh.append(bytes) ?? 0)
  }
}

/// Where one text lies: its block, where it starts there and its length — 16 bytes, the
/// size of a `String`, but no allocation of its own when read into an arena. The one way
/// record code reaches a block's bytes (`withBytes`); a `BlockText` never changes the bytes
/// it names, so copies share them freely.
///
/// As a string field's value (`TextCodec`) it holds UTF-8 text, checked where it came from
/// (the reader, a `String`); equality is by the bytes, as filters compare strings (not
/// Swift's `==`, which finds "é" and "e" + U+0301 equal: the file holds bytes).
struct BlockText: Equatable, @unchecked Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
  /// `nil` for no bytes. Shared across threads safely: a text in a block is never written
  /// again (`TextBlock`), which the standard library's `ManagedBuffer` cannot declare.
  private let block: TextBlock?
  private let start: UInt32
  private let length: UInt32

  /// No bytes.
  init() { self.init(block: nil, start: 0, length: 0) }

  /// Where the text's bytes are, as an address and a count, for `CacheHint` (nothing is
  /// read there); `nil` for no bytes. Only arithmetic on the block's address: no call
  /// that the compiler cannot see through, so reading it from a record in place retains
  /// nothing (a retain would touch the block's memory, which is what a hint is to spare).
  @inline(__always)
  var byteSpan: (address: Int, count: Int)? {
    guard let block else { return nil }
    let elements = block.withUnsafeMutablePointerToElements { Int(bitPattern: $0) }
    return (elements + Int(start), Int(length))
  }

  private init(block: TextBlock?, start: UInt32, length: UInt32) {
    (self.block, self.start, self.length) = (block, start, length)
  }

  /// The `count` bytes at `start` in `block`, which holds them (none when `count` is 0).
  fileprivate init(block: TextBlock, start: Int, count: Int) {
    precondition(count <= UInt32.max && start <= UInt32.max, "a text shorter than 4 GiB")
    guard count > 0 else {
      self.init()
      return
    }
    self.init(block: block, start: UInt32(start), length: UInt32(count))
  }

  /// `bytes` copied into a block of their own, of exactly their size (none when empty).
  init(copying bytes: UnsafeBufferPointer<UInt8>) {
    precondition(bytes.count <= UInt32.max, "a text shorter than 4 GiB")
    guard !bytes.isEmpty else {
      self.init()
      return
    }
    self.init(block: TextBlock.make(holding: bytes), start: 0, length: UInt32(bytes.count))
  }

  /// `bytes` copied into `arena`'s block (what a read that makes many records uses).
  init(copying bytes: UnsafeBufferPointer<UInt8>, in arena: inout TextArena) {
    precondition(bytes.count <= UInt32.max, "a text shorter than 4 GiB")
    guard !bytes.isEmpty else {
      self.init()
      return
    }
    let stored = arena.store(bytes)
    self.init(block: stored.block, start: UInt32(stored.start), length: UInt32(bytes.count))
  }

  /// A text of `count` bytes that `fill` appends to a block of exactly that size, made
  /// for it (every byte of it: checked).
  init(count: Int, filling fill: (TextBlock) -> Void) {
    guard count > 0 else {
      self.init()
      return
    }
    let made = TextBlock.make(capacity: count)
    fill(made)
    precondition(made.used == count, "a text filled to its size")
    self.init(block: made, start: 0, length: UInt32(count))
  }

  /// A string's UTF-8 bytes, in a block of their own.
  init(_ string: String) {
    var string = string
    self = string.withUTF8 { BlockText(copying: $0) }
  }

  init(stringLiteral value: String) { self.init(value) }

  /// How many bytes.
  var count: Int { Int(length) }

  /// Whether the two texts lie in one block (what the texts of one read do).
  func sharesBlock(with other: BlockText) -> Bool { block != nil && block === other.block }

  var isEmpty: Bool { length == 0 }

  /// Calls `body` with the bytes, in place. O(1) before `body`.
  @inline(__always)
  func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    guard let block else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
    return try block.withBytes(from: Int(start), count: Int(length), body)
  }

  /// The bytes as a `String`, which they must be valid UTF-8 for (a string field's are).
  /// Allocates for more than 15 bytes, as any `String` does.
  var string: String { withBytes { UTF8Validation.knownValidString($0) } }

  var description: String { string }

  static func == (lhs: BlockText, rhs: BlockText) -> Bool {
    guard lhs.length == rhs.length else { return false }
    if lhs.block === rhs.block && lhs.start == rhs.start { return true }
    return lhs.withBytes { left in rhs.withBytes { right in CanonicalJSON.sameBytes(left, right) } }
  }

  /// The order of the two texts' bytes (code point order for UTF-8): negative, zero or
  /// positive as `lhs` is below, equal to or above `rhs`. No allocation.
  static func compare(_ lhs: BlockText, _ rhs: BlockText) -> Int {
    lhs.withBytes { left in rhs.withBytes { right in CanonicalJSON.compareBytes(left, right) } }
  }
}
