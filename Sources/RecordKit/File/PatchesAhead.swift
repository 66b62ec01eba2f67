/// Runs `work(0)`, `work(1)`, … `work(parts - 1)` side by side, each on a thread of its
/// own as far as there are cores, and returns once every one has returned: what RecordKit
/// asks of its caller for work that splits (a save's patches of changed records).
/// RecordKit makes no thread itself; the shell passes one that runs the parts on the
/// machine's cores, a test may pass a plain loop. Each part touches only what its index
/// gives it.
public typealias PartRunner = (_ parts: Int, _ work: (Int) -> Void) -> Void

/// The patches of a save's changed records (`MemberPatch.write`), made a batch of records
/// ahead of the save's pass, the batch split between two threads (`PartRunner`). The pass,
/// which splices them into the new file in order, stays on one core; the patches, most of
/// the work of saving many changed records, take two.
///
/// Only a record that stands where the image has it (the image's id at its position) and
/// whose fields may have changed is patched ahead, as the pass would patch it there: its
/// new bytes, or that the patch refused it (the pass writes it whole). For any other
/// record the pass does what it does without this. The pass asks in order of position;
/// asked past the batch it holds, it makes the next, from the position asked. A batch's
/// patches are kept until the next is made: about `batchSize` records' bytes.
///
/// The parts read the document, the image and the file's bytes (which no one writes
/// during a save) and each writes its own `Part`: no two threads share anything written.
final class PatchesAhead<Root: Record> {
  /// What was made ahead for one record.
  enum Made {
    /// The record was patched: its new bytes are `bytes` of its part's, which
    /// `append(madeAt:of:over:in:trustMarks:to:)` appends.
    case patched(bytes: Range<Int>)
    /// The patch refused the record: the pass writes it whole.
    case refused
  }

  /// One thread's share of a batch: its patch (reused from batch to batch), the bytes it
  /// made and what it made of each of its records.
  private final class Part {
    /// Made by the part's first batch (on its thread): a save with nothing to patch ahead,
    /// the most common, makes none.
    lazy var patch = MemberPatch<Root>()
    var bytes: [UInt8] = []
    /// By position from `first`; `nil` where nothing was made ahead.
    var made: [Made?] = []
    var first = 0

    /// Patches the records at `positions` that stand where the image has them and may have
    /// changed, into this part's bytes.
    func make(
      _ positions: Range<Int>, of document: Document<Root>, over image: FileImage,
      in bytes: UnsafeBufferPointer<UInt8>, trustMarks: Bool
    ) {
      first = positions.lowerBound
      self.bytes.removeAll(keepingCapacity: true)
      made.removeAll(keepingCapacity: true)
      for position in positions {
        guard position < image.ids.count, image.ids.holds(document.id(at: position), at: position) else {
          made.append(nil)
          continue
        }
        let changed = trustMarks ? document.fieldsThatMayHaveChanged(document.number(at: position)) : ~0
        guard changed != 0 else {
          made.append(nil)
          continue
        }
        let start = self.bytes.count
        let patched =
          document.withRecord(at: position) { record in
            patch.write(record, over: image.spans[position], in: bytes, changed: changed, into: &self.bytes)
          } ?? false
        made.append(patched ? .patched(bytes: start..<self.bytes.count) : .refused)
      }
    }
  }

  /// Records per batch: a batch's patches are about this many records' bytes.
  let batchSize: Int
  private let run: PartRunner
  private let parts = [Part(), Part()]
  private var batch = 0..<0

  init(batchSize: Int = 4096, run: @escaping PartRunner) {
    precondition(batchSize > 0, "a batch holds a record")
    self.batchSize = batchSize
    self.run = run
  }

  /// What was made ahead for the record at `position` of `document` (saved over `image`'s
  /// bytes `bytes`, `trustMarks` as the pass has it), its new bytes appended to `out` when
  /// it was patched; `nil` when nothing was made. Makes the batch from `position` on first
  /// when the batch held does not cover it. Positions must be asked in ascending order.
  func append(
    madeAt position: Int, of document: Document<Root>, over image: FileImage,
    in bytes: UnsafeBufferPointer<UInt8>, trustMarks: Bool, to out: inout [UInt8]
  ) -> Made? {
    if !batch.contains(position) {
      batch = position..<min(position + batchSize, document.count)
      let middle = batch.lowerBound + (batch.count + 1) / 2
      let halves = [batch.lowerBound..<middle, middle..<batch.upperBound]
      let parts = parts
      run(2) { index in
        parts[index].make(halves[index], of: document, over: image, in: bytes, trustMarks: trustMarks)
      }
    }
    let part = parts[position - parts[0].first < parts[0].made.count ? 0 : 1]
    let made = part.made[position - part.first]
    if case .patched(let patched)? = made { out += part.bytes[patched] }
    return made
  }
}
