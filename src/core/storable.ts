// jsonb cannot hold NUL or unpaired UTF-16 surrogates, in values or keys.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What a text Postgres cannot store breaks, as the answers word it. */
export const UNSTORABLE_RULE = 'must not contain NUL characters or unpaired surrogates';

/** Whether Postgres can store the string (as text or in jsonb). */
export const storableText = (s: string): boolean => !UNSTORABLE.test(s);

/** Whether Postgres can store the JSON value (as jsonb): no NUL characters or unpaired surrogates anywhere in it. */
export const storable = (v: unknown): boolean =>
  typeof v === 'string'
    ? !UNSTORABLE.test(v)
    : Array.isArray(v)
      ? v.every(storable)
      : v !== null && typeof v === 'object'
        ? Object.entries(v).every(([k, x]) => !UNSTORABLE.test(k) && storable(x))
        : true;
