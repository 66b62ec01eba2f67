import Testing

@testable import RecordKit
@testable import RecordShell
@testable import recsh

/// Every shipped kind of the registry has its own, specialized shell.
@Suite struct ShellLauncherTests {
  @Test func everyKindOfTheRegistryHasALauncher() {
    #expect(!KindRegistry.shipped.isEmpty)
    for kind in KindRegistry.shipped {
      #expect(Shell.launcher(forKind: kind.kind) != nil, "\(kind.kind)")
    }
    #expect(Shell.launcher(forKind: "book") == nil)
  }

  /// The kind choice tries every shipped kind of the registry, in its order, each with
  /// its own specialized loader.
  @Test func theKindChoiceKnowsEveryKindOfTheRegistry() {
    #expect(KindChoice.shipped.map(\.name) == KindRegistry.shipped.map { $0.kind })
    #expect(
      KindChoice.shipped.map(\.declared) == [
        ["title", "detail", "done", "priority", "tags", "due"],
        ["name", "email", "phone", "address", "tags", "birthday"],
      ])
  }
}
