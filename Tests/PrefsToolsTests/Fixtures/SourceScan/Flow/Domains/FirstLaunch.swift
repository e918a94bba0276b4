import Foundation

// What a thirtieth set of never-seen apps showed, and a trap: a flag the code turns on the
// first time it finds it off (a first launch's, a one-time migration's). The code reads false
// when the key is absent and does its once-only work: true written after it records that the
// work was done, and is no default (a port given true would skip the work). No default.

final class DomainsLauncher {
  let defaults = UserDefaults.standard

  func start() {
    // `domainsOnboarded`: no default.
    if !defaults.bool(forKey: "domainsOnboarded") {
      showOnboarding()
      defaults.set(true, forKey: "domainsOnboarded")
    }
  }

  func migrate() {
    // `domainsMigrated`: no default (a guard, then the write).
    guard !UserDefaults.standard.bool(forKey: "domainsMigrated") else { return }
    moveFiles()
    UserDefaults.standard.set(true, forKey: "domainsMigrated")
  }

  func welcome() {
    // `domainsWelcomed`: no default (the branch taken when on returns).
    if UserDefaults.standard.bool(forKey: "domainsWelcomed") {
      return
    }
    UserDefaults.standard.set(true, forKey: "domainsWelcomed")
  }

  func traps() {
    // Trap: a flag written off where it was off: no default.
    if !defaults.bool(forKey: "domainsPaused") {
      defaults.set(false, forKey: "domainsPaused")
    }
    // Trap: a toggle writes the key in both branches: no default.
    if !defaults.bool(forKey: "domainsMuted") {
      defaults.set(true, forKey: "domainsMuted")
    } else {
      defaults.set(false, forKey: "domainsMuted")
    }
    // Trap: the branch taken when on does not return: no default.
    if defaults.bool(forKey: "domainsShown") {
      log()
    }
    defaults.set(true, forKey: "domainsShown")
  }
}
