/**
 * The deepest nesting of arrays and objects a JSON text the api reads may have (a request body, a line of an NDJSON
 * import): deeper is refused, so code walking a parsed value (canonicalising, serialising, validating) may recurse.
 */
export const MAX_JSON_DEPTH = 64;

/** True when the JSON text nests arrays and objects deeper than `max` (brackets inside strings do not count). */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
