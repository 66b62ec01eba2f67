/// What a save reports once the new content is in place.
///
/// A save either throws — and then the original is untouched — or returns this. The one
/// failure that comes after the point of no return (flushing the folder after the rename)
/// is a warning here, not an error: the content is saved and readable, and treating it as
/// unsaved would leave the caller with a stale identity for a file it did write.
public struct SaveOutcome: Equatable, Sendable {
  /// The identity of the file as written; later changed-on-disk checks compare to it.
  let identity: FileIdentity
  /// Set when the folder could not be flushed (``StorageError/folderNotFlushed(path:cause:)``).
  let warning: StorageError?
}
