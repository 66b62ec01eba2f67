import RecordKit
import Testing

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
}
