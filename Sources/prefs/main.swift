import PrefsCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

let code = Prefs.main(CommandLine.arguments, console: StandardConsole())
exit(code.rawValue)
