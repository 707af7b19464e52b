/** Word error rate for the speech tests: (substitutions + insertions + deletions) / reference words. */

const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** Contractions written out, as Whisper's own English normaliser does ("you're" → you are). */
const CONTRACTIONS: [RegExp, string][] = [
  [/\bcan't\b/g, 'can not'],
  [/\bwon't\b/g, 'will not'],
  [/\blet's\b/g, 'let us'],
  [/n't\b/g, ' not'],
  [/'re\b/g, ' are'],
  [/'m\b/g, ' am'],
  [/'ll\b/g, ' will'],
  [/'ve\b/g, ' have'],
  [/'d\b/g, ' would'],
];

/**
 * Lower case, contractions written out, punctuation dropped (other apostrophes kept), every digit a spoken word
 * ("4567" → four five six seven).
 */
export const words = (text: string): string[] =>
  CONTRACTIONS.reduce((t, [from, to]) => t.replace(from, to), text.toLowerCase().replace(/[’‘]/g, "'"))
    .replace(/\d/g, (d) => ` ${DIGITS[Number(d)]} `)
    .replace(/[^a-z' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

export function wordErrorRate(reference: string, hypothesis: string): number {
  const r = words(reference);
  const h = words(hypothesis);
  let prev = Array.from({ length: h.length + 1 }, (_, j) => j);
  for (let i = 1; i <= r.length; i++) {
    const row = [i];
    for (let j = 1; j <= h.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (r[i - 1] === h[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[h.length]! / Math.max(1, r.length);
}
