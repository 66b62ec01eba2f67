extension Array where Element == UInt8 {
  /// Appends `literal`'s UTF-8 bytes in one copy: what the compact JSON writers (the
  /// history log's steps, `--format json`) use for their fixed pieces, where `+= "…".utf8`
  /// copies through a string's UTF-8 view, generically; a static string's bytes are
  /// contiguous already.
  @inline(__always)
  mutating func append(literal: StaticString) {
    literal.withUTF8Buffer { append(contentsOf: $0) }
  }
}
