/// Kinds of JSON value, one bit each: what a key has held (`KindInference`), what a
/// schema node's `type` admits (`CanonicalNodeRules`).
struct ValueKinds: OptionSet {
  let rawValue: UInt8
  static let null = ValueKinds(rawValue: 1)
  static let bool = ValueKinds(rawValue: 2)
  static let integer = ValueKinds(rawValue: 4)
  static let number = ValueKinds(rawValue: 8)
  static let string = ValueKinds(rawValue: 16)
  static let array = ValueKinds(rawValue: 32)
  static let object = ValueKinds(rawValue: 64)
  static let all: ValueKinds = [.null, .bool, .integer, .number, .string, .array, .object]

  init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  /// The kind of the canonical value whose first byte is `first`, a number being
  /// `.number` (telling an integer takes its spelling): anything not a quote, a bracket,
  /// a brace or a literal's first letter starts a number.
  @inline(__always)
  init(first: UInt8) {
    switch first {
    case UInt8(ascii: "n"): self = .null
    case UInt8(ascii: "t"), UInt8(ascii: "f"): self = .bool
    case UInt8(ascii: "\""): self = .string
    case UInt8(ascii: "["): self = .array
    case UInt8(ascii: "{"): self = .object
    default: self = .number
    }
  }

  /// The kind of the value whose canonical text is `text[value]`: a number spelled
  /// without a fraction or an exponent is `.integer`. Inlined: inference takes the kind
  /// of every member and list element it reads.
  @inline(__always)
  init(_ text: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) {
    self.init(first: text[value.lowerBound])
    if self == .number, Self.spelledWhole(text, value) { self = .integer }
  }

  /// Whether the number `text[number]` is spelled without a fraction or an exponent.
  @inline(__always)
  static func spelledWhole(_ text: UnsafeBufferPointer<UInt8>, _ number: Range<Int>) -> Bool {
    !text[number].contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
  }
}
