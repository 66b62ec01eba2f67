/// A `pattern`: its text and the compiled program, searched unanchored with ECMA-262's
/// meaning (`ECMAPattern` rewrites it for PCRE2, `CompiledPattern` owns and bounds it).
/// Compiled once, when the schema is read; copies share the program.
///
/// A pattern that is plain ASCII text, optionally anchored (`^978-`, `^draft$`, `-x-`),
/// is matched by comparing bytes: the common case of a schema's pattern, checked for
/// every record of a file, at no more than a comparison's cost.
///
/// Not `Sendable`: the compiled program keeps one match data block.
package struct SchemaPattern: Equatable {
  let source: String
  private let program: CompiledPattern
  /// The text of a plain pattern, and how it is anchored.
  private let literal: (text: [UInt8], start: Bool, end: Bool)?

  /// Why `source` cannot be a pattern: syntax ECMA-262 does not have, or PCRE2's refusal.
  package struct Refusal: Error, Equatable, CustomStringConvertible {
    var problem: String
    package var description: String { problem }
  }

  /// Rewrites and compiles `source`; throws when it is not a pattern recsh can match.
  package init(_ source: String) throws(Refusal) {
    self.source = source
    do {
      program = try CompiledPattern(pcre2: try ECMAPattern(source).pcre2)
    } catch let error as ECMAPattern.SyntaxError {
      throw Refusal(problem: error.description)
    } catch let error as CompiledPattern.CompileError {
      throw Refusal(problem: error.problem)
    } catch {
      throw Refusal(problem: "\(error)")
    }
    literal = Self.literal(source)
  }

  /// `source` as anchored plain text, when it is one: ASCII with no regex syntax but a
  /// leading `^` and a trailing `$`.
  private static func literal(_ source: String) -> (text: [UInt8], start: Bool, end: Bool)? {
    var bytes = Array(source.utf8)
    let start = bytes.first == UInt8(ascii: "^")
    if start { bytes.removeFirst() }
    let end = bytes.last == UInt8(ascii: "$")
    if end { bytes.removeLast() }
    let syntax = Set(#"\.[](){}*+?|^$/"#.utf8)
    guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && !syntax.contains($0) }) else { return nil }
    return (bytes, start, end)
  }

  /// Two patterns are equal when written alike.
  package static func == (lhs: SchemaPattern, rhs: SchemaPattern) -> Bool {
    lhs.source == rhs.source
  }

  /// Whether the pattern matches somewhere in `text` (JSON Schema patterns are not
  /// anchored), or `.tooCostly` when the match reached its bound. Costs at most that bound
  /// (`CompiledPattern`): a few milliseconds.
  package func match(_ text: String) -> PatternMatch {
    var text = text
    return text.withUTF8 { match(utf8: $0) }
  }

  /// `match(_:)` of the string whose UTF-8 is `bytes` (which must be valid UTF-8).
  func match(utf8 bytes: UnsafeBufferPointer<UInt8>) -> PatternMatch {
    guard let literal else { return program.match(utf8: bytes) }
    let found = literal.text.withUnsafeBufferPointer {
      Self.matches(plain: $0, atStart: literal.start, atEnd: literal.end, in: bytes)
    }
    return found ? .match : .noMatch
  }

  /// The pattern as plain text and its anchors, when it is one (see the type's comment):
  /// what a schema's flat rules keep of it, to match without reaching the pattern.
  var plainText: (text: [UInt8], start: Bool, end: Bool)? { literal }

  /// Whether a plain pattern, `text` anchored at the start and at the end as told, matches
  /// somewhere in `bytes`: a comparison of bytes.
  static func matches(
    plain text: UnsafeBufferPointer<UInt8>, atStart: Bool, atEnd: Bool, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    let width = text.count
    guard bytes.count >= width else { return false }
    let same = { (start: Int) in
      CanonicalJSON.sameBytes(text, UnsafeBufferPointer(rebasing: bytes[start..<(start + width)]))
    }
    switch (atStart, atEnd) {
    case (true, true): return bytes.count == width && same(0)
    case (true, false): return same(0)
    case (false, true): return same(bytes.count - width)
    case (false, false): return (0...(bytes.count - width)).contains(where: same)
    }
  }

  /// The match of the compiled program alone, without the plain-text shortcut (for tests
  /// that hold the two against each other).
  package func programMatch(_ text: String) -> PatternMatch { program.match(text) }
}
