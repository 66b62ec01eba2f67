import RecordKit

/// What tab completion may offer besides command names: the kind's fields, the
/// selected record's custom fields, and the document's ids and list elements,
/// with no generic parameter, so the executable's line editor can hold one.
///
/// The document-wide lists are closures, computed only when a completion needs
/// them: a Tab after `set` must not walk a million records.
public struct CompletionContext {
  /// A declared field as completion sees it.
  struct Field: Equatable, Sendable {
    var name: String
    var type: FieldType
    var isReadOnly: Bool
    /// Whether `add`/`remove` take one element of it (the field's codec says).
    var isList: Bool
    /// Values worth offering after the field (`true`/`false`, `null`, 0–5).
    var values: [String]
    /// What the field is for (a schema's `description` or `title`).
    var about: String?

    init(
      name: String, type: FieldType, isReadOnly: Bool = false, isList: Bool = false, values: [String] = [],
      about: String? = nil
    ) {
      self.name = name
      self.type = type
      self.isReadOnly = isReadOnly
      self.isList = isList
      self.values = values
      self.about = about
    }
  }

  /// One name in a folder, for file-path completion.
  public struct DirectoryEntry: Equatable, Sendable {
    var name: String
    var isDirectory: Bool

    public init(_ name: String, isDirectory: Bool = false) {
      self.name = name
      self.isDirectory = isDirectory
    }
  }

  /// The kind's declared fields, `id` first.
  var fields: [Field]
  /// The selected record's custom fields (keys the kind does not declare).
  var customFields: [String]
  /// Every record's id, in file order.
  var recordIDs: () -> [String]
  /// Every key any record has that the kind does not declare, for `list` filters.
  var documentCustomFields: () -> [String]
  /// The distinct elements of list field `name` over all records.
  var listElements: (_ field: String) -> [String]
  /// The elements of list field `name` in the selected record.
  var selectedListElements: (_ field: String) -> [String]
  /// The entries of a folder as the user typed it (`""` is the working
  /// folder, otherwise it ends with `/`); empty when it cannot be read.
  var listDirectory: (_ folder: String) -> [DirectoryEntry]

  init(
    fields: [Field], customFields: [String] = [], recordIDs: @escaping () -> [String] = { [] },
    documentCustomFields: @escaping () -> [String] = { [] },
    listElements: @escaping (String) -> [String] = { _ in [] },
    selectedListElements: @escaping (String) -> [String] = { _ in [] },
    listDirectory: @escaping (String) -> [DirectoryEntry] = { _ in [] }
  ) {
    self.fields = fields
    self.customFields = customFields
    self.recordIDs = recordIDs
    self.documentCustomFields = documentCustomFields
    self.listElements = listElements
    self.selectedListElements = selectedListElements
    self.listDirectory = listDirectory
  }

  func field(named name: String) -> Field? {
    fields.first { $0.name == name }
  }
}

extension CompletionContext {
  /// The context for a document of `Root` records with `selected` selected,
  /// read through the kind's field table.
  public init<Root: Record>(
    document: Document<Root>, selected: Root?,
    listDirectory: @escaping (String) -> [DirectoryEntry] = { _ in [] }
  ) {
    let table = Root.fields
    self.init(
      fields: table.fields.map { field in
        Field(
          name: field.name, type: field.type, isReadOnly: field.isReadOnly, isList: field.isList,
          values: field.completions, about: field.about)
      },
      customFields: selected.map(table.customKeys(of:)) ?? [],
      // Records without a key have internal identities, which no REF names.
      recordIDs: { table.key == nil ? [] : document.records.map(\.id) },
      documentCustomFields: {
        var seen: Set<String> = []
        var keys: [String] = []
        for record in document.records {
          for key in table.customKeys(of: record) where seen.insert(key).inserted { keys.append(key) }
        }
        return keys
      },
      listElements: { name in
        guard let field = table.field(named: name) else { return [] }
        var seen: Set<String> = []
        var elements: [String] = []
        for record in document.records {
          for element in Self.strings(field.json(in: record)) where seen.insert(element).inserted {
            elements.append(element)
          }
        }
        return elements
      },
      selectedListElements: { name in
        guard let selected, let field = table.field(named: name) else { return [] }
        return Self.strings(field.json(in: selected))
      },
      listDirectory: listDirectory)
  }

  private static func strings(_ json: JSONValue?) -> [String] {
    guard case .array(let items)? = json else { return [] }
    return items.compactMap { item in
      if case .string(let text) = item { text } else { nil }
    }
  }
}

extension Session {
  /// What tab completion may offer at the prompt now. Build it per prompt and
  /// let it go once the line is read: it shares the document's storage, so
  /// holding it while a command edits would copy every record.
  public func completionContext(
    listDirectory: @escaping (String) -> [CompletionContext.DirectoryEntry]
  ) -> CompletionContext {
    CompletionContext(document: editor.document, selected: selectedRecord, listDirectory: listDirectory)
  }
}
