import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Expressions: where one ends, and the key or value it is.
extension SwiftReader {
  // MARK: - Expressions

  /// To the end of an expression: a line's end where the next token cannot continue it, `,`,
  /// `)`, `]`, `}`.
  func expressionRange(from start: Int) -> Range<Int> {
    var k = start
    let line = t.line(start)
    while k < t.count {
      if t.isPunctuation(k, 0x2C) || t.isPunctuation(k, 0x29) || t.isPunctuation(k, 0x5D)
        || t.isPunctuation(k, 0x7D) || t.isPunctuation(k, 0x3B)
      {
        break
      }
      if k > start, t.line(k) != line, !t.isPunctuation(k, 0x2E), !t.isPunctuation(k - 1, 0x2E),
        !t.isText(k, "??"), !t.isText(k - 1, "??"), !t.isPunctuation(k, 0x2B),
        !t.isPunctuation(k - 1, 0x2B)
      {
        break
      }
      if t.isPunctuation(k, 0x7B), k > start, t.isPunctuation(k - 1, 0x29) || t.isIdentifier(k - 1)
      {
        // A trailing closure or a block: part of the expression only when it follows a call.
        if t.isIdentifier(k - 1) && !t.isPunctuation(k - 2, 0x2E) { break }
      }
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) || t.isPunctuation(k, 0x7B) {
        k = t.match(k)
      }
      k += 1
    }
    return start..<min(k, t.count)
  }

  func keyOf(_ range: Range<Int>) -> KeyExpr {
    var r = range
    while r.count >= 2, t.isPunctuation(r.lowerBound, 0x28),
      t.match(r.lowerBound) == r.upperBound - 1
    {
      r = (r.lowerBound + 1)..<(r.upperBound - 1)
    }
    guard let first = r.first else { return .runtime("") }
    // `a + b`: each side.
    let plus = (r.lowerBound..<r.upperBound).filter {
      t.isPunctuation($0, 0x2B) && isTopLevel($0, in: r)
    }
    if !plus.isEmpty {
      var parts: [KeyExpr] = []
      var start = r.lowerBound
      for p in plus {
        parts.append(keyOf(start..<p))
        start = p + 1
      }
      parts.append(keyOf(start..<r.upperBound))
      return .concat(parts)
    }
    if r.count == 1, let s = t.stringValue(first) {
      if t.token(first).interpolated {
        let pieces = s.split(separator: "\u{0}", omittingEmptySubsequences: false)
        var parts: [KeyExpr] = []
        for (n, piece) in pieces.enumerated() {
          if !piece.isEmpty { parts.append(.literal(String(piece))) }
          if n < pieces.count - 1 { parts.append(.runtime("\\(…)")) }
        }
        return .concat(parts)
      }
      return .literal(s)
    }
    // NAME, Type.NAME, .case, Type.case.rawValue, NAME.rawValue
    var names: [String] = []
    var k = r.lowerBound
    var leadingDot = false
    if t.isPunctuation(k, 0x2E) {
      leadingDot = true
      k += 1
    }
    while k < r.upperBound {
      if t.isIdentifier(k) {
        names.append(t.text(k))
        k += 1
        if k < r.upperBound, t.isPunctuation(k, 0x2E) {
          k += 1
          continue
        }
        if k < r.upperBound { return runtimeKey(r) }
        break
      }
      return runtimeKey(r)
    }
    if names.last == "rawValue" { names.removeLast() }
    guard !names.isEmpty else { return runtimeKey(r) }
    if names.first == "self" { names.removeFirst() }
    guard !names.isEmpty else { return runtimeKey(r) }
    if leadingDot { return .name("." + names.joined(separator: ".")) }
    return .name(names.joined(separator: "."))
  }

  func runtimeKey(_ r: Range<Int>) -> KeyExpr {
    // String(format: "Flag%@Image", x)
    if t.isText(r.lowerBound, "String"), t.isPunctuation(r.lowerBound + 1, 0x28),
      t.isText(r.lowerBound + 2, "format"), let format = t.stringValue(r.lowerBound + 4)
    {
      let close = t.match(r.lowerBound + 1)
      let args = t.commaSeparated((r.lowerBound + 2)..<close).dropFirst().map { t.source($0) }
      return FormatPieces.split(format, arguments: args)
    }
    return .runtime(t.source(r))
  }

  func isTopLevel(_ k: Int, in r: Range<Int>) -> Bool {
    var i = r.lowerBound
    while i < k {
      if t.isPunctuation(i, 0x28) || t.isPunctuation(i, 0x5B) || t.isPunctuation(i, 0x7B) {
        let close = t.match(i)
        if close > k { return false }
        i = close
      }
      i += 1
    }
    return true
  }

  func valueOf(_ range: Range<Int>) -> ValueExpr {
    var r = range
    while r.count >= 2, t.isPunctuation(r.lowerBound, 0x28),
      t.match(r.lowerBound) == r.upperBound - 1
    {
      r = (r.lowerBound + 1)..<(r.upperBound - 1)
    }
    guard let first = r.first else { return .computed("", nil) }
    let text = t.source(r)
    if r.count == 1 {
      switch t.token(first).kind {
      case .string:
        if t.token(first).interpolated { return .computed(text, .string) }
        return .value(.string(t.stringValue(first) ?? ""))
      case .number:
        let s = t.text(first).replacing("_", with: "")
        if let v = Int64(s) { return .value(.integer(v)) }
        if s.hasPrefix("0x"), let v = Int64(s.dropFirst(2), radix: 16) {
          return .value(.integer(v))
        }
        if let v = Double(s) { return .value(.real(v)) }
        return .computed(text, nil)
      case .identifier:
        switch t.text(first) {
        case "true": return .value(.bool(true))
        case "false": return .value(.bool(false))
        case "nil": return .computed(text, nil)
        default:
          let name = t.text(first)
          if let local = scope?.locals[name], let entries = local.entries {
            return .dictionary(entries)
          }
          return .name(name)
        }
      default: return .computed(text, nil)
      }
    }
    if t.isPunctuation(first, 0x2D), r.count == 2, t.token(first + 1).kind == .number {
      if case .value(let v) = valueOf((first + 1)..<r.upperBound) {
        switch v {
        case .integer(let i): return .value(.integer(-i))
        case .real(let d): return .value(.real(-d))
        default: break
        }
      }
    }
    if t.isPunctuation(first, 0x5B), t.match(first) == r.upperBound - 1 {
      let inner = (first + 1)..<(r.upperBound - 1)
      if inner.count == 1, t.isPunctuation(inner.lowerBound, 0x3A) { return .dictionary([]) }
      let parts = t.commaSeparated(inner)
      if let part = parts.first, let colon = t.colonAtTop(part) {
        _ = colon
        var entries: [ValueEntry] = []
        for part in parts {
          guard let colon = t.colonAtTop(part) else { continue }
          entries.append(
            ValueEntry(
              key: keyOf(part.lowerBound..<colon), value: valueOf((colon + 1)..<part.upperBound)))
        }
        return .dictionary(entries)
      }
      return .array(parts.map(valueOf))
    }
    // .case, Type.case, Type.case.rawValue: an enum's raw value, a constant.
    if r.allSatisfy({ t.isIdentifier($0) || t.isPunctuation($0, 0x2E) }) {
      let key = keyOf(r)
      if case .name(let n) = key { return .name(n) }
    }
    if t.isText(first, "Date"), t.isPunctuation(first + 1, 0x28) { return .computed(text, .date) }
    if t.isText(first, "URL"), t.isPunctuation(first + 1, 0x28) { return .computed(text, .url) }
    return .computed(text, nil)
  }
}
