/// A data file's bytes as recsh last read or wrote them, and where each record lies in
/// them: what lets a save change only the bytes of what changed.
///
/// A save through the image (`rewrite`) writes, record by record in the document's order:
/// - a record the document has not changed since the image was made (its change mark,
///   `Document.mayHaveChanged`), or changed and changed back, as the bytes it was read from;
/// - a changed record over its own bytes, member by member (`ValuePatch`);
/// - a new record in the style of the record before it (after it, when it goes first);
/// and between two records that stood side by side, the bytes that stood between them; a
/// removed record takes one adjacent separator with it (`SpanSplice`). So undoing every
/// edit gives back the bytes that were read, and saving after a few edits costs about a
/// copy of the file.
///
/// The bytes are the session's own: an image holds them (`heldBytes`), or holds only where
/// each record lies in them, and the caller hands them to `rewrite(_:in:…)` when a save
/// needs them (the file as read, kept open and checked against the hash of what was read;
/// see `StoredImage` in RecordShell), so that a session does not keep a second copy of
/// the file beside its records. Costs 8 bytes (`SpanList`) and an id per record, plus
/// the file's size in memory when it holds the bytes.
public struct FileImage: Sendable {
  /// The file's bytes, when the image holds them; `nil` when the caller keeps them.
  public let heldBytes: [UInt8]?
  /// The file's size in bytes.
  public let byteCount: Int
  public let layout: RecordLayout
  /// Each record's bytes, in file order.
  let spans: SpanList
  /// Each record's id, in file order: how a record of the document finds its bytes.
  let ids: IDList
  /// After the array's `[` and before its `]`; the whole file for JSON Lines.
  let inner: Range<Int>
  /// The file's style, read off its first record.
  let style: JSONLayoutStyle
  /// The document lineage (`Document.lineage`) whose change marks say what differs from
  /// these bytes; a document of another lineage is compared record by record.
  let lineage: UInt64
  /// A CSV or TSV file's table: its dialect, header and where each cell lies (one `Int` a
  /// cell); `nil` for JSON.
  let table: CSVTable?

  /// The image of `bytes`, a file of `layout` that loaded as records with `ids` (in file
  /// order), each ending (after its value, white space allowed) at `recordEnds`. `nil` when
  /// the ends do not fit the bytes, or an array file has no `[` (a file of no bytes: written
  /// as recsh writes new files). A file of no records gives new ones recsh's own style.
  public init?(bytes: [UInt8], layout: RecordLayout, recordEnds: [Int], ids: IDList, lineage: UInt64) {
    guard recordEnds.count == ids.count else { return nil }
    if layout.isDelimited {
      self.init(table: bytes, layout: layout, ids: ids, lineage: lineage)
      return
    }
    let located = bytes.withUnsafeBufferPointer { buffer -> Locator.Located? in
      var locator = Locator(layout: layout)
      for end in recordEnds where !locator.pass(end, in: buffer) { return nil }
      return locator.finish(in: buffer)
    }
    guard let located else { return nil }
    self.init(held: bytes, located: located, layout: layout, ids: ids, lineage: lineage)
  }

  /// The image of a file whose records `locator` placed as they were read, which loaded
  /// as records with `ids` (in file order); it does not hold the bytes. `nil` when the
  /// locator found the bytes no records of `layout`, or the counts differ.
  public init?(located locator: Locator.Located, layout: RecordLayout, ids: IDList, lineage: UInt64) {
    self.init(held: nil, located: locator, layout: layout, ids: ids, lineage: lineage)
  }

  private init?(
    held: [UInt8]?, located: Locator.Located, layout: RecordLayout, ids: IDList, lineage: UInt64
  ) {
    guard located.spans.count == ids.count, located.layout == layout else { return nil }
    self.init(
      held: held, byteCount: located.byteCount, layout: layout, spans: located.spans, ids: ids,
      inner: located.inner, style: located.style, lineage: lineage)
  }

  /// The image of a CSV or TSV file's `bytes` as `table` read them (its rows loaded as
  /// records with `ids`): the table is not read again. `nil` as above.
  package init?(bytes: [UInt8], layout: RecordLayout, table: CSVTable, ids: IDList, lineage: UInt64) {
    self.init(read: table, held: bytes, byteCount: bytes.count, layout: layout, ids: ids, lineage: lineage)
  }

  /// The image of a CSV or TSV file of `byteCount` bytes as `table` read them (its rows
  /// loaded as records with `ids`); it does not hold the bytes. `nil` as above.
  package init?(byteCount: Int, layout: RecordLayout, table: CSVTable, ids: IDList, lineage: UInt64) {
    self.init(read: table, held: nil, byteCount: byteCount, layout: layout, ids: ids, lineage: lineage)
  }

  /// The image of bytes recsh itself wrote for records with `ids` (a save in recsh's own
  /// layout): the records are found by reading the bytes once. `nil` as above.
  public init?(written bytes: [UInt8], layout: RecordLayout, ids: IDList, lineage: UInt64) {
    if layout.isDelimited {
      self.init(table: bytes, layout: layout, ids: ids, lineage: lineage)
      return
    }
    var ends: [Int] = []
    ends.reserveCapacity(ids.count)
    let read: Void? = bytes.withUnsafeBufferPointer { buffer in
      var reader = JSONReader(unsafeBytes: buffer)
      return try? reader.readRecords(layout) { element in
        try element.skipValue()
        ends.append(element.index)
      }
    }
    guard read != nil else { return nil }
    self.init(bytes: bytes, layout: layout, recordEnds: ends, ids: ids, lineage: lineage)
  }

  private init(
    held: [UInt8]?, byteCount: Int, layout: RecordLayout, spans: SpanList, ids: IDList,
    inner: Range<Int>, style: JSONLayoutStyle, lineage: UInt64, table: CSVTable? = nil
  ) {
    (heldBytes, self.byteCount, self.layout, self.spans, self.ids) = (held, byteCount, layout, spans, ids)
    (self.inner, self.style, self.lineage, self.table) = (inner, style, lineage, table)
  }

  /// The image of a CSV or TSV file's `bytes` whose rows loaded as records with `ids`: each
  /// record's span is its row without its line break; the inside starts at the header's
  /// line break. `nil` when the bytes are no table with one row per id, or have no header
  /// (a file of no bytes: written as recsh writes new files).
  private init?(table bytes: [UInt8], layout: RecordLayout, ids: IDList, lineage: UInt64) {
    guard let table = bytes.withUnsafeBufferPointer({ try? CSVReader.read($0, tabSeparated: layout == .tsv) })
    else { return nil }
    self.init(read: table, held: bytes, byteCount: bytes.count, layout: layout, ids: ids, lineage: lineage)
  }

  private init?(
    read table: CSVTable, held: [UInt8]?, byteCount: Int, layout: RecordLayout, ids: IDList, lineage: UInt64
  ) {
    guard let header = table.headerSpan, table.rowCount == ids.count, table.byteCount == byteCount else {
      return nil
    }
    let spans = SpanList((0..<table.rowCount).lazy.map { table.rowSpan($0).content })
    self.init(
      held: held, byteCount: byteCount, layout: layout, spans: spans, ids: ids,
      inner: header.contentEnd..<byteCount, style: .lines, lineage: lineage, table: table)
  }

  /// This image holding `bytes`, which must be the bytes it describes (the caller has
  /// checked their hash); `nil` when their count is not the image's.
  public func holding(_ bytes: [UInt8]) -> FileImage? {
    guard bytes.count == byteCount else { return nil }
    return FileImage(
      held: bytes, byteCount: byteCount, layout: layout, spans: spans, ids: ids, inner: inner, style: style,
      lineage: lineage, table: table)
  }

  /// Where each record of a JSON or JSON Lines file lies, worked out record by record as
  /// the file is read (`pass` with each record's end, while its bytes are at hand), so
  /// that an image is made without reading the file again or keeping a copy of it.
  /// O(the white space between records) a record, plus the first record's bytes for the
  /// file's style and the bytes after the last for the array's `]`.
  public struct Locator {
    /// What a locator found: the inside of the records' container, each record's bytes
    /// and the file's style.
    public struct Located: Sendable {
      let layout: RecordLayout
      let byteCount: Int
      let inner: Range<Int>
      let spans: SpanList
      let style: JSONLayoutStyle
    }

    let layout: RecordLayout
    private var spans = SpanList()
    private var cursor = 0
    private var innerStart: Int?
    private var style: JSONLayoutStyle?
    /// A record whose end is to be settled by the array's `]` (only the last may be).
    private var unsettled: (start: Int, rawEnd: Int)?
    private var failed = false

    public init(layout: RecordLayout) { self.layout = layout }

    /// Takes the next record, which ends (after its value, white space allowed) at `rawEnd`
    /// of `bytes`, the whole file (the bytes before `rawEnd` at least must be at hand).
    /// False once the bytes are found to be no records of the layout.
    public mutating func pass(_ rawEnd: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      guard !failed, unsettled == nil else {
        failed = true
        return false
      }
      if innerStart == nil {
        guard let start = Self.innerStart(in: bytes, layout: layout) else {
          failed = true
          return false
        }
        innerStart = start
        cursor = start
      }
      var start = FileImage.skipSpace(bytes, from: cursor)
      if layout == .array, !spans.isEmpty {
        guard start < bytes.count, bytes[start] == UInt8(ascii: ",") else {
          failed = true
          return false
        }
        start = FileImage.skipSpace(bytes, from: start + 1)
      }
      guard let end = Self.end(from: start, to: rawEnd, in: bytes) else {
        // Only the last record's end may stand past the array's `]`: `finish` settles it.
        unsettled = (start, rawEnd)
        return true
      }
      append(start..<end, in: bytes)
      return true
    }

    private mutating func append(_ span: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) {
      if spans.isEmpty {
        style = JSONLayoutStyle(of: span, in: bytes, base: layout == .lines ? .lines : .recsh, layout: layout)
      } else {
        RecordCount.reserve(in: &spans, read: span.lowerBound, of: bytes.count)
      }
      spans.append(span)
      cursor = span.upperBound
    }

    /// What was found once every record has passed, `bytes` being the whole file (only
    /// what follows the last record is read); `nil` when the bytes are no records of the
    /// layout.
    public mutating func finish(in bytes: UnsafeBufferPointer<UInt8>) -> Located? {
      guard !failed else { return nil }
      if innerStart == nil {
        guard let start = Self.innerStart(in: bytes, layout: layout) else { return nil }
        innerStart = start
      }
      guard let innerStart else { return nil }
      var innerEnd = bytes.count
      if layout == .array {
        innerEnd = bytes.count - 1
        while innerEnd > innerStart, bytes[innerEnd] != UInt8(ascii: "]") { innerEnd -= 1 }
        guard bytes[innerEnd] == UInt8(ascii: "]") else { return nil }
      }
      if let unsettled {
        guard let end = Self.end(from: unsettled.start, to: min(unsettled.rawEnd, innerEnd), in: bytes) else {
          return nil
        }
        self.unsettled = nil
        append(unsettled.start..<end, in: bytes)
      }
      if let last = spans.last, last.upperBound > innerEnd { return nil }
      return Located(
        layout: layout, byteCount: bytes.count, inner: innerStart..<innerEnd, spans: spans,
        style: style ?? (layout == .lines ? .lines : .recsh))
    }

    /// After the array's `[` (white space and a byte-order mark before it skipped); the
    /// start for JSON Lines.
    private static func innerStart(in bytes: UnsafeBufferPointer<UInt8>, layout: RecordLayout) -> Int? {
      guard layout == .array else { return 0 }
      let bracket = FileImage.skipSpace(bytes, from: 0)
      guard bracket < bytes.count, bytes[bracket] == UInt8(ascii: "[") else { return nil }
      return bracket + 1
    }

    /// The end of the object that starts at `start` and ends, white space after it allowed,
    /// at `rawEnd`; `nil` when no object stands there.
    private static func end(from start: Int, to rawEnd: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
      var end = rawEnd
      while end > start, JSONSpan.isWhitespace(bytes[end - 1]) { end -= 1 }
      guard start < end, bytes[start] == UInt8(ascii: "{"), bytes[end - 1] == UInt8(ascii: "}") else {
        return nil
      }
      return end
    }
  }

  /// The first byte at or after `offset` that is not white space or a byte-order mark.
  static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int {
    var index = offset
    while index < bytes.count {
      let byte = bytes[index]
      if JSONSpan.isWhitespace(byte) {
        index += 1
      } else if index == 0, byte == 0xEF, bytes.count >= 3, bytes[1] == 0xBB, bytes[2] == 0xBF {
        index = 3
      } else {
        break
      }
    }
    return index
  }

  /// What an image of bytes a save wrote needs besides the bytes: the layout, the ids of
  /// the records written and the document's lineage; and, when the save wrote over an
  /// image, where each record went and the style (else the bytes are read to find them).
  public struct Plan: Sendable {
    let layout: RecordLayout
    let ids: IDList
    let lineage: UInt64
    /// How many bytes were written.
    let byteCount: Int
    let placement: Placement?

    struct Placement: Sendable {
      let spans: SpanList
      let inner: Range<Int>
      let style: JSONLayoutStyle
    }

    /// The plan of a save in recsh's own layout of `document`'s records, `byteCount` bytes.
    public init<Root: Record>(unplaced document: Document<Root>, layout: RecordLayout, byteCount: Int) {
      self.init(
        layout: layout, ids: IDList(count: document.count, id: document.id(at:)), lineage: document.lineage,
        byteCount: byteCount, placement: nil)
    }

    init(layout: RecordLayout, ids: IDList, lineage: UInt64, byteCount: Int, placement: Placement?) {
      (self.layout, self.ids, self.lineage, self.byteCount, self.placement) =
        (layout, ids, lineage, byteCount, placement)
    }
  }

  /// The image of `bytes`, which must be the bytes `plan` was made for (the caller checks
  /// their hash). `nil` as `init(written:…)` says, or when their count is not the plan's.
  public init?(plan: Plan, bytes: [UInt8]) {
    guard bytes.count == plan.byteCount else { return nil }
    guard let placement = plan.placement else {
      self.init(written: bytes, layout: plan.layout, ids: plan.ids, lineage: plan.lineage)
      return
    }
    self.init(
      held: bytes, byteCount: bytes.count, layout: plan.layout, spans: placement.spans, ids: plan.ids,
      inner: placement.inner, style: placement.style, lineage: plan.lineage)
  }

  /// The image of the bytes `plan` was made for, which it does not hold; `nil` when the
  /// plan does not say where each record went (a table's, or a save in recsh's own layout:
  /// the bytes must then be read to find them).
  public init?(unheld plan: Plan) {
    guard let placement = plan.placement else { return nil }
    self.init(
      held: nil, byteCount: plan.byteCount, layout: plan.layout, spans: placement.spans, ids: plan.ids,
      inner: placement.inner, style: placement.style, lineage: plan.lineage)
  }

  /// The file for `document`, written over `bytes` as the type describes — the bytes this
  /// image describes (`byteCount` of them), which it holds or the caller keeps — handed to
  /// `sink` in pieces of about `chunkSize` bytes (a save holds one piece, not the new
  /// file); returns the plan of the new bytes' image, for `lineage` (whose marks the caller
  /// clears once the file is written). `progress` hears the bytes made so far now and then
  /// (every 4,096 records). O(bytes written), plus O(bytes) of each record the document
  /// may have changed.
  ///
  /// `passing` hears, now and then (as each piece goes to `sink`), an offset below which
  /// the save may not read `bytes` again while the document's records stand in file order
  /// (a caller may let the pages below it go; one that moved records reads back as it
  /// needs).
  ///
  /// `alternate`: another file's image, holding its bytes (a merge's THEIRS), where a
  /// record this one does not hold is looked for by id: found, and read there as exactly
  /// the record, it is written as its bytes there.
  ///
  /// `parts`: runs work side by side; given, the changed records of a JSON or JSON Lines
  /// file are patched a batch ahead on two threads (`PatchesAhead`), into the same bytes as
  /// without, holding one batch's patches at a time.
  public func rewrite<Root: Record, Failure: Error>(
    _ document: Document<Root>, in bytes: UnsafeBufferPointer<UInt8>, alternate: FileImage? = nil,
    chunkSize: Int, parts: PartRunner? = nil, progress: ((Int) -> Void)? = nil,
    passing: (Int) -> Void = { _ in },
    into sink: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
  ) throws(Failure) -> Plan {
    try rewrite(
      document, in: bytes, alternate: alternate, chunkSize: chunkSize,
      ahead: table == nil ? parts.map { PatchesAhead(run: $0) } : nil, progress: progress, passing: passing,
      into: sink)
  }

  /// `rewrite(_:in:alternate:chunkSize:parts:progress:passing:into:)` with the patches
  /// made ahead by `ahead` (for a JSON or JSON Lines file only), of whatever batch size.
  func rewrite<Root: Record, Failure: Error>(
    _ document: Document<Root>, in bytes: UnsafeBufferPointer<UInt8>, alternate: FileImage? = nil,
    chunkSize: Int, ahead: PatchesAhead<Root>?, progress: ((Int) -> Void)? = nil,
    passing: (Int) -> Void = { _ in }, into sink: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
  ) throws(Failure) -> Plan {
    precondition(ahead == nil || table == nil, "a table's rows are not patched")
    precondition(bytes.count == byteCount, "the bytes an image describes")
    let trustMarks = document.lineage == lineage
    var out: [UInt8] = []
    out.reserveCapacity(chunkSize + chunkSize / 4)
    /// Bytes handed to `sink` before `out`'s first.
    var flushed = 0
    // Each record's new place and id: made only once they differ from the image's (a
    // record added, removed, moved or changed in size before it), so that an unedited save
    // shares the image's arrays instead of holding second copies at its peak.
    var newSpans: SpanList?
    var newIDs: IDList?
    /// The start of the furthest record read so far, less the record before it.
    var passed = 0
    var innerEnd = 0
    func flush() throws(Failure) {
      try out.withUnsafeBufferPointer { (chunk) throws(Failure) in try sink(chunk) }
      flushed += out.count
      out.removeAll(keepingCapacity: true)
      passing(passed)
    }
    // A CSV or TSV file's columns: its header's, then those a new or changed record adds.
    let columns = table.map { tableColumns(of: document, header: $0.header, trustMarks: trustMarks) }
    let columnFields = columns.map { names in names.map { Root.fields.field(named: $0) } } ?? []
    let patch = MemberPatch<Root>()
    do {
      let splice = self.splice(bytes)
      var byID: [String: Int]?
      var alternateByID: [String: Int]?
      var expected = 0
      var previous: Int?
      if let table, let columns {
        writeHeader(table, columns: columns, in: bytes, into: &out)
      } else {
        out += bytes[..<inner.lowerBound]
      }
      for position in 0..<document.count {
        let id = document.id(at: position)
        var ordinal: Int?
        if expected < ids.count, ids.holds(id, at: expected) {
          ordinal = expected
        } else {
          if byID == nil { byID = ids.positionsByID() }
          ordinal = byID?[id]
        }
        if let ordinal {
          expected = ordinal + 1
          if ordinal > 0 { passed = max(passed, spans[ordinal - 1].lowerBound) }
        }
        if position == 0 {
          splice.opening(into: &out)
        } else {
          splice.separator(between: previous, and: ordinal, into: &out)
        }
        let start = flushed + out.count
        // The declared fields that may have changed (none: the record is as read; all, when
        // the marks are another lineage's); a patch compares only those with the original.
        let changed = trustMarks ? document.fieldsThatMayHaveChanged(document.number(at: position)) : ~0
        if let ordinal, changed == 0 {
          out += bytes[spans[ordinal]]
          // A column the file did not have is absent from a row read from it.
          if let table, let columns {
            for _ in table.header.count..<columns.count { out.append(table.dialect.delimiter.byte) }
          }
        } else if ordinal == nil, let alternate,
          let kept = document.withRecord(
            at: position,
            { record in
              if alternateByID == nil { alternateByID = alternate.ids.positionsByID() }
              return alternateByID?[id].flatMap {
                alternate.bytes(at: $0, of: record.pointee, columns: columns)
              }
            }) ?? nil
        {
          out += kept
        } else if let table, let columns {
          document.withRecord(at: position) { record in
            writeRow(
              record.pointee, over: ordinal, table, columns: columns, fields: columnFields, in: bytes,
              into: &out)
          }
        } else {
          let made =
            ordinal == position
            ? ahead?.append(
              madeAt: position, of: document, over: self, in: bytes, trustMarks: trustMarks, to: &out)
            : nil
          switch made {
          case .patched?:
            break  // Its bytes are in `out` already.
          case .refused?, nil:
            document.withRecord(at: position) { record in
              // A record whose patch was refused ahead would be refused again.
              if made == nil, let ordinal,
                patch.write(record, over: spans[ordinal], in: bytes, changed: changed, into: &out)
              {
                return
              }
              write(record.pointee, over: ordinal, following: previous ?? ordinal, in: bytes, into: &out)
            }
          }
        }
        let placed = start..<(flushed + out.count)
        if newIDs == nil, ordinal != position {
          newIDs = ids.leading(position)
          newIDs?.reserveCapacity(document.count)
        }
        newIDs?.append(id)
        if newSpans == nil, ordinal != position || placed != spans[position] {
          newSpans = spans.leading(position)
          newSpans?.reserveCapacity(document.count)
        }
        newSpans?.append(placed)
        previous = ordinal
        if out.count >= chunkSize { try flush() }
        if position & 4095 == 4095 { progress?(flushed + out.count) }
      }
      if document.count > 0 {
        splice.closing(into: &out)
      } else if spans.isEmpty {
        out += bytes[inner]
      } else if table != nil {
        // Every row gone: the header keeps its line break.
        splice.opening(into: &out)
      }
      innerEnd = flushed + out.count
      out += bytes[inner.upperBound...]
      try flush()
    }
    // A table's image is read again from the bytes written (`init(plan:bytes:)`).
    let count = document.count
    return Plan(
      layout: layout, ids: newIDs ?? (count == ids.count ? ids : ids.leading(count)),
      lineage: document.lineage,
      byteCount: flushed,
      placement: table != nil
        ? nil
        : Plan.Placement(
          spans: newSpans ?? (count == spans.count ? spans : spans.leading(count)),
          inner: inner.lowerBound..<innerEnd, style: style))
  }

  /// `rewrite(_:in:alternate:chunkSize:progress:passing:into:)` over the bytes this image
  /// holds, into memory: the new bytes' image.
  public func rewrite<Root: Record>(_ document: Document<Root>) -> FileImage {
    guard let heldBytes else { preconditionFailure("an image rewritten from its own bytes holds them") }
    var written: [UInt8] = []
    let plan = heldBytes.withUnsafeBufferPointer { bytes in
      rewrite(document, in: bytes, chunkSize: 1 << 18) { chunk in written += chunk }
    }
    guard let image = FileImage(plan: plan, bytes: written) else {
      preconditionFailure("a plan is of the bytes written for it")
    }
    return image
  }

  /// The records' container as a splice: its separators, opening and closing; for a file
  /// whose records all went, nothing between `[` and `]`.
  private func splice(_ bytes: UnsafeBufferPointer<UInt8>) -> SpanSplice {
    var splice = SpanSplice(bytes: bytes, inner: inner, parts: spans)
    if let table {
      splice.freshOpening = table.dialect.lineEnding.bytes
      splice.freshSeparator = table.dialect.lineEnding.bytes
      splice.freshClosing = table.dialect.endsWithLineBreak ? table.dialect.lineEnding.bytes : []
    } else if layout == .lines {
      splice.freshSeparator = style.lineEnding
      splice.freshClosing = style.lineEnding
    } else if !spans.isEmpty && !bytes[inner].contains(0x0A) {
      // A file on one line stays on one line.
      splice.freshSeparator = style.inlineSeparator
    } else {
      splice.freshOpening = style.lineEnding + style.recordIndent
      splice.freshSeparator = [UInt8(ascii: ",")] + style.lineEnding + style.recordIndent
      splice.freshClosing = style.lineEnding
    }
    return splice
  }

  /// `record` over the bytes of original record `ordinal` (compared as recsh reads them,
  /// so a record changed and changed back keeps its bytes), or as a new record in the style
  /// of original record `neighbour` (the file's when `nil`).
  private func write<Root: Record>(
    _ record: Root, over ordinal: Int?, following neighbour: Int?, in bytes: UnsafeBufferPointer<UInt8>,
    into out: inout [UInt8]
  ) {
    let table = Root.fields
    guard let ordinal else {
      let recordStyle =
        neighbour.map { JSONLayoutStyle(of: spans[$0], in: bytes, base: style, layout: layout) } ?? style
      let new = JSONValue.object(table.encode(record))
      recordStyle.write(
        new, indent: recordStyle.recordIndent, multiline: recordStyle.recordsMultiline, into: &out)
      return
    }
    let span = spans[ordinal]
    let original = Self.decode(
      Root.self, UnsafeBufferPointer(rebasing: bytes[span]), position: ordinal, id: record.id)
    if let original, original == record {
      out += bytes[span]
      return
    }
    let scanned = JSONSpan.scan(bytes, at: span.lowerBound)
    let patch = ValuePatch(bytes: bytes, style: style)
    let ownIndent = JSONLayoutStyle.indent(before: span.lowerBound, in: bytes)
    let multiline = layout == .array && bytes[span].contains(0x0A)
    if let original, let changes = Self.changesInPlace(from: original, to: record, over: scanned) {
      patch.writeMembers(scanned, changes: changes, indent: ownIndent, multiline: multiline, into: &out)
      return
    }
    // An edit of a declared field leaves the custom members as they were: decoded once
    // for both sides.
    let custom = record.custom.members
    let old = original.map {
      JSONValue.object(table.encode($0, custom: $0.custom == record.custom ? custom : $0.custom.members))
    }
    patch.write(
      scanned, old: old, new: .object(table.encode(record, custom: custom)), indent: ownIndent,
      multiline: multiline, into: &out)
  }

  /// The members of a record that differ from its original's, as `ValuePatch.writeMembers`
  /// takes them (the position of the member among the original bytes' `span`, the old
  /// value, the new), when the edit changed values in place only: the same keys in the
  /// same order among the custom members (all of a run-time kind's), no declared field
  /// removed, every changed member one of the bytes. `nil` otherwise — a member to add or
  /// remove, nested objects — for the patch of the whole values. Compares each declared
  /// field in place (`FieldAccessor.sameValue`), encodes only those that differ, once a
  /// side, decodes only the custom values that differ, and builds neither whole value.
  static func changesInPlace<Root: Record>(from original: Root, to record: Root, over span: JSONSpan)
    -> [(member: Int, old: JSONValue?, new: JSONValue)]?
  {
    let table = Root.fields
    guard !table.hasNestedObjects, case .object(_, let members) = span.content else { return nil }
    var changes: [(member: Int, old: JSONValue?, new: JSONValue)] = []
    // A run-time kind's declared fields are custom members: they are compared below.
    if !table.keepsAllMembers {
      // An index loop: `enumerated()` over the existential fields is not specialized here
      // and cost more than the encoding itself.
      let fields = table.fields
      for index in fields.indices where !fields[index].sameValue(in: original, and: record) {
        let field = fields[index]
        let old = field.json(in: original)
        guard let new = field.json(in: record) else {
          if old == nil { continue }
          return nil
        }
        guard let member = ValuePatch.position(of: field.name, in: members, near: index) else { return nil }
        if old != new { changes.append((member, old, new)) }
      }
    }
    if original.custom != record.custom {
      guard let custom = original.custom.changedValues(to: record.custom) else { return nil }
      for change in custom {
        guard let member = ValuePatch.position(of: change.key, in: members, near: change.position) else {
          return nil
        }
        changes.append((member, change.old, change.new))
      }
    }
    return changes
  }

  /// The bytes of record `ordinal` here, when they read as exactly `record`; `nil` also
  /// when the image does not hold its bytes. O(bytes of the record). A CSV or TSV row is
  /// written by another file only when this one has the same `columns` and each of its
  /// cells holds the record's value.
  private func bytes<Root: Record>(at ordinal: Int, of record: Root, columns: [String]?) -> ArraySlice<UInt8>?
  {
    guard let heldBytes else { return nil }
    if let columns {
      guard let table, table.header == columns, rowHolds(record, row: ordinal, table, in: heldBytes) else {
        return nil
      }
      return heldBytes[spans[ordinal]]
    }
    let span = spans[ordinal]
    let read = heldBytes.withUnsafeBufferPointer { buffer in
      Self.decode(Root.self, UnsafeBufferPointer(rebasing: buffer[span]), position: ordinal, id: record.id)
    }
    return read == record ? heldBytes[span] : nil
  }

  /// The record the bytes of one record read as (straight from the bytes where the kind
  /// can, else through a tree), with `id` for a kind whose records have no key.
  private static func decode<Root: Record>(
    _ kind: Root.Type, _ bytes: UnsafeBufferPointer<UInt8>, position: Int, id: String
  ) -> Root? {
    let table = Root.fields
    var reader = JSONReader(unsafeBytes: bytes)
    var records: [Root] = []
    var reading = RecordReading()
    if (try? table.readRecord(from: &reader, appendingTo: &records, reading: &reading, identity: id)) == true,
      let first = records.first
    {
      return first
    }
    guard case .object(let object)? = try? JSONValue.parse(bytes: Array(bytes)) else { return nil }
    return try? table.decode(object, position: position, identity: id)
  }
}
