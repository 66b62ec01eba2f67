/// The keys of a record read before, in order, as their tokens: what lets the reader take
/// a record's key by comparing its bytes with one it has seen, instead of scanning it for
/// escapes and invalid UTF-8 and checking it against the record's other keys
/// (`JSONReader.readCanonicalObject(into:members:)`). The records of a file mostly have
/// the same keys in the same order, some of them left out.
///
/// A key whose bytes are those of key `n` here is that key: a key token kept here has no
/// escape and no quote inside, so the same bytes are the same whole token, and valid
/// UTF-8. Keys met at rising places here (`match(_:at:from:)` looks from the place after
/// the last key met) are different keys, as the shape's keys are: a record whose keys
/// all match needs no check for a duplicate.
///
/// Set again (`set(met:then:in:)`) from a record that left it: its keys then become the
/// shape, so that a record with a key the others leave out becomes the shape that theirs
/// match with that key skipped.
struct KeyShape {
  /// One key: where its token starts in `tokens`, its byte count, quotes included, the
  /// class of the bytes between its quotes (`JSONKeySet.keyClass`) and its code in
  /// `KeyCodes.shared` (-1: none), found when the shape is set, for a keyed read.
  struct Key {
    var start: Int
    var count: Int
    var keyClass: UInt64
    var code: Int32
  }

  /// The most keys a shape holds: a record of more has none (its met keys are bits of a
  /// word, `CanonicalKeys.shapeMet`).
  static let limit = 64
  /// How many keys a record's key may skip to meet one: a record leaves out a few
  /// optional members, not most.
  static let reach = 4

  /// The keys' tokens, back to back.
  private var tokens: [UInt8] = []
  private(set) var keys: [Key] = []

  /// The place of the key at or after place `from` (and fewer than `reach` after it)
  /// whose token `bytes` holds at `offset`, with a byte after it (a key's `:`); `nil` when
  /// none does. O(the key's bytes), per key tried.
  @inline(__always)
  func match(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, from: Int) -> Int? {
    let end = min(from &+ Self.reach, keys.count)
    guard from < end, let base = bytes.baseAddress else { return nil }
    let left = bytes.count &- offset
    return keys.withUnsafeBufferPointer { keys in
      tokens.withUnsafeBufferPointer { tokens in
        for place in from..<end {
          let key = keys[place]
          guard key.count < left else { continue }
          if CanonicalJSON.sameBytes(
            UnsafeBufferPointer(start: base + offset, count: key.count),
            UnsafeBufferPointer(rebasing: tokens[key.start..<(key.start &+ key.count)]))
          {
            return place
          }
        }
        return nil
      }
    }
  }

  /// Calls `body` with the text between the quotes of each key whose place is set in
  /// `met`, in the order of their places.
  func forEachKey(met: UInt64, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    tokens.withUnsafeBufferPointer { tokens in
      var bits = met
      while bits != 0 {
        let key = keys[bits.trailingZeroBitCount]
        body(UnsafeBufferPointer(rebasing: tokens[(key.start + 1)..<(key.start + key.count - 1)]))
        bits &= bits &- 1
      }
    }
  }

  /// Makes the shape the keys of a record: those of this shape at the places set in `met`,
  /// in their order, then `others`, ranges of the text between the quotes of keys without
  /// escapes in `bytes`. Left empty when the record has more than `limit` keys.
  mutating func set(met: UInt64, then others: ArraySlice<Range<Int>>, in bytes: UnsafeBufferPointer<UInt8>) {
    var newTokens: [UInt8] = []
    var newKeys: [Key] = []
    guard met.nonzeroBitCount + others.count <= Self.limit else {
      (tokens, keys) = ([], [])
      return
    }
    func add(_ inner: UnsafeBufferPointer<UInt8>) {
      let start = newTokens.count
      newTokens.append(UInt8(ascii: "\""))
      newTokens.append(contentsOf: inner)
      newTokens.append(UInt8(ascii: "\""))
      let code = newTokens.withUnsafeBufferPointer {
        KeyCodes.shared.code(for: UnsafeBufferPointer(rebasing: $0[start...]))
      }
      newKeys.append(
        Key(
          start: start, count: inner.count + 2,
          keyClass: JSONKeySet.keyClass(count: inner.count, first: inner.first ?? 0), code: Int32(code ?? -1))
      )
    }
    forEachKey(met: met, add)
    for range in others { add(UnsafeBufferPointer(rebasing: bytes[range])) }
    (tokens, keys) = (newTokens, newKeys)
  }
}
