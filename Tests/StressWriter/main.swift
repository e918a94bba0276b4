import Foundation
import LegacyDefaults
import Preferences

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// A writer process for the durability tests (a real process, so locks, kills and exits are
// real). Modes:
//   write-keys FILE PREFIX COUNT   set PREFIX-i = i and synchronize, for i in 0..<COUNT
//   cycle FILE COUNT               set counter = i, synchronize, print "ack i", for i in 1...COUNT
//   exit-pending FILE KEY VALUE    set KEY = VALUE and exit without synchronize
//   append FILE KEY TAG COUNT      append "TAG-i" to the [String] at KEY with modify, COUNT times
//   mix FILE TAG COUNT             per i: set TAG-i = i, modify counter += 1, and every 4th i
//                                  remove TAG-(i-2); synchronize each step
//   full-disk FILE                 write a large value with the file size limit at 1 KiB:
//                                  prints the error synchronize throws (exit 3 if none)
//   user-check FILE                as an app would, through PreferencesStore(url:): read the
//                                  Int at ranking.size (throwing if it does not decode), add 1
//                                  to user.visits under the lock, print "ranking.size N"
//   set-string FILE KEY VALUE      through PreferencesStore(url:), as another app instance
//                                  would: store[Key<String>(KEY)] = VALUE (written through)
//   guarded-fault FILE OTHER       FILE mapped through the read guard, then OTHER mapped
//                                  without it, truncated and read: must end with SIGBUS
//   watcher-threads FILE OTHER     the watcher's cost: prints "threads T inotify I" (watcher
//                                  threads, inotify queues) with no store open, with stores
//                                  over FILE, FILE again and OTHER (in another folder) open,
//                                  and once they are all released

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("prefs-stress: \(message)\n".utf8))
  exit(2)
}

let args = Array(CommandLine.arguments.dropFirst())
guard args.count >= 2 else { fail("usage: prefs-stress MODE FILE ...") }
let url = URL(fileURLWithPath: args[1])

/// This process's watcher threads (named `prefs-watcher`) and inotify queues, from /proc
/// (Linux). (All threads are not counted: a sanitizer's runtime adds its own.)
func census() -> String {
  let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
  let threads = tasks.filter {
    (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8))?
      .hasPrefix("prefs-watcher") == true
  }.count
  let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  let inotify = fds.filter {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)"))
      == "anon_inode:inotify"
  }.count
  return "threads \(threads) inotify \(inotify)"
}

if args[0] == "watcher-threads", args.count == 3 {
  // Before any store: the watcher does not exist.
  let before = census()
  print(before)
  do {
    var stores = [
      try DefaultsStore(url: url, flushAtExit: false),
      try DefaultsStore(url: url, flushAtExit: false),
      try DefaultsStore(url: URL(fileURLWithPath: args[2]), flushAtExit: false),
    ]
    // The watcher's thread names itself once it runs: given up to 2 s.
    var open = census()
    for _ in 0..<2000 where open.hasPrefix("threads 0 ") {
      usleep(1000)
      open = census()
    }
    print(open)
    stores.removeAll()
  } catch {
    fail("\(error)")
  }
  // The watcher's thread ends by itself once nothing is watched: given up to 2 s.
  var after = census()
  for _ in 0..<2000 where after != before {
    usleep(1000)
    after = census()
  }
  print(after)
  exit(0)
}
if args[0] == "guarded-fault", args.count == 3 {
  // With FILE mapped through the guard, OTHER is mapped without it, truncated and read: the
  // guard must not contain that fault (the process ends with SIGBUS, as without the guard).
  do {
    let file = try FileAccess.openForReading(args[1], limit: 64 << 20)
    guard let guarded = file.mapped() else { fail("FILE was not mapped") }
    let sum = guarded.data.reduce(0) { $0 &+ Int($1) }
    try guarded.verify()
    FileHandle.standardOutput.write(Data("guarded: 0 faults (sum \(sum))\n".utf8))
    let fd = open(args[2], O_RDONLY)
    guard fd >= 0, let other = mmap(nil, 1 << 16, PROT_READ, MAP_PRIVATE, fd, 0),
      other != MAP_FAILED
    else { fail("OTHER could not be mapped") }
    guard truncate(args[2], 0) == 0 else { fail("OTHER could not be truncated") }
    let byte = other.load(fromByteOffset: 8192, as: UInt8.self)
    withExtendedLifetime(guarded) {}
    print("read \(byte) past the end of OTHER: the guard contained another mapping's fault")
    exit(3)
  } catch {
    fail("\(error)")
  }
}
let store: DefaultsStore
do {
  store = try DefaultsStore(url: url)
} catch {
  fail("\(error)")
}

do {
  switch args[0] {
  case "write-keys" where args.count == 4:
    guard let count = Int(args[3]) else { fail("COUNT") }
    for i in 0..<count {
      try store.set(i, forKey: "\(args[2])-\(i)")
      try store.synchronizeOrThrow()
    }
  case "cycle" where args.count == 3:
    guard let count = Int(args[2]) else { fail("COUNT") }
    for i in 1...count {
      try store.set(i, forKey: "counter")
      try store.synchronizeOrThrow()
      FileHandle.standardOutput.write(Data("ack \(i)\n".utf8))
    }
  case "exit-pending" where args.count == 4:
    try store.set(args[3], forKey: args[2])
  case "append" where args.count == 5:
    guard let count = Int(args[4]) else { fail("COUNT") }
    let typed = PreferencesStore(store)
    let key = Key<[String]>(args[2], default: [])
    for i in 0..<count {
      try typed.modify(key) { $0.append("\(args[3])-\(i)") }
    }
  case "mix" where args.count == 4:
    guard let count = Int(args[3]) else { fail("COUNT") }
    let typed = PreferencesStore(store)
    let counter = Key("counter", default: 0)
    for i in 0..<count {
      try store.set(i, forKey: "\(args[2])-\(i)")
      try store.synchronizeOrThrow()
      try typed.modify(counter) { $0 += 1 }
      if i % 4 == 3 {
        store.removeObject(forKey: "\(args[2])-\(i - 2)")
        try store.synchronizeOrThrow()
      }
    }
  case "full-disk" where args.count == 2:
    signal(SIGXFSZ, SIG_IGN)
    var limit = rlimit(rlim_cur: 1024, rlim_max: 1024)
    // glibc types the resource as an enum (`__rlimit_resource_t`); Darwin and musl take the
    // macro's `Int32`.
    #if canImport(Glibc)
      setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
    #else
      setrlimit(RLIMIT_FSIZE, &limit)
    #endif
    try store.set(String(repeating: "x", count: 100_000), forKey: "big")
    do {
      try store.synchronizeOrThrow()
      exit(3)
    } catch {
      print("\(error)")
    }
  case "set-string" where args.count == 4:
    let typed = try PreferencesStore(url: url)
    try typed.set(args[3], for: Key<String>(args[2], default: ""))
  case "user-check" where args.count == 2:
    let typed = try PreferencesStore(url: url)
    let size = try typed.value(for: Key("ranking.size", default: 5))
    try typed.modify(Key("user.visits", default: 0)) { $0 += 1 }
    print("ranking.size \(size)")
  default:
    fail("unknown mode or wrong arguments: \(args)")
  }
} catch {
  fail("\(error)")
}
