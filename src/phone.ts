import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/**
 * Normalises a phone to the spec's canonical form: E.164 digits without '+' (`17145551234`).
 * A number written without a country code is read in the workspace's default region; a digits-only number
 * that is not valid there is read as already carrying its country code (the spec's own form).
 * Undefined when no reading is a valid number.
 */
export function normalizePhone(input: string, defaultRegion = 'US'): string | undefined {
  const trimmed = input.trim();
  if (!trimmed || trimmed.length > 40) return undefined;
  const readings = [() => parsePhoneNumberFromString(trimmed, defaultRegion as CountryCode)];
  if (/^\d{8,15}$/.test(trimmed)) readings.push(() => parsePhoneNumberFromString(`+${trimmed}`));
  for (const read of readings) {
    const parsed = read();
    if (parsed?.isValid()) return parsed.number.slice(1);
  }
  return undefined;
}
