extension Document {
  /// The position of the record a REF names: an exact id, a unique id prefix,
  /// or `@N`, the 1-based position in file order.
  public func resolve(_ ref: String) throws(RefError) -> Int {
    if ref.hasPrefix("@") {
      guard let number = Int(ref.dropFirst()), number >= 1 else { throw .badPosition(ref) }
      guard number <= records.count else { throw .positionOutOfRange(number, count: records.count) }
      return number - 1
    }
    guard !ref.isEmpty else { throw .unknown(ref) }
    guard let key = Root.fields.key else { throw .noKey(ref) }
    if let position = position(ofID: ref) { return position }
    // An integer key matches exactly only: `1` must not pick `12`.
    guard !key.isInteger else { throw .unknown(ref) }
    var matches: [Int] = []
    for (index, record) in records.enumerated() where record.id.hasPrefix(ref) {
      matches.append(index)
      if matches.count > 5 { break }
    }
    switch matches.count {
    case 0: throw .unknown(ref)
    case 1: return matches[0]
    default: throw .ambiguous(ref, candidates: matches.map { records[$0].id })
    }
  }

  /// A new random id: lowercase letters and digits, 8 characters (more if the
  /// document is so large that 8 start to collide), unique in this document.
  public func newID<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
    var length = 8
    while true {
      for _ in 0..<16 {
        let bytes = (0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] }
        let id = String(decoding: bytes, as: UTF8.self)
        if !contains(id: id) { return id }
      }
      length += 2
    }
  }
}

/// Why a REF names no single record.
public enum RefError: Error, Equatable, Sendable {
  case unknown(String)
  case ambiguous(String, candidates: [String])
  case badPosition(String)
  case positionOutOfRange(Int, count: Int)
  /// A REF other than `@N` in a kind whose records have no key.
  case noKey(String)
}

extension RefError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .unknown(let ref):
      "no record with id or id prefix '\(ref)'"
    case .ambiguous(let ref, let candidates):
      "'\(ref)' matches several records (\(candidates.prefix(5).joined(separator: ", "))"
        + (candidates.count > 5 ? ", …" : "") + "); type more of the id"
    case .badPosition(let ref):
      "'\(ref)' is not a position; write @1 for the first record"
    case .noKey(let ref):
      "'\(ref)' names no record: these records have no key (no \"id\"); refer to them by position, @1 for the first"
    case .positionOutOfRange(let number, let count):
      count == 0
        ? "no record @\(number): the file has no records"
        : "no record @\(number): the file has \(count) record\(count == 1 ? "" : "s")"
    }
  }
}
