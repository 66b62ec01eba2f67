/// The value of one `FIELD VALUE` pair of a `set` as the editor hands it to the field: a
/// token the shell's tokenizer made, or a word's bytes where the line being run holds
/// them (the shell's fast lane), so that a codec that makes its value from bytes
/// (`FieldCodec.parse(bytes:quoted:)`: a text's) makes it with no `String` in between —
/// for a title, an allocation and its copies saved on every `set`.
///
/// Bytes are lent, not kept: such a value is made by the call that runs the line and
/// never outlives it (`FieldAssignment.init(declared:named:bytes:quoted:)` says so).
/// They are UTF-8.
///
/// Public only because `FieldAccessor`'s `applySet` requirements name it; nothing in it is
/// public.
public struct SetValue {
  private enum Storage {
    case token(ValueToken)
    case bytes(UnsafeBufferPointer<UInt8>, quoted: Bool)
  }

  private var storage: Storage

  /// The value `token` is.
  init(_ token: ValueToken) { storage = .token(token) }

  /// The word `bytes`, quoted or bare: what the token `.quoted`/`.word` of their text is.
  init(bytes: UnsafeBufferPointer<UInt8>, quoted: Bool) { storage = .bytes(bytes, quoted: quoted) }

  /// The token the value is (made from the bytes when it is those: a `String`).
  var token: ValueToken {
    switch storage {
    case .token(let token): token
    case .bytes(let bytes, let quoted): ValueToken(word: bytes, quoted: quoted)
    }
  }

  /// What `codec` makes of the value: `parse(_:)` of the token, or `parse(bytes:quoted:)`
  /// of the bytes, which gives the same.
  @inline(__always)
  func parsed<Codec: FieldCodec>(by codec: Codec) -> Codec.Value? {
    switch storage {
    case .token(let token): codec.parse(token)
    case .bytes(let bytes, let quoted): codec.parse(bytes: bytes, quoted: quoted)
    }
  }
}
