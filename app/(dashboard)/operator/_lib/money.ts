/**
 * An amount typed in dollars and cents (`12.34`, `$1,000`, `.5`) as whole cents, or a sentence saying what is wrong.
 * Integer arithmetic only: `0.29 * 100` in floating point is 28.999…, which must never become 28 cents.
 */
export function parseDollars(text: string): { cents: number } | { error: string } {
  const value = text.trim().replace(/^\$\s*/, "");
  if (value === "") return { error: "Enter an amount, like 12.34." };
  const match = /^(\d+|\d{1,3}(?:,\d{3})+)?(?:\.(\d*))?$/.exec(value);
  if (!match || (match[1] === undefined && !match[2]))
    return { error: "Enter an amount in dollars and cents, like 12.34." };
  const fraction = match[2] ?? "";
  if (fraction.length > 2) return { error: "Use at most two decimals: the smallest amount is one cent." };
  const dollars = Number((match[1] ?? "0").replaceAll(",", ""));
  const cents = dollars * 100 + Number(fraction.padEnd(2, "0"));
  if (cents < 1) return { error: "Enter at least 0.01." };
  if (!Number.isSafeInteger(cents)) return { error: "That amount is too large." };
  return { cents };
}
