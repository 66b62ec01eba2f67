import Testing

@testable import RecordKit

/// Shared steps for the JSON reader and writer tests.
enum JSONTest {
  /// The error `bytes` are refused with, or `nil` (and a recorded issue) if they parse.
  static func rejection(
    of bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
  ) -> JSONSyntaxError? {
    do {
      let value = try JSONReader.parseDocument(bytes)
      Issue.record("expected a rejection, parsed \(value)", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }

  static func rejection(
    of text: String, sourceLocation: SourceLocation = #_sourceLocation
  ) -> JSONSyntaxError? {
    rejection(of: Array(text.utf8), sourceLocation: sourceLocation)
  }

  /// The written form as text, for comparing against literal layouts.
  static func written(_ value: JSONValue) -> String {
    String(decoding: JSONWriter.write(value), as: UTF8.self)
  }

  /// Checks the two round-trip promises for `value`: it reads back equal, and writing
  /// what was read gives the same bytes.
  static func expectRoundTrip(
    _ value: JSONValue, _ context: Comment = "", sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let first = JSONWriter.write(value)
    do {
      let reread = try JSONReader.parseDocument(first)
      #expect(reread == value, context, sourceLocation: sourceLocation)
      #expect(JSONWriter.write(reread) == first, context, sourceLocation: sourceLocation)
    } catch {
      Issue.record(
        "written form does not read back: \(error) \(context)\n\(String(decoding: first, as: UTF8.self))",
        sourceLocation: sourceLocation)
    }
  }
}
