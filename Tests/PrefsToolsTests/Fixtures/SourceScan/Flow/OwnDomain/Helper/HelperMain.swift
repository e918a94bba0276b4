import Foundation

// A login helper reading the main app's domain by its identifier: the standard domain.
func helperLaunch() {
  let shared = UserDefaults(suiteName: "org.example.Own-App")
  shared?.set(true, forKey: "own.fromHelper")
}
