import RecordKit

/// The conflicts `recsh merge` left in a file, kept in recsh's state folder
/// (`StateFolder.conflictsPath(forDataFile:)`)
/// (never inside the user's records, which hold ours' values), until `resolve` has
/// settled them and the file is saved.
///
/// The file is JSON Lines: a header `{"recsh-conflicts":1,"hash":"…"}` naming the content
/// hash of the merged file as the merge wrote it (opening a file whose bytes differ
/// says so), then one object per conflict: `key`, `field`, and `base`, `ours`, `theirs`
/// where the value is present. Written atomically like a data file.
package struct ConflictFile: Equatable, Sendable {
  /// The `ContentHash` of the merged file's bytes as the merge wrote them.
  var hash: String
  var conflicts: [MergeConflict]

  package init(hash: String, conflicts: [MergeConflict]) {
    self.hash = hash
    self.conflicts = conflicts
  }

  /// The file's bytes.
  package func encoded() -> [UInt8] {
    var writer = JSONWriter(compact: true)
    writer.value(.object(JSONObject(["recsh-conflicts": .number("1"), "hash": .string(hash)])))
    writer.lineBreak()
    for conflict in conflicts {
      var object = JSONObject(["key": .string(conflict.key), "field": .string(conflict.field)])
      for (name, value) in [("base", conflict.base), ("ours", conflict.ours), ("theirs", conflict.theirs)] {
        if let value { object.members.append(JSONObject.Member(key: name, value: value)) }
      }
      writer.value(.object(object))
      writer.lineBreak()
    }
    return writer.bytes
  }

  /// Reads the bytes `encoded()` wrote; anything else is refused with what is wrong.
  package static func decode(_ bytes: [UInt8]) throws(ConflictFileError) -> ConflictFile {
    var objects: [JSONObject] = []
    do {
      try bytes.withUnsafeBufferPointer { buffer in
        var reader = JSONReader(unsafeBytes: buffer)
        try reader.readLines { line in
          let position = line.position
          guard case .object(let object) = try line.readValue() else {
            throw ConflictFileError("line \(position.line) is not an object")
          }
          objects.append(object)
        }
      }
    } catch let error as ConflictFileError {
      throw error
    } catch let error as JSONSyntaxError {
      throw ConflictFileError("\(error.position.line):\(error.position.column): \(error.message)")
    } catch {
      throw ConflictFileError("\(error)")
    }
    guard let header = objects.first, header["recsh-conflicts"] == .number("1"),
      case .string(let hash)? = header["hash"]
    else {
      throw ConflictFileError("it does not start with recsh's header")
    }
    var conflicts: [MergeConflict] = []
    for (index, object) in objects.dropFirst().enumerated() {
      guard case .string(let key)? = object["key"], case .string(let field)? = object["field"] else {
        throw ConflictFileError("line \(index + 2) has no key and field")
      }
      conflicts.append(
        MergeConflict(
          key: key, field: field, base: object["base"], ours: object["ours"], theirs: object["theirs"]))
    }
    return ConflictFile(hash: hash, conflicts: conflicts)
  }
}

/// Why a conflicts file could not be read.
package struct ConflictFileError: Error, Equatable, Sendable, CustomStringConvertible {
  package var description: String
  init(_ description: String) { self.description = description }
}

extension MergeConflict {
  /// `KEY FIELD: BASE → OURS | THEIRS`, values as compact JSON, terminal controls escaped;
  /// an absent value `(not set)`, a deleted record `(deleted)`.
  package var line: String {
    func text(_ value: JSONValue?) -> String {
      value == nil && field == Self.wholeRecord ? "(deleted)" : DiffRenderer.value(value)
    }
    return "\(ScriptWords.word(key)) \(field): \(text(base)) → \(text(ours)) | \(text(theirs))"
  }
}
