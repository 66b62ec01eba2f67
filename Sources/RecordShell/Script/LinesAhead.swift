import Glibc
import RecordKit

/// The lines of a source's held bytes (`LineSource.withHeldLines`) that the parser's fast
/// lane takes, each scanned `depth` lines before its turn, so that what a `use` and the
/// `set` after it will read is asked of the processor while the lines before them run:
/// the `use`'s index slot when the line is scanned; its record (and the record's change
/// mark) two lines before its turn, once the slot has come; one line before, once the
/// record has come, the old value the `set` reads first (a text's bytes, a run-time
/// record's members) (`Document.warmSlot(for:)`, `warmRecord(for:)`,
/// `warmField(_:for:)`). Each of those lookups waited on two cache misses in turn, and
/// the `set` on two more.
///
/// Reading ahead changes nothing a line does: scanning is a function of the line's bytes
/// alone, a warmed address that is stale by the line's turn only costs a fetch, and the
/// lines still run one by one, in order, by the runner. The first line the fast lane does
/// not take (or that is not UTF-8, or lacks its line feed) ends what is read: nothing
/// after it is scanned, and the runner reads it the usual way. O(1) extra memory: a ring
/// of `depth + 1` lines.
struct LinesAhead<Root: Record> {
  /// A line the fast lane took, with what its run needs.
  struct Line {
    /// Its bytes in the lent buffer, without the line feed (and a carriage return before).
    var bytes: Range<Int>
    /// Where the line after it starts.
    var next: Int
    var quick: QuickCommand
    /// The lookup of a `use`'s id, begun when the line was scanned.
    var lookahead: IDLookahead?
  }

  /// Lines scanned ahead of the one that runs. At 4 a `use`'s slot is warmed two
  /// `use`/`set` pairs ahead and its record one pair ahead: each some hundreds of
  /// nanoseconds of work before it is read, more than a miss takes.
  static var depth: Int { 4 }
  private static var ringSize: Int { 8 }

  private let bytes: UnsafeBufferPointer<UInt8>
  private let parser: QuickParser
  /// Whether the kind has ids to look up (`use` by id).
  private let keyed = Root.fields.key != nil
  /// Where the next line to scan starts.
  private var scanned = 0
  /// Whether a line the fast lane does not take was met: `scanned` is its start.
  private(set) var stopped = false
  private var ring: [Line?] = Array(repeating: nil, count: ringSize)
  private var head = 0
  private var count = 0

  /// Lines from `bytes`, which end with a line feed.
  init(_ bytes: UnsafeBufferPointer<UInt8>, parser: QuickParser) {
    self.bytes = bytes
    self.parser = parser
  }

  /// The next line to run, and the warming of the lines ahead of it in `session`'s
  /// document; `nil` at the end of the bytes or at a line the fast lane does not take.
  /// `session` is only read: it is passed `inout` so that it is not copied (a copy of a
  /// session retains and releases every object it holds).
  mutating func next(warming session: inout Session<Root>) -> Line? {
    while count <= Self.depth, scanLine(warming: &session) {}
    guard count > 0, let line = ring[head] else { return nil }
    head = (head + 1) & (Self.ringSize - 1)
    count -= 1
    // The line two after this one: its slot was asked for two lines ago.
    if count >= 2, let lookahead = ring[(head + 1) & (Self.ringSize - 1)]?.lookahead {
      session.warmRecord(for: lookahead)
    }
    // The next line, a `use` whose record was asked for a line ago, and a `set` after it:
    // the value that `set` reads first.
    if count >= 2, let lookahead = ring[head]?.lookahead,
      case .set(let field, _, _)? = ring[(head + 1) & (Self.ringSize - 1)]?.quick
    {
      session.warmField(field, for: lookahead)
    }
    return line
  }

  /// Scans the next line into the ring, asking for a `use`'s slot; `false` at the end of
  /// the bytes or at a line the fast lane does not take (`stopped`).
  private mutating func scanLine(warming session: inout Session<Root>) -> Bool {
    guard !stopped, scanned < bytes.count, let base = bytes.baseAddress else { return false }
    let start = scanned
    guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start) else {
      stopped = true
      return false
    }
    let newline = UnsafeRawPointer(found) - UnsafeRawPointer(base)
    var end = newline
    if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
    guard (try? Tokenizer.validateUTF8(line)) != nil, let quick = parser.scan(bytes: line) else {
      stopped = true
      return false
    }
    var lookahead: IDLookahead?
    if keyed, case .use(let ref) = quick {
      lookahead = Document<Root>.lookahead(ofASCIIID: UnsafeBufferPointer(rebasing: line[ref]))
      if let lookahead { session.warmSlot(for: lookahead) }
    }
    ring[(head + count) & (Self.ringSize - 1)] = Line(
      bytes: start..<end, next: newline + 1, quick: quick, lookahead: lookahead)
    count += 1
    scanned = newline + 1
    return true
  }
}
