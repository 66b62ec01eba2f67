import Foundation
import RecordKit
import Testing

@testable import RecordShell

/// Random input, mostly made of the characters that mean something to the tokenizer:
/// it must never crash, every position it reports must lie inside the input, and what
/// it accepts must come back unchanged when written out again and re-read.
extension TokenizerTests {
  /// Pieces random lines are made of, weighted towards the interesting ones.
  static let pieces: [String] = [
    "\"", "\"", "'", "[", "[", "]", "]", ",", ",", ";", "#", "\\", "\\u{", "}", "1F600", "D800",
    " ", " ", " ", "\t", "\n", "\r", "a", "b", "word", "12", "é", "日本", "😀", "\u{1B}", "\u{0}",
    "\u{A0}", "\\n", "\\\"", "\\q", "=",
  ]

  /// The seed of the first case; set `TOKENIZER_SEED` to try others.
  static var randomSeed: UInt64 {
    ProcessInfo.processInfo.environment["TOKENIZER_SEED"].flatMap { UInt64($0) } ?? 0x7E57_1E55
  }

  @Test func twentyThousandRandomLinesNeverCrashAndReportPositionsInsideTheLine() {
    let seed = Self.randomSeed
    var generator = SplitMix64(seed: seed)
    var accepted = 0
    for number in 0..<20_000 {
      let useRawBytes = number % 5 == 0
      let bytes: [UInt8] =
        useRawBytes
        ? (0..<Int(generator.next() % 24)).map { _ in Self.randomByte(using: &generator) }
        : Array(
          (0..<Int(generator.next() % 12)).map { _ in
            Self.pieces[Int(generator.next() % UInt64(Self.pieces.count))]
          }
          .joined().utf8)
      switch Self.checkRandom(bytes) {
      case .accepted: accepted += 1
      case .refused: break
      case .wrong(let problem):
        Issue.record("seed \(seed), case \(number), input \(bytes): \(problem)")
        return
      }
    }
    #expect(accepted > 4_000, "too few random lines are accepted to test reading them back (seed \(seed))")
  }

  /// Mostly ASCII with the special bytes, sometimes any byte at all.
  private static func randomByte(using generator: inout SplitMix64) -> UInt8 {
    let special = Array("\"'[],;#\\ \n{}u".utf8)
    let roll = generator.next()
    return roll % 3 == 0
      ? UInt8(truncatingIfNeeded: roll >> 8) : special[Int((roll >> 8) % UInt64(special.count))]
  }

  /// How a random line went.
  enum RandomOutcome {
    case accepted, refused
    case wrong(String)
  }

  /// Whether `bytes` are tokenized right, and if so whether they were accepted.
  private static func checkRandom(_ bytes: [UInt8]) -> RandomOutcome {
    let result = bytes.withUnsafeBufferPointer { bytes in
      Result { () throws(TokenizerError) in try Tokenizer.tokenize(utf8: bytes) }
    }
    let text = String(validating: bytes, as: UTF8.self)
    let lines = (text ?? String(decoding: bytes, as: UTF8.self)).unicodeScalars.split(
      separator: "\n", omittingEmptySubsequences: false)
    func isInside(line: Int, column: Int) -> Bool {
      line >= 1 && line <= lines.count && column >= 1 && column <= lines[line - 1].count + 1
    }
    switch result {
    case .failure(let error):
      if case .invalidUTF8 = error.reason {
        if text != nil { return .wrong("valid UTF-8 refused: \(error)") }
      } else if text == nil {
        return .wrong("invalid UTF-8 not reported first: \(error)")
      }
      if !isInside(line: error.line, column: error.column) {
        return .wrong("error outside the input: \(error)")
      }
      if let text, (try? Tokenizer.tokenize(text)) != nil { return .wrong("the String form is accepted") }
      return .refused
    case .success(let commands):
      guard let text else { return .wrong("invalid UTF-8 accepted") }
      guard (try? Tokenizer.tokenize(text)) == commands else { return .wrong("the String form differs") }
      for token in commands.flatMap(\.tokens) where !isInside(line: token.line, column: token.column) {
        return .wrong("token outside the input: \(token)")
      }
      let values = commands.map { $0.tokens.map(\.value) }
      let written = values.map { $0.map(Self.written).joined(separator: " ") }.joined(separator: "; ")
      guard (try? Self.values(of: written)) == values else {
        return .wrong("written as \(written), read back differently")
      }
      if Tokenizer.needsContinuation(text) { return .wrong("accepted, yet said to need more") }
      return .accepted
    }
  }

  /// A value as a user could type it: words as they are, strings double-quoted.
  private static func written(_ value: ValueToken) -> String {
    switch value {
    case .word(let text): text
    case .quoted(let text):
      "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        + "\""
    case .list(let items): "[" + items.map(written).joined(separator: ", ") + "]"
    }
  }
}
