/**
 * RFC 3339 timestamps exactly as `Date.prototype.toISOString` writes them
 * (`2026-11-25T12:14:11.042Z`), at a fraction of the cost: V8 formats every one through
 * snprintf, and creating a charge writes two. The date part is formatted by toISOString once
 * per day in a row and the time of day with arithmetic. The sandbox writes times of its
 * accounts' clocks, which stop before the year 9999 (the clock control), and dates a
 * bounded time after them, all within the Date range.
 */

const DAY_MS = 86_400_000;

const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, "0"));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, "0"));

/** The day whose date part (`2026-11-25T`) was written last (none before the first time). */
let lastDayStartMs = Number.NaN;
let lastDayPrefix: string;

/**
 * `new Date(ms).toISOString()`, for a time within the Date range: a Date drops the fraction of a
 * millisecond (towards zero); NaN is never the last day, so its toISOString throws RangeError.
 */
export function isoTimestamp(time: number): string {
  const ms = Math.trunc(time);
  const dayStartMs = Math.floor(ms / DAY_MS) * DAY_MS;
  if (dayStartMs !== lastDayStartMs) {
    const iso = new Date(ms).toISOString();
    lastDayPrefix = iso.slice(0, iso.indexOf("T") + 1);
    lastDayStartMs = dayStartMs;
  }
  let rest = ms - dayStartMs;
  const millis = rest % 1000;
  rest = (rest - millis) / 1000;
  const seconds = rest % 60;
  rest = (rest - seconds) / 60;
  const minutes = rest % 60;
  const hours = (rest - minutes) / 60;
  return `${lastDayPrefix}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[millis]}Z`;
}
