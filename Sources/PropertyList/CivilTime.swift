#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Calendar arithmetic for the date forms of the text formats, in UTC, without `Calendar`
/// (deterministic, allocation-free, and the same on every platform); the text of a date, written
/// and read, is in `CivilTime+Text.swift`.
package enum CivilTime {
  /// A UTC date and time of day, proleptic Gregorian (year 0 is 1 BC).
  struct Fields: Equatable {
    var year, month, day: Int
    var hour, minute, second: Int
  }

  static let referenceDays = daysFromCivil(year: 2001, month: 1, day: 1)

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  package static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Whether the fields name a real instant (second 60 is refused).
  static func isValid(_ f: Fields) -> Bool {
    (1...12).contains(f.month) && f.day >= 1
      && f.day <= daysInMonth(year: f.year, month: f.month) && (0...23).contains(f.hour)
      && (0...59).contains(f.minute) && (0...59).contains(f.second)
  }

  /// The seconds since 2001 that CoreFoundation's `CFGregorianDateGetAbsoluteTime` gives for
  /// `f`, whatever its fields: a month, day, hour, minute or second out of range is carried
  /// into the next by plain arithmetic (29 February of a common year is 1 March, hour 24 the
  /// next day, month 13 January of the next year; month 0, 14 and above add no days at all), as
  /// its XML reader reads `<date>`. The same as ``referenceSeconds(_:)`` for valid fields.
  static func coreFoundationSeconds(_ f: Fields) -> Double {
    func isLeap(_ year: Int) -> Bool {
      var y = (year + 1) % 400
      if y < 0 { y = -y }
      return y & 3 == 0 && y != 100 && y != 200 && y != 300
    }
    // Its days before each month (1...13: month 13 is the whole year); others add nothing.
    let daysBeforeMonth = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365]
    var year = f.year - 2001
    let cycles = year / 400
    var days = Double(cycles) * 146097
    year -= cycles * 400
    if year < 0 {
      for y in year..<0 { days -= isLeap(y) ? 366 : 365 }
    } else {
      for y in 0..<year { days += isLeap(y) ? 366 : 365 }
    }
    if (1...13).contains(f.month) {
      days += Double(daysBeforeMonth[f.month] + (f.month > 2 && isLeap(year) ? 1 : 0))
    }
    days += Double(f.day - 1)
    return 86400 * days + (3600 * Double(f.hour) + 60 * Double(f.minute) + Double(f.second))
  }

  /// Seconds since 2001-01-01T00:00:00Z of valid fields.
  static func referenceSeconds(_ f: Fields) -> Double {
    let days = daysFromCivil(year: f.year, month: f.month, day: f.day) - referenceDays
    return Double(days * 86_400 + f.hour * 3600 + f.minute * 60 + f.second)
  }

  /// The UTC fields of a date and the fraction of a second left over (0 <= fraction < 1).
  static func fields(of date: Date) -> (Fields, fraction: Double)? {
    let seconds = date.timeIntervalSinceReferenceDate
    guard seconds.isFinite, abs(seconds) < 1e15 else { return nil }
    let whole = seconds.rounded(.down)
    let total = Int(whole)
    var days = total / 86_400
    var rest = total % 86_400
    if rest < 0 {
      rest += 86_400
      days -= 1
    }
    let (y, m, d) = civilFromDays(days + referenceDays)
    return (
      Fields(
        year: y, month: m, day: d, hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60),
      seconds - whole
    )
  }
}
