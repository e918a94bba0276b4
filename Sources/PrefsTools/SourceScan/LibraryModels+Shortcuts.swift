import PreferencesMigration
import PropertyList

/// KeyboardShortcuts' initial shortcut (`Self("toggle", default: .init(.k, modifiers:
/// [.command, .option]))`): `Name.init` writes it when the key is absent, as the JSON text of
/// `{"carbonKeyCode": …, "carbonModifiers": …}`, the codes of Carbon's `Events.h`.
extension LibraryModels {
  /// The virtual key code of each of the library's `Key` names (`kVK_ANSI_K` is 0x28).
  static let carbonKeyCodes: [String: Int] = [
    "a": 0x00, "s": 0x01, "d": 0x02, "f": 0x03, "h": 0x04, "g": 0x05, "z": 0x06, "x": 0x07,
    "c": 0x08, "v": 0x09, "b": 0x0B, "q": 0x0C, "w": 0x0D, "e": 0x0E, "r": 0x0F, "y": 0x10,
    "t": 0x11, "one": 0x12, "two": 0x13, "three": 0x14, "four": 0x15, "six": 0x16, "five": 0x17,
    "equal": 0x18, "nine": 0x19, "seven": 0x1A, "minus": 0x1B, "eight": 0x1C, "zero": 0x1D,
    "rightBracket": 0x1E, "o": 0x1F, "u": 0x20, "leftBracket": 0x21, "i": 0x22, "p": 0x23,
    "return": 0x24, "l": 0x25, "j": 0x26, "quote": 0x27, "k": 0x28, "semicolon": 0x29,
    "backslash": 0x2A, "comma": 0x2B, "slash": 0x2C, "n": 0x2D, "m": 0x2E, "period": 0x2F,
    "tab": 0x30, "space": 0x31, "backtick": 0x32, "delete": 0x33, "escape": 0x35,
    "f17": 0x40, "f18": 0x4F, "f19": 0x50, "f20": 0x5A, "f5": 0x60, "f6": 0x61, "f7": 0x62,
    "f3": 0x63, "f8": 0x64, "f9": 0x65, "f11": 0x67, "f13": 0x69, "f16": 0x6A, "f14": 0x6B,
    "f10": 0x6D, "f12": 0x6F, "f15": 0x71, "help": 0x72, "home": 0x73, "pageUp": 0x74,
    "deleteForward": 0x75, "f4": 0x76, "end": 0x77, "f2": 0x78, "pageDown": 0x79, "f1": 0x7A,
    "leftArrow": 0x7B, "rightArrow": 0x7C, "downArrow": 0x7D, "upArrow": 0x7E,
  ]

  /// Carbon's modifier bits (`cmdKey`, `shiftKey`, `optionKey`, `controlKey`) and the one the
  /// library gives the function key.
  static let carbonModifiers: [String: Int] = [
    "command": 0x100, "shift": 0x200, "option": 0x800, "control": 0x1000, "function": 0x20000,
  ]

  /// A shortcut as the library stores it: the JSON of its Carbon key code and modifiers.
  static func storedShortcut(code: Int, modifiers: Int) -> ValueExpr {
    .value(
      .dictionary([
        "carbonKeyCode": .integer(Int64(code)), "carbonModifiers": .integer(Int64(modifiers)),
      ]))
  }

  /// Carbon's own names of those bits (`optionKey | cmdKey`).
  static let carbonModifierConstants: [String: Int] = [
    "cmdKey": 0x100, "shiftKey": 0x200, "optionKey": 0x800, "controlKey": 0x1000,
  ]

  /// The code of Carbon's `kVK_ANSI_B`, `kVK_Space`, `kVK_F1`: the library's `Key` of that
  /// name (`b`, `space`, `f1`; `kVK_ANSI_1` is `one`).
  static func carbonKeyCode(constant: String) -> Int? {
    let digits = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    var name: Substring
    if constant.hasPrefix("kVK_ANSI_") {
      name = constant.dropFirst(9)
    } else if constant.hasPrefix("kVK_") {
      name = constant.dropFirst(4)
    } else {
      return nil
    }
    if name.count == 1, let digit = name.first?.wholeNumberValue { name = Substring(digits[digit]) }
    guard let first = name.first else { return nil }
    return carbonKeyCodes[first.lowercased() + name.dropFirst()]
  }
}

extension SwiftReader {
  /// The stored form of a shortcut written `.init(.k, modifiers: [.command, .option])`,
  /// `Shortcut(.k, modifiers: …)` or `KeyboardShortcuts.Shortcut(.k)`; nil for anything
  /// else (a key or a modifier the table does not name, a value only the run knows).
  func initialShortcut(_ range: Range<Int>) -> ValueExpr? {
    var k = range.lowerBound
    if t.isText(k, "KeyboardShortcuts"), t.isPunctuation(k + 1, 0x2E) { k += 2 }
    if t.isText(k, "Shortcut") || t.isPunctuation(k, 0x2E) && t.isText(k + 1, "init") {
      k += t.isText(k, "Shortcut") ? 0 : 1
    } else {
      return nil
    }
    guard let c = parseCall(at: k), c.close + 1 == range.upperBound, let first = c.arguments.first
    else { return nil }
    if c.labels == ["carbonKeyCode", "carbonModifiers"] { return carbonShortcut(c) }
    guard c.labels.first == "_", first.count == 2, t.isPunctuation(first.lowerBound, 0x2E),
      let code = LibraryModels.carbonKeyCodes[t.text(first.lowerBound + 1).replacing("`", with: "")]
    else { return nil }
    var modifiers = 0
    for (label, argument) in zip(c.labels, c.arguments).dropFirst() {
      guard label == "modifiers", !argument.isEmpty else { return nil }
      var names: [Int] = []
      var m = argument.lowerBound
      if t.isPunctuation(m, 0x5B) { m += 1 }
      while m < argument.upperBound {
        if t.isPunctuation(m, 0x2E), t.isIdentifier(m + 1) {
          names.append(m + 1)
          m += 2
        } else if t.isPunctuation(m, 0x2C) || t.isPunctuation(m, 0x5D) {
          m += 1
        } else {
          return nil
        }
      }
      for n in names {
        guard let bit = LibraryModels.carbonModifiers[t.text(n)] else { return nil }
        modifiers |= bit
      }
    }
    return LibraryModels.storedShortcut(code: code, modifiers: modifiers)
  }

  /// `.init(carbonKeyCode: kVK_ANSI_B, carbonModifiers: (0 | optionKey | cmdKey))`: Carbon's
  /// codes as written (constants of `Events.h`, or numbers).
  func carbonShortcut(_ c: Call) -> ValueExpr? {
    var code: Int?
    var modifiers = 0
    for k in c.arguments[0] where t.isIdentifier(k) || t.tokens[k].kind == .number {
      guard code == nil else { return nil }
      code = LibraryModels.carbonKeyCode(constant: t.text(k)) ?? Int(t.text(k))
    }
    for k in c.arguments[1] {
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x29) || t.isText(k, "|") { continue }
      if let bit = LibraryModels.carbonModifierConstants[t.text(k)] {
        modifiers |= bit
      } else if let n = Int(t.text(k)), n >= 0 {
        modifiers |= n
      } else {
        return nil
      }
    }
    guard let code else { return nil }
    return LibraryModels.storedShortcut(code: code, modifiers: modifiers)
  }

  /// `KeyboardShortcuts.onKeyUp(for: .init("karaoke"))`, `KeyboardShortcuts.Recorder("…",
  /// name: .init("lyrics"))`: a name made where the library is called, the key
  /// `KeyboardShortcuts_<name>`.
  mutating func inlineShortcutNames(_ c: Call) {
    guard let receiver = c.receiver, receiver.count == 1,
      t.isText(receiver.lowerBound, "KeyboardShortcuts")
    else { return }
    for (label, argument) in zip(c.labels, c.arguments) where label == "for" || label == "name" {
      var k = argument.lowerBound
      if t.isText(k, "KeyboardShortcuts"), t.isPunctuation(k + 1, 0x2E) { k += 2 }
      if t.isPunctuation(k, 0x2E), t.isText(k + 1, "init") {
        k += 1
      } else if !t.isText(k, "Name") {
        continue
      }
      guard let name = parseCall(at: k), name.close == argument.upperBound - 1,
        name.labels.first == "_", let first = name.arguments.first, first.count == 1,
        t.isString(first.lowerBound)
      else { continue }
      var use = SourceUse(
        key: .concat([.literal(LibraryModels.keyboardShortcutsPrefix), keyOf(first)]),
        receiver: .standard, access: .get, method: LibraryModels.Library.keyboardShortcuts.rawValue,
        type: .json, line: t.line(k))
      use.library = .keyboardShortcuts
      use.typeReason = "a KeyboardShortcuts shortcut: JSON text, false when disabled"
      use.condition = conditionText(at: k)
      record(use, at: -1)
    }
  }
}
