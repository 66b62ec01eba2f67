import Foundation
import Testing

@testable import RecordKit

/// JSONTestSuite (github.com/nst/JSONTestSuite), run file by file: `y_` accepted and
/// round-tripped, `n_` refused with a position, `i_` as `JSONReader` documents.
@Suite struct JSONConformanceTests {
  /// `<package root>/../shared/conformance/JSONTestSuite`, found from this file's path.
  static let suiteFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("shared/conformance/JSONTestSuite")

  static func files(in subfolder: String, prefix: String = "") -> [String] {
    let folder = suiteFolder.appendingPathComponent(subfolder).path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
  }

  static func contents(of name: String, in subfolder: String = "test_parsing") throws -> [UInt8] {
    let url = suiteFolder.appendingPathComponent(subfolder).appendingPathComponent(name)
    return Array(try Data(contentsOf: url))
  }

  /// What recsh decides for each implementation-defined file: `nil` accepts, a message rejects.
  static let implementationDefined: [String: String?] = [
    "i_number_double_huge_neg_exp.json": nil,
    "i_number_huge_exp.json": nil,
    "i_number_neg_int_huge_exp.json": nil,
    "i_number_pos_double_huge_exp.json": nil,
    "i_number_real_neg_overflow.json": nil,
    "i_number_real_pos_overflow.json": nil,
    "i_number_real_underflow.json": nil,
    "i_number_too_big_neg_int.json": nil,
    "i_number_too_big_pos_int.json": nil,
    "i_number_very_big_negative_int.json": nil,
    "i_object_key_lone_2nd_surrogate.json": #"lone surrogate \uDFAA in string"#,
    "i_string_1st_surrogate_but_2nd_missing.json": #"lone surrogate \uDADA in string"#,
    "i_string_1st_valid_surrogate_2nd_invalid.json": #"lone surrogate \uD888 in string"#,
    "i_string_UTF-16LE_with_BOM.json": "the file is UTF-16LE, not UTF-8",
    "i_string_UTF-8_invalid_sequence.json": "invalid UTF-8 at byte offset 7",
    "i_string_UTF8_surrogate_U+D800.json": "invalid UTF-8 at byte offset 2",
    "i_string_incomplete_surrogate_and_escape_valid.json": #"lone surrogate \uD800 in string"#,
    "i_string_incomplete_surrogate_pair.json": #"lone surrogate \uDD1E in string"#,
    "i_string_incomplete_surrogates_escape_valid.json": #"lone surrogate \uD800 in string"#,
    "i_string_invalid_lonely_surrogate.json": #"lone surrogate \uD800 in string"#,
    "i_string_invalid_surrogate.json": #"lone surrogate \uD800 in string"#,
    "i_string_invalid_utf-8.json": "invalid UTF-8 at byte offset 2",
    "i_string_inverted_surrogates_U+1D11E.json": #"lone surrogate \uDD1E in string"#,
    "i_string_iso_latin_1.json": "invalid UTF-8 at byte offset 2",
    "i_string_lone_second_surrogate.json": #"lone surrogate \uDFAA in string"#,
    "i_string_lone_utf8_continuation_byte.json": "invalid UTF-8 at byte offset 2",
    "i_string_not_in_unicode_range.json": "invalid UTF-8 at byte offset 2",
    "i_string_overlong_sequence_2_bytes.json": "invalid UTF-8 at byte offset 2",
    "i_string_overlong_sequence_6_bytes.json": "invalid UTF-8 at byte offset 2",
    "i_string_overlong_sequence_6_bytes_null.json": "invalid UTF-8 at byte offset 2",
    "i_string_truncated-utf-8.json": "invalid UTF-8 at byte offset 2",
    "i_string_utf16BE_no_BOM.json": "the file is UTF-16BE, not UTF-8",
    "i_string_utf16LE_no_BOM.json": "the file is UTF-16LE, not UTF-8",
    "i_structure_500_nested_arrays.json": "nesting deeper than 256 levels",
    "i_structure_UTF-8_BOM_empty_object.json": nil,
  ]

  static let duplicateKeyFiles = [
    "y_object_duplicated_key.json": "duplicate key \"a\"",
    "y_object_duplicated_key_and_value.json": "duplicate key \"a\"",
  ]

  @Test func suiteFolderIsPresentAndComplete() {
    let all = Self.files(in: "test_parsing")
    guard !all.isEmpty else {
      Issue.record("JSONTestSuite not found: looked in \(Self.suiteFolder.path)/test_parsing")
      return
    }
    #expect(all.count == 318, "test_parsing holds \(all.count) files, expected 318")
    #expect(Self.files(in: "test_parsing", prefix: "y_").count == 95)
    #expect(Self.files(in: "test_parsing", prefix: "n_").count == 188)
    #expect(Set(Self.files(in: "test_parsing", prefix: "i_")) == Set(Self.implementationDefined.keys))
    #expect(Self.files(in: "test_transform").count == 22)
  }

  @Test(arguments: files(in: "test_parsing", prefix: "y_"))
  func validDocumentIsAcceptedAndRoundTrips(_ name: String) throws {
    let bytes = try Self.contents(of: name)
    if let message = Self.duplicateKeyFiles[name] {
      let error = JSONTest.rejection(of: bytes)
      #expect(error?.message == message)
      return
    }
    let value = try JSONReader.parseDocument(bytes)
    JSONTest.expectRoundTrip(value, "\(name)")
  }

  @Test(arguments: files(in: "test_parsing", prefix: "n_"))
  func invalidDocumentIsRejectedWithAPosition(_ name: String) throws {
    let bytes = try Self.contents(of: name)
    guard let error = JSONTest.rejection(of: bytes) else { return }
    #expect(error.line >= 1 && error.column >= 1)
    #expect(error.offset >= 0 && error.offset <= bytes.count)
    #expect(!error.message.isEmpty)
  }

  @Test(arguments: files(in: "test_parsing", prefix: "i_"))
  func implementationDefinedDocumentGetsTheDocumentedDecision(_ name: String) throws {
    let bytes = try Self.contents(of: name)
    guard let decision = Self.implementationDefined[name] else {
      Issue.record("\(name) has no documented decision")
      return
    }
    if let message = decision {
      #expect(JSONTest.rejection(of: bytes)?.message == message)
    } else {
      JSONTest.expectRoundTrip(try JSONReader.parseDocument(bytes), "\(name)")
    }
  }

  @Test(arguments: files(in: "test_transform", prefix: "number_"))
  func numberSpellingSurvivesAsWritten(_ name: String) throws {
    let bytes = try Self.contents(of: name, in: "test_transform")
    let spelling = String(decoding: bytes.dropFirst().prefix { $0 != UInt8(ascii: "]") }, as: UTF8.self)
    let value = try JSONReader.parseDocument(bytes)
    #expect(value == .array([.number(spelling)]))
    #expect(JSONTest.written(value) == "[\n  \(spelling)\n]\n")
  }

  @Test func keysInNFCAndNFDAreTwoKeysKeptInOrder() throws {
    for name in ["object_key_nfc_nfd.json", "object_key_nfd_nfc.json"] {
      let value = try JSONReader.parseDocument(try Self.contents(of: name, in: "test_transform"))
      guard case .object(let object) = value else {
        Issue.record("\(name) did not read as an object")
        continue
      }
      #expect(object.members.count == 2)
      #expect(
        object.members.map { Array($0.key.utf8) }.sorted { $0.count < $1.count }
          == [[0xC3, 0xA9], [0x65, 0xCC, 0x81]])
      JSONTest.expectRoundTrip(value, "\(name)")
    }
  }

  @Test(arguments: [
    "object_same_key_different_values.json", "object_same_key_same_value.json",
    "object_same_key_unclear_values.json",
  ])
  func repeatedKeyIsRefusedAtTheSecondOne(_ name: String) throws {
    let error = JSONTest.rejection(of: try Self.contents(of: name, in: "test_transform"))
    #expect(error?.message == "duplicate key \"a\"")
    #expect(error?.line == 1)
  }

  @Test func invalidCodePointsAreRefusedNotReplaced() throws {
    let expected = [
      "string_1_escaped_invalid_codepoint.json": #"lone surrogate \uD800 in string"#,
      "string_2_escaped_invalid_codepoints.json": #"lone surrogate \uD800 in string"#,
      "string_3_escaped_invalid_codepoints.json": #"lone surrogate \uD800 in string"#,
      "string_1_invalid_codepoint.json": "invalid UTF-8 at byte offset 2",
      "string_2_invalid_codepoints.json": "invalid UTF-8 at byte offset 2",
      "string_3_invalid_codepoints.json": "invalid UTF-8 at byte offset 2",
    ]
    for (name, message) in expected {
      let error = JSONTest.rejection(of: try Self.contents(of: name, in: "test_transform"))
      #expect(error?.message == message, "\(name)")
    }
  }

  @Test func escapedNULIsKept() throws {
    let value = try JSONReader.parseDocument(
      try Self.contents(of: "string_with_escaped_NULL.json", in: "test_transform"))
    #expect(value == .array([.string("A\u{0}B")]))
    #expect(JSONTest.written(value) == "[\n  \"A\\u0000B\"\n]\n")
  }
}
