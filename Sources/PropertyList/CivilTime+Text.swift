#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The text of a date, written and read: the one place the package lays out a date's fields
/// (XML's `<date>`, GNUstep's `<*D…>`, JSON and messages, `defaults read`, `plutil -p`).
extension CivilTime {
  /// How a date's text is laid out, in UTC.
  package enum Layout: Sendable {
    /// `2011-03-14T15:09:26Z`: ISO 8601, as XML's `<date>` holds it.
    case iso8601
    /// `2011-03-14 15:09:26 +0000`: GNUstep's `<*D…>`, `-[NSDate description]`.
    case description
  }

  /// Which whole second a date between two is written as.
  package enum Rounding: Sendable {
    /// The second at or before it: CoreFoundation's and GNUstep's writers.
    case down
    /// The second nearer 1970: Foundation's `Date.description` (`plutil -p`).
    case towardZero
  }

  /// The most bytes ``write(_:_:micros:into:)`` writes.
  static let maximumLength = 40

  /// `date` in `layout`, to the whole second `rounding` gives: the year as C's `%04d` writes
  /// it (at least four characters, a minus counted: `-001`, `0042`, `12141`), every other field
  /// in two digits. nil for a date 10^15 seconds or more from 2001 (beyond about year
  /// 31,690,000), which the calendar arithmetic does not reach.
  ///
  /// ```swift
  /// CivilTime.text(date, .iso8601)                    // "2011-03-14T15:09:26Z"
  /// CivilTime.text(date, .description)                // "2011-03-14 15:09:26 +0000"
  /// CivilTime.text(date, .description, rounding: .towardZero)  // as `Date.description`
  /// ```
  package static func text(_ date: Date, _ layout: Layout, rounding: Rounding = .down)
    -> String?
  {
    var whole = date
    if rounding == .towardZero {
      let since1970 = date.timeIntervalSince1970
      whole = Date(timeIntervalSince1970: since1970.rounded(.towardZero))
    }
    guard let (f, _) = fields(of: whole) else { return nil }
    return string(f, layout)
  }

  /// A date as Foundation's `Date.description` gives it (`plutil -p`): ``Layout/description``
  /// to the second toward 1970, `2014-04-24 02:40:00 +0000`; `<description unavailable>` for
  /// a date before year 1 or after year 4000, as Foundation says it.
  package static func foundationDescription(_ date: Date) -> String {
    let since1970 = date.timeIntervalSince1970
    guard since1970 >= -62_135_769_600, since1970 <= 64_092_211_200,
      let text = text(date, .description, rounding: .towardZero)
    else {
      return "<description unavailable>"
    }
    return text
  }

  /// A date as `plutil -extract … raw` prints it: ISO 8601 to the second at or before it,
  /// `2014-04-24T02:40:00Z`. A date beyond the calendar arithmetic is its seconds since 2001
  /// (as ``iso8601(_:)`` gives it).
  package static func plutilRaw(_ date: Date) -> String {
    // The second counted from 1970, as plutil counts it: a date a hair before a second's end
    // since 2001 can be that second itself since 1970.
    let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    return text(whole, .iso8601) ?? iso8601(date)
  }

  /// ISO 8601 with the fraction of a second when there is one (to the microsecond, trailing
  /// zeros dropped: `2011-03-14T15:09:26.5Z`): JSON output and messages. A date beyond the
  /// calendar arithmetic is its seconds since 2001 (`1e+300`).
  package static func iso8601(_ date: Date) -> String {
    guard case (var f, let fraction)? = fields(of: date) else {
      return String(date.timeIntervalSinceReferenceDate)
    }
    var micros = Int((fraction * 1_000_000).rounded())
    if micros == 1_000_000,
      let next = fields(
        of: Date(
          timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down) + 1))
    {
      // A fraction that rounds up to a whole second is the next second.
      (f, micros) = (next.0, 0)
    }
    return string(f, .iso8601, micros: micros)
  }

  /// GNUstep's form (``Layout/description``) of a date it holds: whole seconds, a year in
  /// 0...9999; nil for any other (GNUstep's `<*D…>` cannot hold it).
  static func gnustepString(_ date: Date) -> String? {
    guard let (f, fraction) = fields(of: date), fraction == 0, (0...9999).contains(f.year) else {
      return nil
    }
    return string(f, .description)
  }

  /// A date as `defaults read` and `plutil -p` show it inside a description: GNUstep's form,
  /// else (a fraction of a second, a year outside 0...9999) ISO 8601.
  static func described(_ date: Date) -> String { gnustepString(date) ?? iso8601(date) }

  private static func string(_ f: Fields, _ layout: Layout, micros: Int = 0) -> String {
    ByteSlots.string(capacity: maximumLength) { write(f, layout, micros: micros, into: $0) }
  }

  /// Writes `f` in `layout` at `p`, with `micros` (0...999,999) after the seconds' point when
  /// it is not 0 (trailing zeros dropped); returns how many bytes it wrote (at most
  /// ``maximumLength``). The one writer of a date's text: the XML writer writes its `<date>`
  /// with it in place.
  static func write(
    _ f: Fields, _ layout: Layout, micros: Int = 0, into p: ByteSlots
  ) -> Int {
    var k = 0
    @inline(__always) func put(_ byte: UInt8) {
      p[k] = byte
      k += 1
    }
    /// `value` in at least `width` digits.
    @inline(__always) func digits(_ value: Int, width: Int) {
      var divisor = 1
      var rest = value / 10
      var count = 1
      while rest > 0 || count < width {
        divisor *= 10
        rest /= 10
        count += 1
      }
      rest = value
      while divisor > 0 {
        put(UInt8(truncatingIfNeeded: 48 + rest / divisor))
        rest %= divisor
        divisor /= 10
      }
    }
    if f.year < 0 { put(UInt8(ascii: "-")) }
    digits(abs(f.year), width: f.year < 0 ? 3 : 4)
    put(UInt8(ascii: "-"))
    digits(f.month, width: 2)
    put(UInt8(ascii: "-"))
    digits(f.day, width: 2)
    put(layout == .iso8601 ? UInt8(ascii: "T") : 0x20)
    digits(f.hour, width: 2)
    put(UInt8(ascii: ":"))
    digits(f.minute, width: 2)
    put(UInt8(ascii: ":"))
    digits(f.second, width: 2)
    if micros > 0 {
      put(UInt8(ascii: "."))
      var fraction = micros
      var width = 6
      while fraction % 10 == 0 {
        fraction /= 10
        width -= 1
      }
      digits(fraction, width: width)
    }
    switch layout {
    case .iso8601: put(UInt8(ascii: "Z"))
    case .description:
      for byte in " +0000".utf8 { put(byte) }
    }
    return k
  }

  // MARK: - Reading

  /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, the year as CoreFoundation writes it (`%04d`: `-001`,
  /// `12141`) and reads it back (an optional minus and any number of digits; here up to 9).
  /// `normalising`: fields out of range are carried into the next as CoreFoundation and
  /// GNUstep carry them (29 February of a common year is 1 March), with no fraction.
  static func date(iso8601 u: ByteView, normalising: Bool = false) -> Date? {
    let negative = u.first == UInt8(ascii: "-")
    var o = negative ? 1 : 0
    while o < u.count, TextNumber.isDigit(u[o]) { o += 1 }
    let yearDigits = o - (negative ? 1 : 0)
    // `o` is at the `-` after the year; `-MM-DDTHH:MM:SS` and `Z` follow.
    guard (1...9).contains(yearDigits), u.count >= o + 16 else { return nil }
    guard u[o] == UInt8(ascii: "-"), u[o + 3] == UInt8(ascii: "-"), u[o + 6] == UInt8(ascii: "T"),
      u[o + 9] == UInt8(ascii: ":"), u[o + 12] == UInt8(ascii: ":"), u.last == UInt8(ascii: "Z"),
      let magnitude = number(u, negative ? 1 : 0, yearDigits), let month = number(u, o + 1, 2),
      let day = number(u, o + 4, 2), let hour = number(u, o + 7, 2),
      let minute = number(u, o + 10, 2), let second = number(u, o + 13, 2)
    else { return nil }
    let fields = Fields(
      year: negative ? -magnitude : magnitude, month: month, day: day, hour: hour,
      minute: minute, second: second)
    guard isValid(fields) else {
      // What CoreFoundation and GNUstep make of it (they carry a field out of range into the
      // next): the caller's, with a warning; a fraction on top is refused.
      guard normalising, u.count == o + 16 else { return nil }
      return Date(timeIntervalSinceReferenceDate: coreFoundationSeconds(fields))
    }
    var fraction = 0.0
    if u.count > o + 16 {
      guard u[o + 15] == UInt8(ascii: "."), u.count > o + 17,
        let f = Double("0" + u.string((o + 15)..<(u.count - 1)))
      else { return nil }
      fraction = f
    }
    return Date(timeIntervalSinceReferenceDate: referenceSeconds(fields) + fraction)
  }

  /// ``date(iso8601:normalising:)`` of text.
  static func date(iso8601 text: Substring) -> Date? {
    ByteView.with(utf8: text.utf8) { date(iso8601: $0) }
      ?? ByteView.with(Array(text.utf8)) {
        date(iso8601: $0)
      }
  }

  /// A date as the readers read `<date>`: its fields (``date(iso8601:normalising:)``), or
  /// fields out of range carried over as CoreFoundation and GNUstep carry them (`normalised`);
  /// `fraction`: the text has a fraction of a second.
  static func readerDate(iso8601 u: ByteView) -> (
    date: Date, normalised: Bool, fraction: Bool
  )? {
    let fraction = u.contains(UInt8(ascii: "."))
    if let date = date(iso8601: u) { return (date, false, fraction) }
    return date(iso8601: u, normalising: true).map { ($0, true, fraction) }
  }

  /// `YYYY-MM-DD HH:MM:SS ±HHMM` (GNUstep's `<*D…>`, ``Layout/description``).
  static func date(description text: String) -> Date? {
    let u = Array(text.utf8)
    guard u.count == 25 else { return nil }
    return ByteView.with(u) { u -> Date? in
      guard u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"), u[10] == 0x20,
        u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"), u[19] == 0x20,
        u[20] == UInt8(ascii: "+") || u[20] == UInt8(ascii: "-"),
        let year = number(u, 0, 4), let month = number(u, 5, 2), let day = number(u, 8, 2),
        let hour = number(u, 11, 2), let minute = number(u, 14, 2),
        let second = number(u, 17, 2), let zoneHours = number(u, 21, 2),
        let zoneMinutes = number(u, 23, 2), zoneMinutes < 60
      else { return nil }
      let fields = Fields(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second)
      guard isValid(fields) else { return nil }
      let offset = (zoneHours * 3600 + zoneMinutes * 60) * (u[20] == UInt8(ascii: "-") ? -1 : 1)
      return Date(timeIntervalSinceReferenceDate: referenceSeconds(fields) - Double(offset))
    }
  }

  /// A date from text in either layout: ISO 8601 as XML holds it (an optional fraction) or
  /// GNUstep's.
  package static func date(fromText text: String) -> Date? {
    date(iso8601: text[...]) ?? date(description: text)
  }

  /// The decimal number in `count` ASCII digits of `u` from `from`; nil when one is not a
  /// digit.
  private static func number(_ u: ByteView, _ from: Int, _ count: Int) -> Int? {
    var value = 0
    for k in from..<(from + count) {
      guard TextNumber.isDigit(u[k]) else { return nil }
      value = value * 10 + Int(u[k] - UInt8(ascii: "0"))
    }
    return value
  }
}
