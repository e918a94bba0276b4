import Foundation
import PrefsCLI

let code = Prefs.run(Array(CommandLine.arguments.dropFirst()), console: StandardConsole())
exit(code.rawValue)
