#!/usr/bin/env python3
"""Mutates source trees and runs `prefs plan scan` on each, as an app's code never is but an
attacker's or a half-edited checkout may be: cut anywhere, brackets and quotes taken out or
doubled, nesting thousands deep, comments and strings left open, lines repeated, bytes of
noise, macros that name themselves. Every run must end by itself with a documented exit code
(0, or 66 when no source file could be read), never a signal or a hang, and its plan must be
JSON.

    Scripts/scan-fuzz.py PREFS [--seed N] [--rounds N] [--smoke] [SOURCE_DIR...]

SOURCE_DIR defaults to the scanner's fixtures (Tests/PrefsToolsTests/Fixtures/SourceScan).
--smoke: 40 rounds (CI); the default is 400.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

SOURCE_SUFFIXES = (
    ".m", ".h", ".mm", ".c", ".pch", ".swift", ".plist", ".xib", ".storyboard", ".pbxproj",
)


def sources(roots):
    found = []
    for root in roots:
        for folder, _, names in os.walk(root):
            for name in names:
                if name.endswith(SOURCE_SUFFIXES):
                    found.append(os.path.join(folder, name))
    return sorted(found)


# Forms real code has that a reader's bounds are easy to get wrong on (each found in an app or
# close to one): generic arguments with commas in parameter lists, defaults that are closures,
# attributes, conditions inside a list, key paths, raw strings, operators as names.
TRICKY = [
    b"init(a: AnyPublisher<URL?, Never>? = nil, b: [String: Int] = [:], store: UserDefaults = .standard) { store.set(1, forKey: \"k\") }\n",
    b"func f<T: Codable, U>(_ x: T, y: (U, T) -> Void = { _, _ in }, z: Dictionary<String, [Int]>? = nil) -> T { x }\n",
    b"@AppStorage(\"k\", store: UserDefaults(suiteName: \"g\")) var v: [String: Int] = [:] { didSet {} }\n",
    b"let x = UserDefaults.standard.object(forKey: #\"raw\"k\"#) as? [String: [Int]] ?? [:]\n",
    b"static func == (lhs: Self, rhs: Self) -> Bool { lhs.k == rhs.k }\n",
    b"func g(#if DEBUG\n a: Int = 1,\n#endif\n b: Int) {}\n",
    b"let k = \\Settings.value; _ = UserDefaults.standard.bool(forKey: k)\n",
    b"- (NSDictionary<NSString *, NSArray<NSNumber *> *> *)d:(id<P, Q>)x { return [[NSUserDefaults standardUserDefaults] objectForKey:@\"k\"]; }\n",
    b"#define M(a, ...) [[NSUserDefaults standardUserDefaults] setObject:@[__VA_ARGS__] forKey:@#a]\nM(k, 1, 2)\n",
    b"typedef NS_ENUM(NSInteger, E) { E1 = 1 << 2, E2 = E1 | 3, E3 };\n",
    b"if (x < 1.0f || (y >= 2 && z)) x = 1; else if (!x) { x = (CGFloat)[d doubleForKey:@\"w\"]; }\n",
    # The sixth set's forms: a suite a class method returns, managed properties, key paths,
    # folded numbers, a value written when an object getter held in a local answered nil.
    b"+(NSUserDefaults*) db { static NSUserDefaults* d; dispatch_once(&t, ^{ d = [[NSUserDefaults alloc] initWithSuiteName:G]; }); return d; }\n",
    b"NSNumber* v = [[H db] objectForKey:k]; if (v == nil) { [[H db] setInteger:5*1024*-1 forKey:k]; }\n",
    b"extension UserDefaults { @NSManaged @objc(k) private var _k: [[String: Any]]?; @objc @NSManaged var ) }\n",
    b"let d = [#keyPath(UserDefaults.a.b): 1, #keyPath(): 2, #keyPath(x.): H.db().bool(forKey: \"k\")]\n",
    b"@objc enum E: Int { case a = 9223372036854775807, b }\n",
    # The thirteenth and fourteenth sets' forms: closures that stand for user defaults, a
    # property's initializing closure, aliases, raw values, JSON of a wrapped value.
    b"struct D { var set: @Sendable (Any?, String) async throws -> Void = { UserDefaults.standard.set($0, forKey: $1) }\n func set(_ v: Any?, forKey k: String) { set(v, k) } }\n",
    b"var m: M = { guard let s = d.string(forKey: \"k\") else { return .a } return M(rawValue: s) ?? .b }() { didSet { d.set(m.rawValue, forKey: \"k\") } }\n",
    b"typealias A = [A]\ntypealias B = C\ntypealias C = B\nlet x = UserDefaults.standard.object(forKey: \"k\") as? [A]\n",
    b"if let r = UserDefaults.standard.object(forKey: \"k\") as? Bool { return r }\nreturn\n",
    b"init(wrappedValue v: T, _ k: String) { try? UserDefaults.standard.register(defaults: [k: JSONEncoder().encode(v)]) }\n",
    b"extension UserDefaults { static var g: UserDefaults { UserDefaults(suiteName: G) ?? .standard } }\nlet s = UserDefaults.g\n",
    # The fifteenth set's forms: a prefix header's macro written like a class, SwiftyUserDefaults'
    # computed keys on an adapter, a suite bound by `if let`, fallbacks returned in a branch, one
    # message in both branches, a member an initializer keeps, a local encoder's JSON text.
    b"#define TCADefaults [NSUserDefaults standardUserDefaults]\n+ (BOOL)f { if (![H g]) { [H s:YES]; return YES; } return [TCADefaults boolForKey:@\"k\"]; }\n",
    b"var Defaults = DefaultsAdapter(defaults: UserDefaults(suiteName: G)!, keyStore: DefaultsKeys())\nextension DefaultsKeys { var k: DefaultsKey<Bool> { return DefaultsKey(\"k\", defaultValue: true) } }\n",
    b"if let d = UserDefaults(suiteName: id) { return d.object(forKey: key) as? T ?? defaultValue } else if #available(macOS 10.15, *), let e = x { }\n",
    b"NSString *s = [d objectForKey:@\"k\"]; if (!s || ![a containsObject:s] || (s && !s)) { return @\"x\"; } return s;\n",
    b"if ([d objectForKey:@\"k\"] == NULL) { [s setIntValue:15]; } else { v = [d integerForKey:@\"k\"]; [s setIntValue:v]; [s setIntValue:[d integerForKey:@\"j\"]]; }\n",
    b"- (id)init:(id)a p:(id)ip { prefix = ip; prefix = prefix; w = 5; if ([d objectForKey:prefix]) w = [d integerForKey:prefix]; return self; }\n",
    b"let encoder = JSONEncoder(); let data = try? encoder.encode(data); let data2 = String(bytes: data!, encoding: .utf8); UserDefaults.standard.set(data2, forKey: k)\n",
    # The sixteenth and seventeenth sets' forms: a presence test through a method of the tree,
    # constant objects holding a key read by their members (an AppStorage extension, overloads),
    # a KeyboardShortcuts initial shortcut, a constant inside an implementation.
    b"extension UserDefaults { func e(forKey k: String) -> Bool { object(forKey: k) != nil } }\nif !d.e(forKey: key) { return v } else { guard d.e(forKey: k) else { return } }\n",
    b"static let p = P(\"k\", default: P.p.name)\nextension AppStorage { init(_ k: P<Value>) { self.init(wrappedValue: k.k, k.k.k) } }\n@AppStorage(P.p) var p\n",
    b"func v(for key: P<P<Int>>) -> Int { object(forKey: key.name.name) as? Int ?? key.defaultValue.x }\n_ = d.v(for: .p)\n",
    b"static let s = Self(\"s\", default: .init(.`return`, modifiers: [.command, .command, ]))\nstatic let t = Self(\"t\", initial: Shortcut(.k, modifiers: .option))\n",
    b"@implementation X\nstatic NSString *const D = D;\n- (NSString *)c { return [self o:NSStringFromSelector(_cmd)]; }\n",
    # The eighteenth set's forms: a domain named by the app's own identifier, CFNumbers,
    # registered defaults returned as a copy through a local, numeric constants, a class func,
    # property-list coders, overloads calling each other, a binder's trailing closure.
    b"CFNumberRef v = CFNumberCreate(NULL, kCFNumberIntType, &v); CFPreferencesSetAppValue((CFStringRef)k, v, CFSTR(\"org.example.Own-App\"));\n",
    b"- (NSDictionary *)f { NSMutableDictionary *d = [d copy]; d[K] = @(kN); return [[d copy] mutableCopy]; }\nNSDictionary *x = self.f; [u registerDefaults:x];\n",
    b"NSInteger const kN = kN; float const kF = 0.5; static const NSInteger kC = ;\n",
    b"class func class func d() -> [String: Any] { return [K: 0] }\nclass var v: Int { 1 }\nclass Tests {}\n",
    b"UserDefaults.standard.set(try? PropertyListEncoder().encode(PropertyListDecoder().decode(T.self, from: Data())), forKey: \"k\")\n",
    b"func bool(forKey key: K, d: Bool) -> Bool { bool(forKey: key, d: bool(forKey: key)) }\nMASShortcutBinder.shared().bindShortcut(withDefaultsKey: K) { }\n",
]


def mutate(data: bytes, rng: random.Random) -> bytes:
    kind = rng.randrange(12)
    n = len(data)
    at = rng.randrange(n + 1)
    if kind == 0:  # cut anywhere
        return data[:at]
    if kind == 1:  # take out every bracket of one kind
        ch = rng.choice(b"()[]{}")
        return data.replace(bytes([ch]), b"")
    if kind == 2:  # a quote taken out or doubled
        ch = rng.choice([b'"', b"'", b"@\"", b"\"\"\""])
        return data[:at] + ch + data[at:]
    if kind == 3:  # nesting thousands deep
        depth = rng.choice([1000, 5000, 20000])
        opener, closer = rng.choice([(b"(", b")"), (b"[", b"]"), (b"{", b"}"), (b"@[", b"]")])
        middle = opener * depth + (closer * depth if rng.random() < 0.5 else b"")
        return data[:at] + middle + data[at:]
    if kind == 4:  # an open comment or string
        return data[:at] + rng.choice([b"/*", b"//", b"\"", b"#if 0\n", b"\\(", b"#\"", b"R\"("]) + data[at:]
    if kind == 5:  # a line repeated many times
        lines = data.split(b"\n")
        if not lines:
            return data
        line = rng.choice(lines)
        return data[:at] + (line + b"\n") * rng.choice([100, 2000]) + data[at:]
    if kind == 6:  # noise
        noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
        return data[:at] + noise + data[at:]
    if kind == 7:  # macros that name themselves or each other
        return (
            b"#define A(x) B(x, x)\n#define B(x, y) A(x ## y)\n#define K K\n#define L(...) L(__VA_ARGS__)\n"
            + data
            + b"\n[[NSUserDefaults standardUserDefaults] boolForKey:A(K)];\nL(L(L(1)))\n"
        )
    if kind == 8:  # a key expression that refers to itself
        return data + rng.choice(
            [
                b"\nstatic let k = k + \"x\"\nfunc f() { UserDefaults.standard.set(1, forKey: k) }\n",
                b"\nNSString *const kA = kB; NSString *const kB = kA;\nvoid f(void) { [[NSUserDefaults standardUserDefaults] setBool:YES forKey:kA]; }\n",
                b"\nfunc key(_ s: String) -> String { key(s) }\nlet x = UserDefaults.standard.bool(forKey: key(\"a\"))\n",
            ]
        )
    if kind >= 10:  # a tricky form at a line's start, whole or cut
        snippet = rng.choice(TRICKY)
        if rng.random() < 0.3:
            snippet = snippet[: rng.randrange(len(snippet) + 1)]
        line_start = data.rfind(b"\n", 0, at) + 1
        return data[:line_start] + snippet + data[line_start:]
    # splice two halves of the file in the wrong order
    return data[at:] + data[:at]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("prefs")
    parser.add_argument("roots", nargs="*")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_intermixed_args()
    here = os.path.dirname(os.path.abspath(__file__))
    roots = args.roots or [os.path.join(here, "..", "Tests/PrefsToolsTests/Fixtures/SourceScan")]
    files = sources(roots)
    if not files:
        sys.exit("scan-fuzz: no source files under " + ", ".join(roots))
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rounds = args.rounds or (40 if args.smoke else 400)
    rng = random.Random(seed)
    print(f"scan-fuzz: seed {seed}, {rounds} rounds over {len(files)} files")
    failures = 0
    for round_ in range(rounds):
        work = tempfile.mkdtemp(prefix="scan-fuzz-")
        try:
            picked = rng.sample(files, min(len(files), rng.randrange(1, 6)))
            for n, path in enumerate(picked):
                with open(path, "rb") as f:
                    data = f.read()
                for _ in range(rng.randrange(1, 4)):
                    data = mutate(data, rng)
                name = f"{n}-{os.path.basename(path)}"
                if path.endswith("project.pbxproj"):
                    # Read by its name only: kept in a project folder of its own.
                    os.mkdir(os.path.join(work, f"{n}.xcodeproj"))
                    name = os.path.join(f"{n}.xcodeproj", "project.pbxproj")
                with open(os.path.join(work, name), "wb") as f:
                    f.write(data)
            try:
                run = subprocess.run(
                    [args.prefs, "plan", "scan", work],
                    capture_output=True,
                    timeout=args.timeout,
                )
            except subprocess.TimeoutExpired:
                failures += 1
                keep = work + ".hang"
                shutil.copytree(work, keep)
                print(f"round {round_}: no end in {args.timeout} s; kept in {keep}")
                continue
            problem = None
            if run.returncode < 0 or run.returncode >= 128:
                problem = f"ended by signal (exit {run.returncode})"
            elif run.returncode not in (0, 66):
                problem = f"exit {run.returncode}, not documented for plan scan"
            elif run.returncode == 0:
                try:
                    json.loads(run.stdout)
                except ValueError:
                    problem = "the plan is not JSON"
            if problem:
                failures += 1
                keep = work + ".fail"
                shutil.copytree(work, keep)
                tail = run.stderr.decode("utf-8", "replace")[-400:]
                print(f"round {round_}: {problem}; kept in {keep}\n{tail}")
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print(f"scan-fuzz: {rounds - failures}/{rounds} rounds ended cleanly (seed {seed})")
    sys.exit(1 if failures else 0)



if __name__ == "__main__":
    main()
