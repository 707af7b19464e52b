// Pure (no imports): the journey workflow uses it too.

const ISO_DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d{1,3})?)S)?)?$/;

/**
 * Milliseconds in an ISO-8601 duration of weeks, days, hours, minutes and seconds (`PT10M`, `P2D`, `PT1.5S`);
 * a day counts 24 hours. Undefined when unreadable, empty (`P`, `PT`) or using years or months (ambiguous lengths).
 */
export function parseIsoDuration(text: string): number | undefined {
  const m = ISO_DURATION.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return undefined;
  const [, w, d, h, min, s] = m;
  if ([w, d, h, min, s].every((x) => x === undefined)) return undefined;
  const n = (x: string | undefined) => (x === undefined ? 0 : Number(x));
  return Math.round((((n(w) * 7 + n(d)) * 24 + n(h)) * 60 + n(min)) * 60_000 + n(s) * 1000);
}
