/** Characters shown at most. */
const MAX_SHOWN = 4;

/**
 * What an endpoint shows of its signing secret so its owner can tell secrets apart: its last characters, at most 4
 * and never more than a quarter of it, so a short secret is never shown whole or nearly so ("abc" → "…").
 */
export function secretHint(secret: string): string {
  const characters = Array.from(secret);
  const shown = Math.min(MAX_SHOWN, Math.floor(characters.length / 4));
  return `…${characters.slice(characters.length - shown).join("")}`;
}
