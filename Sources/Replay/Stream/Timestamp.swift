/// RFC 3339 timestamps ⇄ epoch milliseconds (Int64, milliseconds since 1970-01-01T00:00:00Z),
/// by hand: no `DateFormatter`, no allocation when parsing.
///
/// Accepted: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, e.g. `2025-04-16T10:00:00Z`,
/// `2025-04-16T10:00:00.123456Z`, `2025-04-16T12:00:00+02:00`. `t` and `z` may be lower case.
/// Ranges are checked (month 1–12, day within its month including 29 February in leap years,
/// hour 0–23, minute 0–59, second 0–59, offset up to ±23:59). The fraction has 1–9 digits; digits
/// beyond milliseconds are truncated, not rounded. Not accepted: a missing zone, a space instead
/// of `T`, leap second `:60`, offsets without a colon, years outside 0000–9999.
public enum Timestamp {
    /// Epoch milliseconds of an RFC 3339 timestamp, or nil if `text` is not one.
    public static func parse(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// Epoch milliseconds of an RFC 3339 timestamp given as UTF-8 bytes, or nil.
    public static func parse(utf8 bytes: ArraySlice<UInt8>) -> Int64? {
        bytes.withUnsafeBufferPointer { parse(utf8: $0) }
    }

    /// Epoch milliseconds of an RFC 3339 timestamp given as UTF-8 bytes, or nil.
    /// Length: every event's time is read here; the fields, the fraction and the offset are read in one pass
    /// over fixed positions, each checked where it is read.
    public static func parse(utf8 p: UnsafeBufferPointer<UInt8>) -> Int64? {
        let n = p.count
        guard n >= 20 else { return nil }  // YYYY-MM-DDTHH:MM:SSZ

        /// The value of `count` ASCII digits at `at`, or nil.
        func digits(_ at: Int, _ count: Int) -> Int64? {
            guard at + count <= n else { return nil }
            var value: Int64 = 0
            for index in at ..< at + count {
                let digit = Int64(p[index]) - 0x30
                guard digit >= 0 && digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        guard let year = digits(0, 4), p[4] == UInt8(ascii: "-"),
              let month = digits(5, 2), p[7] == UInt8(ascii: "-"),
              let day = digits(8, 2), p[10] == UInt8(ascii: "T") || p[10] == UInt8(ascii: "t"),
              let hour = digits(11, 2), p[13] == UInt8(ascii: ":"),
              let minute = digits(14, 2), p[16] == UInt8(ascii: ":"),
              let second = digits(17, 2)
        else { return nil }
        guard month >= 1 && month <= 12,
              day >= 1 && day <= daysInMonth(year: year, month: month),
              hour <= 23, minute <= 59, second <= 59
        else { return nil }

        var index = 19
        var millis: Int64 = 0
        if index < n && p[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < n, p[index] >= 0x30, p[index] <= 0x39 {
                if index - fractionStart < 3 { millis = millis * 10 + Int64(p[index] - 0x30) }
                index += 1
            }
            let fractionDigits = index - fractionStart
            guard fractionDigits >= 1 && fractionDigits <= 9 else { return nil }
            if fractionDigits == 1 { millis *= 100 } else if fractionDigits == 2 { millis *= 10 }
        }

        guard index < n else { return nil }
        var offsetSeconds: Int64 = 0
        switch p[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = p[index] == UInt8(ascii: "+") ? 1 : -1
            guard let offsetHours = digits(index + 1, 2), index + 3 < n, p[index + 3] == UInt8(ascii: ":"),
                  let offsetMinutes = digits(index + 4, 2),
                  offsetHours <= 23, offsetMinutes <= 59
            else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
            index += 6
        default:
            return nil
        }
        guard index == n else { return nil }

        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return seconds * 1000 + millis
    }

    /// Formats epoch milliseconds as UTC: `2025-04-16T10:04:52Z` when `millis` is a whole second,
    /// else `2025-04-16T10:04:52.123Z`. Years outside 0000–9999 get more digits or a `-` sign
    /// (and then do not parse back).
    public static func iso8601(millis: Int64) -> String {
        var (seconds, fraction) = millis.quotientAndRemainder(dividingBy: 1000)
        if fraction < 0 {
            seconds -= 1
            fraction += 1000
        }
        var (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        if secondOfDay < 0 {
            days -= 1
            secondOfDay += 86_400
        }
        let (year, month, day) = civilFromDays(days)

        // Written into a stack buffer: the returned string is the one allocation (a sign and 19 year digits at
        // most, then 20 bytes).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { out in
            var n = 0
            func put(_ byte: UInt8) {
                out[n] = byte
                n += 1
            }
            func append(_ value: Int64, width: Int) {
                if value < 0 { put(UInt8(ascii: "-")) }
                var rest = value.magnitude
                var count = 0
                var probe = rest
                repeat {
                    count += 1
                    probe /= 10
                } while probe > 0
                for _ in count ..< max(width, count) { put(0x30) }
                n += count
                var i = n
                repeat {
                    i -= 1
                    out[i] = UInt8(rest % 10) + 0x30
                    rest /= 10
                } while rest > 0
            }
            append(year, width: 4)
            put(UInt8(ascii: "-"))
            append(month, width: 2)
            put(UInt8(ascii: "-"))
            append(day, width: 2)
            put(UInt8(ascii: "T"))
            append(secondOfDay / 3600, width: 2)
            put(UInt8(ascii: ":"))
            append(secondOfDay / 60 % 60, width: 2)
            put(UInt8(ascii: ":"))
            append(secondOfDay % 60, width: 2)
            if fraction != 0 {
                put(UInt8(ascii: "."))
                append(fraction, width: 3)
            }
            put(UInt8(ascii: "Z"))
            return String(decoding: UnsafeBufferPointer(rebasing: out[..<n]), as: UTF8.self)
        }
    }

    /// Whether `year` (proleptic Gregorian) has a 29 February.
    static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400                                        // [0, 399]
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1  // [0, 365]
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear  // [0, 146096]
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
    static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097                                                      // [0, 146096]
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365  // [0, 399]
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)        // [0, 365]
        let mp = (5 * dayOfYear + 2) / 153                                                    // [0, 11]
        let day = dayOfYear - (153 * mp + 2) / 5 + 1                                          // [1, 31]
        let month = mp < 10 ? mp + 3 : mp - 9                                                 // [1, 12]
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
