import { getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/** Digits, an optional leading '+', spaces and the separators of written forms: ( ) - . / */
const PHONE_CHARACTERS = /^\+?[\d\s()./-]+$/;

/**
 * Normalises a phone to the spec's canonical form: E.164 digits without '+' (`17145551234`).
 * A number written without a country code is read in the workspace's default region; a digits-only number
 * that is not valid there is read as already carrying its country code (the spec's own form).
 * Undefined when no reading is a valid number.
 */
export function normalizePhone(input: string, defaultRegion = 'US'): string | undefined {
  const trimmed = input.trim();
  // Written forms only: libphonenumber would otherwise drop trailing junk ('17145551234abc', '…*') and extensions.
  if (!trimmed || trimmed.length > 40 || !PHONE_CHARACTERS.test(trimmed)) return undefined;
  const readings = [() => parsePhoneNumberFromString(trimmed, defaultRegion as CountryCode)];
  if (/^\d{8,15}$/.test(trimmed)) readings.push(() => parsePhoneNumberFromString(`+${trimmed}`));
  // Hot path (lead lookups): in a +1 region, '1' + 10 digits reads the same either way (NANP national numbers are
  // exactly 10 digits), and the '+' reading costs half as much as the regional one.
  if (/^1\d{10}$/.test(trimmed) && inNanp(defaultRegion)) readings.unshift(() => parsePhoneNumberFromString(`+${trimmed}`));
  for (const read of readings) {
    const parsed = read();
    if (parsed?.isValid()) return parsed.number.slice(1);
  }
  return undefined;
}

/**
 * The digits of input when they are the only stored phone it can match: for `+` and digits (any region), and for
 * 1 + 10 digits in a +1 region, normalizePhone(input, region) is these digits whenever they are a valid number.
 * Lets a lookup try the database first and pay for validation only when nothing matches. Undefined otherwise.
 */
export function phoneCandidate(input: string, defaultRegion = 'US'): string | undefined {
  const trimmed = input.trim();
  if (/^\+\d{1,15}$/.test(trimmed)) return trimmed.slice(1);
  if (/^1\d{10}$/.test(trimmed) && inNanp(defaultRegion)) return trimmed;
  return undefined;
}

const nanp = new Map<string, boolean>();
const inNanp = (region: string): boolean => {
  let yes = nanp.get(region);
  if (yes === undefined) nanp.set(region, (yes = isSupportedCountry(region) && getCountryCallingCode(region as CountryCode) === '1'));
  return yes;
};
