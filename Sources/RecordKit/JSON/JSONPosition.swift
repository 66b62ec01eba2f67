/// A place in a JSON document, as a person looks for it: 1-based line and column.
///
/// The column counts Unicode scalars, not bytes, so that it matches what an editor
/// shows on a line with non-ASCII text. Lines end at LF, CR LF or a lone CR. The byte
/// `offset` (0-based, from the first byte of the file) is kept for tools like `xxd`.
public struct JSONPosition: Equatable, Hashable, Sendable, CustomStringConvertible {
  public var line: Int
  public var column: Int
  public var offset: Int

  /// `LINE:COLUMN`, the form compilers and editors understand.
  public var description: String { "\(line):\(column)" }

  /// The position of `target`, counted onwards from `self` (which must not be past it).
  ///
  /// Counting onwards lets a reader that reports many positions in order (one per
  /// record) stay linear instead of rescanning the file from the start each time.
  func advanced(to target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> JSONPosition {
    var line = self.line
    var column = self.column
    var index = offset
    let end = min(target, bytes.count)
    while index < end {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\r") {
        line += 1
        column = 1
      } else if byte == UInt8(ascii: "\n") {
        if index == 0 || bytes[index - 1] != UInt8(ascii: "\r") { line += 1 }
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
      index += 1
    }
    return JSONPosition(line: line, column: column, offset: target)
  }
}
