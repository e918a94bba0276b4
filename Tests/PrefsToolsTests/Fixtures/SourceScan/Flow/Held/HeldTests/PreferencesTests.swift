import Foundation

// A test target's code: it writes keys no run of the app does (left out of the app's scan;
// read when this folder is named itself).
func testDarkMode() {
  UserDefaults.standard.set("Dark", forKey: "AppleInterfaceStyle")
  UserDefaults.standard.set(true, forKey: "hd.testOnly")
}
