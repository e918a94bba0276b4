import Foundation
import PrefsCLI

let code = Prefs.main(CommandLine.arguments, console: StandardConsole())
exit(code.rawValue)
