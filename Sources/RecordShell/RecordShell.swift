import RecordKit

#if canImport(Glibc)
  import Glibc
#endif

/// The shell's version, as `recsh --version` prints it.
public let recshVersion = "0.1.0"

/// Writing to the standard streams, for the executable.
public enum FileHandleOutput {
  public static func standardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(2, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }
}
