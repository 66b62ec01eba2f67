/// What a long load or save tells whoever shows its progress. The shell's core only
/// reports; the executable decides whether and how to draw (a terminal, after half a
/// second, at most ten times a second).
///
/// Reports come by byte offset, from places that already run about every 256 KiB (the
/// pages a load drops, the chunks a save writes), never per record, so reporting costs
/// nothing measurable even when nobody listens.
public enum ProgressEvent: Equatable, Sendable {
  /// What is being done.
  public enum Operation: Equatable, Sendable {
    case opening, saving
  }

  /// The work starts: `totalBytes` is the file's size for a load, an estimate for a save
  /// (the last known size per record, times the records there are now).
  case began(Operation, path: String, totalBytes: Int)
  /// `bytes` of the total are done.
  case advanced(bytes: Int)
  /// The work is over, done or failed.
  case ended
}

/// Where a load or save sends its progress; `nil` where nobody shows it.
public typealias ProgressHandler = (ProgressEvent) -> Void
