extension DomainLocator {
  /// The folders applications are installed in, in the order `defaults -app NAME` searches
  /// them. On the macOS layout: `~/Applications`, `/Applications`, `/System/Applications`.
  /// Elsewhere GNUstep's, as its configuration files name them (the files ``DefaultsPlatform/gnustep``
  /// reads) and in the order its `NSWorkspace` searches its domains: the user's
  /// (`GNUSTEP_USER_DIR_APPS`, under the user's home folder from the password database, default
  /// `GNUstep/Applications`), then `GNUSTEP_LOCAL_APPS`, `GNUSTEP_NETWORK_APPS` and
  /// `GNUSTEP_SYSTEM_APPS` (defaults: the FHS layout's `/usr/local/lib/GNUstep/Applications`
  /// and `/usr/lib/GNUstep/Applications`), each folder once.
  package func applicationFolders() -> [String] {
    switch platform {
    case .macOS:
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? PathText.homeOf(user: nil)
      return (home.map { [$0 + "/Applications"] } ?? []) + [
        "/Applications", "/System/Applications",
      ]
    case .linux, .gnustep:
      let home = PathText.homeOf(user: nil)
      let configuration = gnustepConfiguration(home: home)
      var folders: [String] = []
      let user = configuration["GNUSTEP_USER_DIR_APPS"] ?? "GNUstep/Applications"
      if user.hasPrefix("/") {
        folders.append(user)
      } else if let home {
        folders.append(home + "/" + user)
      }
      let shared = [
        ("GNUSTEP_LOCAL_APPS", "/usr/local/lib/GNUstep/Applications"),
        ("GNUSTEP_NETWORK_APPS", "/usr/local/lib/GNUstep/Applications"),
        ("GNUSTEP_SYSTEM_APPS", "/usr/lib/GNUstep/Applications"),
      ]
      for (key, fallback) in shared {
        let folder = configuration[key] ?? fallback
        if !folders.contains(folder) { folders.append(folder) }
      }
      return folders
    }
  }
}
