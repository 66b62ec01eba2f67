import RecordKit
import Testing

@testable import RecordShell

/// The runner's check that a line is UTF-8 (`Tokenizer.validateUTF8`), which looks at the
/// bytes after the ASCII ones only, against the standard library's check of the whole line.
@Suite struct LineUTF8Tests {
  /// Lines of ASCII runs of every length around the eight-byte words, with characters of
  /// two to four bytes, broken ones (a lone continuation byte, a lead byte cut short, an
  /// overlong form, a surrogate, 0xFF) and line feeds among them: each line is refused
  /// exactly when the whole-line check refuses it, at the same byte.
  @Test func agreesWithACheckOfTheWholeLine() throws {
    let pieces: [[UInt8]] = [
      Array("é".utf8), Array("東".utf8), Array("👍".utf8), [0x0A], [0x80], [0xC3], [0xE6, 0x9D], [0xC0, 0xAF],
      [0xED, 0xA0, 0x80], [0xFF],
    ]
    var generator = SplitMix64(seed: 29)
    var (refused, passed) = (0, 0)
    for _ in 0..<20_000 {
      var line: [UInt8] = []
      for _ in 0..<Int.random(in: 0...3, using: &generator) {
        line += Array(repeating: UInt8(ascii: "a"), count: Int.random(in: 0...19, using: &generator))
        if Int.random(in: 0..<3, using: &generator) > 0 { line += pieces.randomElement(using: &generator)! }
      }
      let expected = line.withUnsafeBufferPointer { (bytes) -> Int? in
        do throws(UTF8.ValidationError) {
          _ = try UTF8Span(validating: Span(_unsafeElements: bytes))
          return nil
        } catch {
          return error.byteOffsets.lowerBound
        }
      }
      let found = line.withUnsafeBufferPointer { (bytes) -> Int? in
        do throws(TokenizerError) {
          try Tokenizer.validateUTF8(bytes)
          return nil
        } catch {
          guard case .invalidUTF8(let offset) = error.reason else { return -1 }
          return offset
        }
      }
      #expect(found == expected, "\(line)")
      if expected == nil { passed += 1 } else { refused += 1 }
    }
    #expect(refused > 1_000 && passed > 1_000)
  }
}
