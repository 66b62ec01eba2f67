import RecordKit
import RecordShell

/// Work that needs the records' type, done once the kind is known, whichever kind it is.
protocol KindWork {
  associatedtype Output
  /// Does the work with records of `Root`; `preloaded` is the file as choosing the kind
  /// loaded it, when it did.
  func run<Root: Record>(_ kind: Root.Type, preloaded: DataFile<Root>.Loaded?) -> Output
}

/// Where a kind's name meets its record type: the shell, `recsh diff` and `recsh merge`
/// run their generic work through here, written out per shipped record type so that it
/// runs specialized (`ShellLauncherTests` checks that every kind of `KindRegistry` is here).
enum KindDispatch {
  /// `work` with the shipped kind named `name`, given the file it loaded (`preloaded`, a
  /// `DataFile<R>.Loaded` for that kind's record type); `nil` when no kind has the name.
  static func run<Work: KindWork>(_ work: Work, shipped name: String, preloaded: Any?) -> Work.Output? {
    switch name {
    case TaskRecord.kind: work.run(TaskRecord.self, preloaded: preloaded as? DataFile<TaskRecord>.Loaded)
    case ContactRecord.kind:
      work.run(ContactRecord.self, preloaded: preloaded as? DataFile<ContactRecord>.Loaded)
    default: nil
    }
  }

  /// `work` with the kind `choice` chose (a run-time kind is the current one while it
  /// runs); `nil` when it names no shipped kind.
  static func run<Work: KindWork>(_ work: Work, _ choice: KindChoice) -> Work.Output? {
    switch choice.kind {
    case .shipped(let name, let preloaded): run(work, shipped: name, preloaded: preloaded)
    case .runTime(let kind, let preloaded):
      RunTimeKind.$current.withValue(kind) { work.run(RunTimeRecord.self, preloaded: preloaded) }
    }
  }
}
