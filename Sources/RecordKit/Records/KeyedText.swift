/// An object's members in the keyed form (`KeyCodes`): walked, made from canonical text
/// and spelled out again. Text given here is the canonical text of an object, or that text
/// keyed by `KeyCodes.shared`; nothing validates it.
enum KeyedText {
  /// Calls `body` with each top member of the keyed object `text`, in order: where the
  /// member starts (its code or key token), its key token (from the table for a coded
  /// key: it stays valid for the process's life) and where its value lies in `text`;
  /// stops when `body` returns false. One pass over the text, as
  /// `CanonicalJSON.forEachMember`.
  @inline(__always)
  static func forEachMember(
    _ text: UnsafeBufferPointer<UInt8>, codes: KeyCodes = .shared,
    _ body: (_ start: Int, _ key: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> Bool
  ) {
    var cursor = 1
    let end = text.count &- 1
    while cursor < end {
      let (key, value) = member(at: cursor, of: text, codes: codes)
      guard body(cursor, key, value) else { return }
      cursor = value.upperBound &+ 1
    }
  }

  /// The member of the keyed object `text` that starts at `start` (its code or key token,
  /// after the `{` or a comma): its key token (from the table for a coded key) and where
  /// its value lies. O(the member's bytes). The next member, if any, starts one byte after
  /// the value.
  @inline(__always)
  static func member(at start: Int, of text: UnsafeBufferPointer<UInt8>, codes: KeyCodes = .shared) -> (
    key: UnsafeBufferPointer<UInt8>, value: Range<Int>
  ) {
    let key: UnsafeBufferPointer<UInt8>
    let valueStart: Int
    if text[start] < 0x20 {
      let (code, width) = KeyCodes.read(text, at: start)
      key = codes.token(code)
      valueStart = start &+ width
    } else {
      let keyEnd = CanonicalJSON.stringEnd(text, from: start)
      key = UnsafeBufferPointer(rebasing: text[start..<keyEnd])
      valueStart = keyEnd &+ 1
    }
    return (key, valueStart..<CanonicalJSON.valueEnd(text, from: valueStart))
  }

  /// Writes the object `canonical` (canonical text) in the keyed form at `out` and returns
  /// how many bytes: never more than `canonical.count` (a code is at most three bytes and
  /// takes the place of a key token and its colon, at least three). Each top member's key
  /// gets its code from `codes` (given one if it has none and there is room).
  ///
  /// `recent`: the codes of the members of the text keyed before, by place (`-1`: none),
  /// kept by the caller from text to text, as many places as its count (none: every key
  /// goes to the table). The records of a file mostly name the same keys
  /// in the same order, so a key is found by comparing its bytes with one token, not by
  /// the table's lock and hash. `marks`, when given, are the reader's marks of
  /// `canonical`'s members (`MemberMarks`, made by a read that wrote every key as its
  /// token): the walk then reads no byte between the keys.
  /// O(canonical.count).
  static func encode(
    _ canonical: UnsafeBufferPointer<UInt8>, marks: MemberMarks? = nil, into out: UnsafeMutablePointer<UInt8>,
    codes: KeyCodes = .shared, recent: inout [Int32]
  ) -> Int {
    guard let source = canonical.baseAddress else { return 0 }
    var written = 0
    var copied = 0
    var place = 0
    @inline(__always)
    func member(_ token: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) {
      if let code = self.code(of: token, place: place, codes: codes, recent: &recent) {
        // The token and its colon end where the value starts.
        let keyStart = value.lowerBound &- 1 &- token.count
        let run = keyStart &- copied
        (out + written).initialize(from: source + copied, count: run)
        written &+= run
        written &+= KeyCodes.write(code, at: out + written)
        copied = value.lowerBound
      }
      place &+= 1
    }
    if let marks {
      marks.forEach(in: canonical) { token, value, _ in
        member(token, value)
        return true
      }
    } else {
      CanonicalJSON.forEachMember(canonical, 0..<canonical.count) { key, value in
        member(UnsafeBufferPointer(rebasing: canonical[key]), value)
        return true
      }
    }
    let run = canonical.count &- copied
    if run > 0 { (out + written).initialize(from: source + copied, count: run) }
    return written &+ run
  }

  /// How many places a read's `recent` keeps (`TextArena`).
  static let recentPlaces = 64

  /// The code of the key token `token`, member `place` of its object, from `recent` when
  /// it holds it there, else from `codes` (noted in `recent`; see `encode`).
  @inline(__always)
  static func code(
    of token: UnsafeBufferPointer<UInt8>, place: Int, codes: KeyCodes, recent: inout [Int32]
  ) -> Int? {
    guard place < recent.count else { return codes.code(for: token) }
    let known = Int(recent[place])
    if known >= 0, CanonicalJSON.sameBytes(codes.token(known), token) { return known }
    let code = codes.code(for: token)
    recent[place] = Int32(code ?? -1)
    return code
  }

  /// The length of `text` spelled out, when it holds a code; `nil` when it holds none (it
  /// is canonical text as it is). O(text.count).
  static func canonicalCount(of text: UnsafeBufferPointer<UInt8>, codes: KeyCodes = .shared) -> Int? {
    var extra = 0
    var coded = false
    forEachCode(in: text) { _, code, width in
      // The token and its colon for the code.
      extra &+= codes.token(code).count &+ 1 &- width
      coded = true
    }
    return coded ? text.count &+ extra : nil
  }

  /// Writes `text` spelled out at `out`, which has room for `canonicalCount(of:)` bytes.
  static func decode(
    _ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, codes: KeyCodes = .shared
  ) {
    guard let source = text.baseAddress else { return }
    var written = 0
    var copied = 0
    forEachCode(in: text) { found, code, width in
      let run = found &- copied
      (out + written).initialize(from: source + copied, count: run)
      written &+= run
      let token = codes.token(code)
      if let spelled = token.baseAddress { (out + written).initialize(from: spelled, count: token.count) }
      written &+= token.count
      out[written] = UInt8(ascii: ":")
      written &+= 1
      copied = found &+ width
    }
    let run = text.count &- copied
    if run > 0 { (out + written).initialize(from: source + copied, count: run) }
  }

  /// Calls `body` with each code in the keyed text `text`, in order: where it is, the code
  /// and how many bytes it takes. One scan for bytes below `0x20`, eight at a time.
  @inline(__always)
  private static func forEachCode(
    in text: UnsafeBufferPointer<UInt8>, _ body: (_ at: Int, _ code: Int, _ width: Int) -> Void
  ) {
    var cursor = 0
    while let found = CanonicalJSON.firstControlByte(in: text, from: cursor) {
      let (code, width) = KeyCodes.read(text, at: found)
      body(found, code, width)
      cursor = found &+ width
    }
  }
}
