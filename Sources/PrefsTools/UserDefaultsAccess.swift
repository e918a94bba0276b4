import LegacyDefaults

#if canImport(Darwin)
  import LegacyDefaultsFoundation
#endif

/// How the `defaults`-style verbs (read, read-type, write, delete, rename, import) reach a
/// domain given by name through Foundation's `UserDefaults`, as `defaults` does on Apple
/// platforms so that `cfprefsd` sees the change.
///
/// The command for Linux is built without it: libFoundation (and ICU under it) would double
/// its start-up time, and there a domain is its file. An embedder (or a test) that links
/// `LegacyDefaultsFoundation` gives one to a ``DomainResolver``.
package struct UserDefaultsAccess: Sendable {
  /// The storage of the `UserDefaults` suite named by a domain.
  package var open: @Sendable (String) throws(DefaultsError) -> any DefaultsStorage
  /// Whether a domain name goes through `UserDefaults` when `PREFS_DOMAIN_STORAGE` does not
  /// choose (`userdefaults` or `file`).
  package var isDefault: Bool

  package init(
    isDefault: Bool,
    open: @escaping @Sendable (String) throws(DefaultsError) -> any DefaultsStorage
  ) {
    self.isDefault = isDefault
    self.open = open
  }

  /// The platform's own: `UserDefaults(suiteName:)` by default on Apple platforms; none
  /// elsewhere.
  package static var platform: UserDefaultsAccess? {
    #if canImport(Darwin)
      UserDefaultsAccess(isDefault: true) { name throws(DefaultsError) in
        try UserDefaultsStorage(suiteName: name)
      }
    #else
      nil
    #endif
  }

  package static let missing =
    "PREFS_DOMAIN_STORAGE=userdefaults: this prefs is built without UserDefaults (on Linux a "
    + "domain is its file: leave PREFS_DOMAIN_STORAGE unset or set it to file)"
}
