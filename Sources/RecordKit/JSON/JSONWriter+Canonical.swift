/// Canonical text (`CanonicalJSON`) laid out again by the writer: a record's members
/// written to a file without being decoded.
extension JSONWriter {
  /// Writes the value whose canonical text is `text[range]` in this writer's layout: a
  /// scalar copied, an array or object walked element by element (no tree is built).
  /// Costs one pass over the text.
  mutating func canonical(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
    switch text[range.lowerBound] {
    case UInt8(ascii: "["):
      beginArray()
      CanonicalJSON.forEachElement(text, range) { element in
        canonical(text, element)
        return true
      }
      endArray()
    case UInt8(ascii: "{"):
      beginObject()
      CanonicalJSON.forEachMember(text, range) { key, value in
        canonicalKey(UnsafeBufferPointer(rebasing: text[key]))
        canonical(text, value)
        return true
      }
      endObject()
    default:
      canonicalScalar(UnsafeBufferPointer(rebasing: text[range]))
    }
  }
}
