/** A UUID in its canonical text form (any case); the one copy of this pattern (tests match ids with it too). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID in its canonical text form: ids that are not cannot name a row, so lookups can stop early. */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
