import LegacyDefaults
import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A defaults domain the code uses: the standard one, or a suite.
package enum ScanDomain: Sendable, Hashable, CustomStringConvertible {
  case standard
  case suite(String)

  package var description: String {
    switch self {
    case .standard: "the standard domain"
    case .suite(let name): "suite \(name)"
    }
  }
}

/// The tree's facts put together: names looked up across files, receivers resolved to
/// domains, wrappers' calls made uses, then each key's type and default decided.
struct ScanModel {
  var files: [FileFacts]
  let dialect: Dialect
  var constants: [String: KeyExpr] = [:]
  var valueConstants: [String: ValueExpr] = [:]
  var receivers: [String: ReceiverRef] = [:]
  var superclasses: [String: String] = [:]
  var wrappers: [String: [SourceWrapper]] = [:]
  /// Each wrapper's file, for its receivers.
  var wrapperFiles: [String: Int] = [:]
  var uses: [(use: SourceUse, domain: ScanDomain)] = []
  var extraNotes: [String] = []

  init(files: [FileFacts], dialect: Dialect) {
    self.files = files
    self.dialect = dialect
    for f in files {
      constants.merge(f.constants) { a, _ in a }
      valueConstants.merge(f.valueConstants) { a, _ in a }
      receivers.merge(f.receivers) { a, _ in a }
      superclasses.merge(f.superclasses) { a, _ in a }
    }
    for (n, f) in files.enumerated() {
      for w in f.wrappers {
        var w = w
        w.use.file = n
        wrappers[w.selector, default: []].append(w)
      }
    }
    for (n, f) in files.enumerated() {
      _ = n
      for use in f.uses { add(use) }
    }
  }

  /// A use whose receiver is resolved: kept with its domain, made a wrapper call, or
  /// dropped (not user defaults).
  private mutating func add(_ use: SourceUse) {
    // A registered dictionary named here and made elsewhere (Swift `register(defaults: x)`).
    if use.access == .register, case .runtime = use.key, case .name(let n)? = use.value {
      guard case .dictionary(let entries)? = valueConstants[n] else { return }
      for u in use.registering(entries) { add(u) }
      return
    }
    switch resolve(use.receiver, file: use.file) {
    case .domain(let domain): uses.append((use, domain))
    case .wrapper(let type):
      // A wrapper class's own method with a defaults selector (`[[Settings shared]
      // boolForKey:K]`): its body's uses, with this key.
      guard let templates = wrappers[use.method]?.filter({ $0.className == type }),
        !templates.isEmpty,
        let api = DefaultsAPI.objc[use.method] ?? DefaultsAPI.swift[use.method]
      else { return }
      var arguments = [KeyExpr?](repeating: nil, count: max(api.key, api.value ?? 0) + 1)
      var values = [ValueExpr?](repeating: nil, count: arguments.count)
      arguments[api.key] = use.key
      if let v = api.value { values[v] = use.value }
      let call = WrapperCall(
        selector: use.method, receiver: use.receiver, arguments: arguments, values: values,
        name: use.name, condition: use.condition, file: use.file, line: use.line)
      for template in templates { instantiate(template, call) }
    case .none: return
    }
  }

  enum Resolved {
    case domain(ScanDomain)
    case wrapper(String)
    case none
  }

  func resolve(_ receiver: ReceiverRef, file: Int, depth: Int = 0) -> Resolved {
    guard depth < 8 else { return .none }
    switch receiver {
    case .standard: return .domain(.standard)
    case .suite(let expr):
      switch resolveKey(expr) {
      case .key(let name): return .domain(.suite(name))
      case .pattern(let p, _): return .domain(.suite(p))
      }
    case .name(let n):
      if file < files.count, let bound = files[file].receivers[n] {
        return resolve(bound, file: file, depth: depth + 1)
      }
      if let bound = receivers[n] { return resolve(bound, file: file, depth: depth + 1) }
      // `Settings.shared`: an instance of a type.
      if let dot = n.firstIndex(of: "."), n.first?.isUppercase == true {
        let type = String(n[..<dot])
        let member = String(n[n.index(after: dot)...])
        if let bound = receivers[type + "." + member] ?? receivers[member], n.contains(".") {
          return resolve(bound, file: file, depth: depth + 1)
        }
        return resolve(.type(type), file: file, depth: depth + 1)
      }
      return .none
    case .type(let name):
      var type = name
      var seen: Set<String> = []
      while seen.insert(type).inserted {
        if type == "NSUserDefaults" || type == "UserDefaults" { return .domain(.standard) }
        guard let parent = superclasses[type] else { break }
        type = parent
      }
      if wrappers.values.contains(where: { $0.contains { $0.className == name } }) {
        return .wrapper(name)
      }
      return .none
    case .none: return .none
    }
  }

  enum ResolvedKey: Equatable {
    case key(String)
    /// A key with pieces known only at run time (`Flag*Image`), and their source.
    case pattern(String, [String])
  }

  func resolveKey(_ expr: KeyExpr, depth: Int = 0) -> ResolvedKey {
    if case .literal(let s) = expr { return .key(s) }
    var text = ""
    var runtime: [String] = []
    var wild = false
    func walk(_ e: KeyExpr, _ depth: Int) {
      func wildcard(_ source: String) {
        // Adjacent wildcards are one.
        if !wild { text += "*" }
        wild = true
        runtime.append(source)
      }
      guard depth < 16 else {
        wildcard("…")
        return
      }
      switch e {
      case .literal(let s):
        text += s
        if !s.isEmpty { wild = false }
      case .runtime(let r): wildcard(r)
      case .concat(let parts): for p in parts { walk(p, depth + 1) }
      case .name(let n):
        if let c = lookup(n) {
          walk(c, depth + 1)
        } else {
          wildcard(n)
        }
      }
    }
    walk(expr, depth)
    return runtime.isEmpty ? .key(text) : .pattern(text, runtime)
  }

  /// A name's constant: as written, then (`Keys.sound`, `.sound`) by its last part.
  func lookup(_ name: String) -> KeyExpr? {
    if let c = constants[name] { return c }
    if name.hasPrefix("."), let c = constants[name] { return c }
    if let dot = name.lastIndex(of: ".") {
      let last = String(name[name.index(after: dot)...])
      if let c = constants["." + last] ?? constants[last] { return c }
    }
    return nil
  }

  /// A value with its names looked up: a constant, or the source text of what is not one.
  enum ResolvedValue: Equatable {
    case constant(PlistValue)
    case computed(String)
  }

  func resolveValue(_ value: ValueExpr, depth: Int = 0) -> ResolvedValue {
    guard depth < 16 else { return .computed("…") }
    switch value {
    case .value(let v): return .constant(v)
    case .computed(let text, _): return .computed(text)
    case .name(let n):
      if let v = valueConstants[n] { return resolveValue(v, depth: depth + 1) }
      if let dot = n.lastIndex(of: "."), let v = valueConstants[String(n[n.index(after: dot)...])] {
        return resolveValue(v, depth: depth + 1)
      }
      // A string constant (`kThemeLight`), an enum case's raw value (`.light`).
      if let c = lookup(n), case .key(let s) = resolveKey(c) { return .constant(.string(s)) }
      return .computed(n)
    case .array(let items):
      var out: [PlistValue] = []
      for item in items {
        guard case .constant(let v) = resolveValue(item, depth: depth + 1) else {
          return .computed("an array with a value only known at run time")
        }
        out.append(v)
      }
      return .constant(.array(out))
    case .dictionary(let entries):
      var out = PlistDictionary()
      for entry in entries {
        guard case .key(let k) = resolveKey(entry.key),
          case .constant(let v) = resolveValue(entry.value, depth: depth + 1)
        else { return .computed("a dictionary with a value only known at run time") }
        out[k] = v
      }
      return .constant(.dictionary(out))
    }
  }

  // MARK: - Wrappers

  mutating func addWrapperCalls(_ calls: [WrapperCall]) {
    for call in calls {
      for wrapper in wrappers[call.selector] ?? [] { instantiate(wrapper, call) }
    }
  }

  /// A wrapper's use, made for one call: its parameters replaced by the call's arguments.
  private mutating func instantiate(_ wrapper: SourceWrapper, _ call: WrapperCall) {
    func argument(_ name: String) -> KeyExpr? {
      guard let index = wrapper.parameters.firstIndex(of: name) else { return nil }
      guard index < call.arguments.count, var arg = call.arguments[index] else {
        return .runtime(name)
      }
      // `.sound` for a parameter of type PrefKey: PrefKey.sound.
      if case .name(let n) = arg, n.hasPrefix("."), index < wrapper.parameterTypes.count,
        let type = wrapper.parameterTypes[index]
      {
        arg = .name(type + n)
      }
      return arg
    }
    var use = wrapper.use
    use.key = use.key.substituting(argument)
    if case .name(let n)? = use.value, let index = wrapper.parameters.firstIndex(of: n) {
      use.value = index < call.values.count ? call.values[index] : nil
      if use.value == nil { use.defaultSource = nil }
    }
    if let v = use.value, case .name(let n) = v, wrapper.parameters.contains(n) { use.value = nil }
    // The receiver is the wrapper's: resolved in its file.
    let domain: ScanDomain
    switch resolve(use.receiver, file: wrapper.use.file) {
    case .domain(let d): domain = d
    default: return
    }
    use.method = call.selector + " → " + use.method
    use.file = call.file
    use.line = call.line
    use.place = nil
    if let name = call.name { use.name = name }
    if let condition = call.condition { use.condition = condition }
    uses.append((use, domain))
  }
}
