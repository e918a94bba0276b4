import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `prefs plan scan` over a generated Objective-C tree (5,000 files, about 60 MB: classes
/// with comments, logging, dictionaries, notifications and the defaults calls an app makes,
/// its keys named by macros in a shared header), against `grep -rn forKey:` over the same
/// tree; and its peak memory against the tree's largest file.
extension Bench {
  func sourceScan() throws {
    guard let prefs = prefsBeside(skipping: "the scan cases") else { return }
    guard let grep = Self.which("grep") else {
      skip("grep not found: the scan case")
      return
    }
    let count = quick ? 1_000 : 5_000
    let tree = folder.appendingPathComponent("app-source")
    // The largest file keeps its share of the tree (4 MiB of 68 MB; 1 MiB in the quick run).
    let (bytes, largest) = try SourceTree.write(
      files: count, to: tree, largest: quick ? 1 << 20 : 4 << 20)
    let label = "\(count) Objective-C files, \(String(format: "%.0f", Double(bytes) / 1e6)) MB"
    // grep writes its lines to a file, as a person keeps them (to /dev/null GNU grep stops
    // at a file's first match); prefs writes the plan to /dev/null and the evidence beside
    // it. Warm the page cache for both, then alternate them.
    let lines = folder.appendingPathComponent("grep-lines.txt").path
    let grepCommand = [
      "/bin/sh", "-c", "exec \"$0\" -rn forKey: \"$1\" > \"$2\"", grep, tree.path, lines,
    ]
    let scanCommand = [
      "/bin/sh", "-c", "exec \"$0\" plan scan --jobs 2 \"$1\" 2> \"$2\"", prefs, tree.path,
      lines + ".evidence",
    ]
    _ = try time(grepCommand)
    _ = try time(scanCommand)
    var ours: [Double] = []
    var theirs: [Double] = []
    for _ in 0..<runs {
      theirs.append(try time(grepCommand))
      ours.append(try time(scanCommand))
    }
    let median = { (s: [Double]) in s.sorted()[s.count / 2] }
    cases.append(
      Case(
        name: "`prefs plan scan`, \(label)", prefs: median(ours),
        baseline: "`grep -rn forKey: > file` over the same tree", baselineMs: median(theirs),
        note: "2 jobs", limit: 10, target: 3))
    let rss = try Self.peakMemory([prefs, "plan", "scan", "--jobs", "2", tree.path])
    let small = folder.appendingPathComponent("app-source-one")
    try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: tree.appendingPathComponent(SourceTree.largestName),
      to: small.appendingPathComponent("Catalogue.m"))
    let rssOne = try Self.peakMemory([prefs, "plan", "scan", "--jobs", "2", small.path])
    let largestMiB = Double(largest) / 1_048_576
    // Memory follows the largest file, not the tree: the whole tree's peak against the peak
    // of a scan of that file alone.
    cases.append(
      Case(
        name: "peak memory of `prefs plan scan`, \(label)", prefs: rss / 1024,
        baseline: "a scan of its largest file alone (\(String(format: "%.1f", largestMiB)) MiB)",
        baselineMs: rssOne / 1024, unit: "MiB",
        note: "the tree is \(String(format: "%.0f", Double(bytes) / 1_048_576)) MiB", target: 1.5))
  }

  /// The peak resident memory (KiB) of a command, from `wait4`'s resource usage.
  static func peakMemory(_ command: [String]) throws -> Double {
    let (status, usage) = try spawnQuietly(command)
    guard status == 0 else {
      throw BenchError(description: "\(command.joined(separator: " ")) failed (status \(status))")
    }
    // Linux counts ru_maxrss in KiB, Darwin in bytes.
    #if canImport(Darwin)
      return Double(usage.ru_maxrss) / 1024
    #else
      return Double(usage.ru_maxrss)
    #endif
  }
}

/// The generated tree: an app's sources as a real one spreads them.
enum SourceTree {
  static let largestName = "Generated/Large/Catalogue.m"

  /// Writes `files` files under `root`; returns the bytes written and the largest file's size.
  static func write(files: Int, to root: URL, largest largeSize: Int = 4 << 20) throws -> (Int, Int)
  {
    let manager = FileManager.default
    try? manager.removeItem(at: root)
    var total = 0
    var largest = 0
    var header = "// Keys.h — the app's preference keys\n#import <Foundation/Foundation.h>\n\n"
    for k in 0..<400 {
      header += "#define kPref\(k) @\"Pref\(k)\"\n"
    }
    header += "extern NSString *const kNotificationDidChange;\n"
    try write(header, to: root.appendingPathComponent("Generated/Keys.h"), &total, &largest)
    var state: UInt64 = 7
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    for n in 0..<(files - 2) {
      var text = """
        //
        //  Controller\(n).m
        //  A generated view controller: comments, logging, dictionaries, notifications, and the
        //  preference reads and writes of an app.
        //
        #import "Keys.h"
        #import "Controller\(n).h"

        static NSString *const kCellIdentifier\(n) = @"Cell\(n)";

        @implementation Controller\(n)

        """
      var method = 0
      // One file in eight reads and writes preferences (as in the real apps measured: 88 of
      // the 735 Objective-C files of one); every file uses dictionaries and notifications.
      let prefsFile = n % 8 == 0
      while text.utf8.count < 11_500 {
        let a = next(400)
        let b = next(400)
        method += 1
        let prefsMethod = prefsFile && method % 6 == 1
        let flags =
          prefsMethod
          ? """
              NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
              BOOL enabled = [defaults boolForKey:kPref\(a)];
              NSInteger size = [defaults integerForKey:kPref\(b)];
          """
          : """
              BOOL enabled = self.isEditing;
              NSInteger size = [[self.model objectForKey:@"size\(a)"] integerValue];
          """
        let store =
          prefsMethod
          ? "    [defaults setInteger:size + 1 forKey:kPref\(next(400))];\n"
          : "    [self.cache setObject:info forKey:@(section)];\n"
        text += """
          /* Refreshes section \(method): the rows come from the model, the flags from the user's
             preferences (see Keys.h), and a notification tells the others. */
          - (void)refreshSection\(method):(NSInteger)section animated:(BOOL)animated {
          \(flags)
              NSMutableDictionary *info = [NSMutableDictionary dictionary];
              [info setObject:@(size) forKey:@"size"];
              [info setObject:[NSString stringWithFormat:@"row %ld", (long)section] forKey:@"title"];
              if (enabled && size > \(next(20))) {
                  NSLog(@"section %ld has %ld rows (animated: %d)", (long)section, (long)size, animated);
                  [self.tableView reloadSections:[NSIndexSet indexSetWithIndex:section]
                                withRowAnimation:UITableViewRowAnimationAutomatic];
              }
              [[NSNotificationCenter defaultCenter] postNotificationName:@"SectionDidRefresh"
                                                                  object:self
                                                                userInfo:info];
          \(store)}

          - (NSString *)titleForRow\(method):(NSInteger)row {
              // A dictionary key, not a preference: never a key of the plan.
              NSDictionary *model = self.rows[row];
              NSString *title = [model objectForKey:@"title"] ?: @"Untitled";
              return [title stringByAppendingFormat:@" (%ld)", (long)row];
          }


          """
      }
      text += "@end\n"
      let path = "Generated/Module\(n % 50)/Controller\(n).m"
      try write(text, to: root.appendingPathComponent(path), &total, &largest)
    }
    // One larger file (a generated parser, as real trees have one): memory follows it.
    var large =
      "// Catalogue.m — a generated parser of the catalogue format\n#import \"Keys.h\"\n\n"
    large += "void registerCatalogueDefaults(void) {\n"
    large +=
      "    [[NSUserDefaults standardUserDefaults] registerDefaults:@{ kPref1: @YES, kPref2: @5 }];\n}\n\n"
    var parser = 0
    while large.utf8.count < largeSize {
      large += """
        static int catalogueState\(parser)(const char *p, size_t n, CatalogueToken *out) {
            switch (p[0]) {
            case 'a': out->kind = \(parser % 7); out->text = "alpha \(parser)"; return 1;
            case 'b': out->kind = \(parser % 5); out->text = "beta \(parser)"; return 2;
            case '"': /* a quoted name */ return catalogueQuoted(p + 1, n - 1, out);
            default: return n > \(parser % 13) ? catalogueState\(parser + 1)(p + 1, n - 1, out) : -1;
            }
        }


        """
      parser += 1
    }
    try write(large, to: root.appendingPathComponent(largestName), &total, &largest)
    return (total, largest)
  }

  private static func write(_ text: String, to url: URL, _ total: inout Int, _ largest: inout Int)
    throws
  {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let data = Data(text.utf8)
    try data.write(to: url)
    total += data.count
    largest = max(largest, data.count)
  }
}
