/** Family B amounts are reais with at most two decimals (decision D03). */
export function hasAtMostTwoDecimals(amount: number): boolean {
  const cents = amount * 100;
  return Math.abs(cents - Math.round(cents)) < 1e-6;
}
