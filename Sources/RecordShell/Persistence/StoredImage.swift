import RecordKit

/// A data file's image (`FileImage`: where each record lies in its bytes) and where those
/// bytes are: held by the image, or in the file itself, kept open since it was read or
/// written (`HeldFile`) and checked against its hash each time a save or the history
/// reads them. A session keeps no copy of a file that could be mapped.
public struct StoredImage: Sendable {
  public let image: FileImage
  /// The file holding the bytes; `nil` when the image holds them.
  let file: HeldFile?

  init(image: FileImage, file: HeldFile?) {
    (self.image, self.file) = (image, file)
  }

  /// The image holding its bytes: as it is, or with the file's read now and checked.
  /// `nil` when the file's bytes are not those any more (another program wrote it) or
  /// cannot be read. Costs the file's size in memory while the result lives.
  func held() -> FileImage? {
    guard let file else { return image }
    return file.checkedCopy().flatMap { image.holding($0) }
  }

  /// Where a history's start records are read from when they are these bytes: the held
  /// file, mapped, read on the compression's thread (no copy), or the bytes the image
  /// holds. `nil` when the file is another now or cannot be mapped.
  func baseSource() -> Journal.BaseSource? {
    if let file { return file.mapForReading().map { .mapped($0) } }
    return image.heldBytes.map { .bytes($0) }
  }
}
