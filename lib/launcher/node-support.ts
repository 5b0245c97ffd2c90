/**
 * End-of-life dates of the Node.js release lines Signalbox can run on (`engines`: >=20.19), from the Node.js release
 * schedule. A line past its date gets no security fixes, so the launcher says so at start-up.
 */
const END_OF_LIFE: Record<number, string> = {
  20: "2026-04-30",
  22: "2027-04-30",
  24: "2028-04-30",
};

/**
 * A one-line warning when `version` (like "v20.19.0") is a release line past its end of life on `today`, else null.
 * Lines missing from the table (odd-numbered, or newer than this file) get no warning.
 */
export function endOfLifeWarning(version: string, today: Date): string | null {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  const endOfLife = END_OF_LIFE[major];
  if (!endOfLife || today.toISOString().slice(0, 10) <= endOfLife) return null;
  return `Node.js ${major} reached its end of life on ${endOfLife} and gets no security fixes; move to Node.js 22 or 24 LTS.`;
}
