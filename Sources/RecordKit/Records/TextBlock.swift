/// Bytes of many records' canonical texts (`CustomFields`) in one allocation: a file's
/// records are read into blocks of 256 KiB (`TextArena`), so that a record's text costs its
/// bytes, not an array of its own (a 32-byte header and the allocator's own 16 or so, on
/// texts of 150 bytes on average in a file of books). A text set by an edit gets a block
/// of its own, of exactly its size.
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

/// Where a read puts the canonical texts of the records it makes: the block it fills, a new
/// one of 256 KiB (or of the text's size, for a longer text) when a text does not fit.
/// Waste: at most the end of each block a text did not fit in, and of the last one.
struct TextArena {
  private var block: TextBlock?

  static let blockSize = 1 << 18

  init() {}

  /// `bytes` copied into the arena: the block and where in it they start.
  mutating func store(_ bytes: UnsafeBufferPointer<UInt8>) -> (block: TextBlock, start: Int) {
    if let block, let start = block.append(bytes) { return (block, start) }
    let fresh = TextBlock.make(capacity: max(Self.blockSize, bytes.count))
    block = fresh
    // A fresh block has room for the text.
    return (fresh, fresh.append(bytes) ?? 0)
  }
}
