/// The inside of a list or object written anew from its original parts: the parts kept
/// keep their bytes, and between two parts that stood side by side in the original, the
/// bytes that stood between them (commas, line breaks, blank lines, indents) stay too.
///
/// Where parts did not stand side by side (one was removed between them, or one is new),
/// the separator is the one that stood before the later part, else the one before the
/// earlier part, else any the container had, else `fresh`: so a removed part takes one
/// adjacent separator with it, and a new part is set off as its neighbours are.
struct SpanSplice {
  /// One part of the new inside: an original part by its position, or bytes that stand in
  /// for original part `replacing` (a member whose value changed) or for none (a new one).
  enum Part {
    case kept(Int)
    case written([UInt8], replacing: Int?)

    var original: Int? {
      switch self {
      case .kept(let position): position
      case .written(_, let replacing): replacing
      }
    }
  }

  let bytes: UnsafeBufferPointer<UInt8>
  /// The original inside (after `[`/`{`, before `]`/`}`, or a whole JSON Lines file).
  let inner: Range<Int>
  /// The original parts, in order.
  let parts: SpanList
  /// For an inside that had no parts: what opens and closes it and separates its parts.
  var freshOpening: [UInt8] = []
  var freshSeparator: [UInt8] = Array(", ".utf8)
  var freshClosing: [UInt8] = []

  /// Whether the original inside spreads over lines.
  var isMultiline: Bool { bytes[inner].contains(0x0A) }

  /// The white space the original parts stand at on their lines (empty on one line).
  var partIndent: [UInt8] {
    guard let first = parts.first else { return [] }
    return JSONLayoutStyle.indent(before: first.lowerBound, in: bytes)
  }

  /// The bytes between original parts `position - 1` and `position`.
  func separator(before position: Int) -> Slice<UnsafeBufferPointer<UInt8>> {
    bytes[parts[position - 1].upperBound..<parts[position].lowerBound]
  }

  /// What goes between a part standing for original `earlier` and one standing for
  /// original `later` (`nil`: a new part).
  func separator(between earlier: Int?, and later: Int?, into out: inout [UInt8]) {
    if let earlier, let later, later == earlier + 1 {
      out += separator(before: later)
    } else if let later, later >= 1 {
      out += separator(before: later)
    } else if let earlier, earlier >= 1 {
      out += separator(before: earlier)
    } else if parts.count >= 2 {
      out += separator(before: 1)
    } else {
      out += freshSeparator
    }
  }

  /// What opens the inside before its first part.
  func opening(into out: inout [UInt8]) {
    if let first = parts.first {
      out += bytes[inner.lowerBound..<first.lowerBound]
    } else {
      out += freshOpening
    }
  }

  /// What closes the inside after its last part.
  func closing(into out: inout [UInt8]) {
    if let last = parts.last { out += bytes[last.upperBound..<inner.upperBound] } else { out += freshClosing }
  }

  /// The whole new inside of `newParts`. With no parts left it is empty, or the original
  /// inside when that had none either (`[ ]` stays so).
  func write(_ newParts: [Part], into out: inout [UInt8]) {
    guard !newParts.isEmpty else {
      if parts.isEmpty { out += bytes[inner] }
      return
    }
    opening(into: &out)
    var previous: Int?
    for (index, part) in newParts.enumerated() {
      if index > 0 { separator(between: previous, and: part.original, into: &out) }
      switch part {
      case .kept(let position): out += bytes[parts[position]]
      case .written(let written, _): out += written
      }
      previous = part.original
    }
    closing(into: &out)
  }
}
