/// A field of a base type that may also hold JSON `null` (`due`, `birthday`).
struct NullableCodec<Base: FieldCodec>: FieldCodec {
  let base: Base

  init(_ base: Base) {
    self.base = base
  }

  var type: FieldType { .nullable(base.type) }
  var completions: [String] { base.completions + ["null"] }

  func parse(_ token: ValueToken) -> Nullable<Base.Value>? {
    if token == .word("null") { return .null }
    return base.parse(token).map(Nullable.value)
  }

  func decode(_ json: JSONValue) -> Nullable<Base.Value>? {
    if json == .null { return .null }
    return base.decode(json).map(Nullable.value)
  }

  func decode(_ json: JSONValue, texts: inout TextArena) -> Nullable<Base.Value>? {
    if json == .null { return .null }
    return base.decode(json, texts: &texts).map(Nullable.value)
  }

  func read(from reader: inout JSONReader, texts: inout TextArena) throws(JSONSyntaxError) -> Nullable<
    Base.Value
  >? {
    if try reader.peek() == .null {
      try reader.readLiteral("null")
      return .null
    }
    return try base.read(from: &reader, texts: &texts).map(Nullable.value)
  }

  func encode(_ value: Nullable<Base.Value>) -> JSONValue {
    switch value {
    case .null: .null
    case .value(let inner): base.encode(inner)
    }
  }

  func write(_ value: Nullable<Base.Value>, to writer: inout JSONWriter) {
    switch value {
    case .null: writer.null()
    case .value(let inner): base.write(inner, to: &writer)
    }
  }

  /// Null compares only with null; values as the base type compares them.
  @inline(__always)
  func compare(_ a: Nullable<Base.Value>, _ b: Nullable<Base.Value>) -> Int? {
    switch (a, b) {
    case (.value(let x), .value(let y)): base.compare(x, y)
    case (.null, .null): 0
    default: nil
    }
  }
  var isOrdered: Bool { base.isOrdered }
  @inline(__always)
  func isNull(_ value: Nullable<Base.Value>) -> Bool { value == .null }

  func display(_ value: Nullable<Base.Value>) -> String {
    switch value {
    case .null: "null"
    case .value(let inner): base.display(inner)
    }
  }
}

/// A value that may be JSON `null`. Absence is the enclosing `Optional`.
public enum Nullable<Wrapped: Equatable & Sendable>: Equatable, Sendable {
  case null
  case value(Wrapped)
}
