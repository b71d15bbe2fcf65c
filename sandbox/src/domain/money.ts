/**
 * Family B amounts are reais with at most two decimals (decision D03). Exact for every amount a
 * client can write: the number must be the double nearest to a whole number of centavos divided
 * by 100 (what JSON.parse gives for `10.5`, `0.29` or `1e-2`), so `0.29` passes although
 * `0.29 * 100` is 28.999999999999996, while `10.000000001` and `0.30000000000000004` (which
 * are other doubles) are refused.
 */
export function hasAtMostTwoDecimals(amount: number): boolean {
  if (!Number.isFinite(amount)) return false;
  const cents = Math.round(amount * 100);
  return Number.isSafeInteger(cents) && cents / 100 === amount;
}
