import fc from 'fast-check';
import examples from 'libphonenumber-js/examples.mobile.json';
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { DomainError } from '../../src/core/errors';
import { normalizeRecordPhone, splitRecord } from '../../src/leads/record';
import { normalizePhone, phoneCandidate } from '../../src/core/phone';

const defined = new Set(['favorite_color', 'shoe_size']);

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('invalid_fields');
    return (err as DomainError).message;
  }
  throw new Error('expected an invalid_fields error');
}

describe('splitRecord', () => {
  it('splits standard fields, defined custom fields and ignored names', () => {
    const out = splitRecord(
      { phone: '+1 714 555 1234', first_name: ' Ada ', email: 'ada@example.com', favorite_color: 'red', nickname: 'A', tags: ['x'] },
      defined,
    );
    expect(out).toEqual({
      standard: { phone: '+1 714 555 1234', first_name: 'Ada', email: 'ada@example.com' },
      custom: { favorite_color: 'red' },
      ignored: ['nickname', 'tags'],
    });
  });

  it('reads a nested custom_fields object like flat fields', () => {
    const out = splitRecord({ custom_fields: { favorite_color: 'blue', unknown: 1 }, shoe_size: 42 }, defined);
    expect(out).toEqual({ standard: {}, custom: { shoe_size: 42, favorite_color: 'blue' }, ignored: ['unknown'] });
  });

  it('reads a phone sent as a JSON number as its digits', () => {
    expect(splitRecord({ phone: 17145551234 }, defined).standard).toEqual({ phone: '17145551234' });
  });

  it("turns '' and null into null (clear) and drops undefined", () => {
    const out = splitRecord({ last_name: '', company: null, email: '', first_name: undefined, favorite_color: null }, defined);
    expect(out).toEqual({ standard: { last_name: null, company: null, email: null }, custom: { favorite_color: null }, ignored: [] });
  });

  it('canonicalises a time zone and rejects an unknown one', () => {
    expect(splitRecord({ timezone: 'america/los_angeles' }, defined).standard).toEqual({ timezone: 'America/Los_Angeles' });
    expect(messageOf(() => splitRecord({ timezone: 'Mars/Olympus' }, defined))).toBe('timezone: not a known IANA time zone (e.g. America/New_York)');
  });

  it.each([
    ['a malformed email', { email: 'not-an-email' }, 'email: Invalid email address'],
    ['a number as first_name', { first_name: 42 }, 'first_name: expected string, received number'],
    ['NUL in a standard field', { first_name: 'a\u0000b' }, 'first_name: must not contain NUL characters or unpaired surrogates'],
    ['an over-long company', { company: 'x'.repeat(256) }, 'company: Too big: expected string to have <=255 characters'],
    ['a phone that is neither text nor a whole number', { phone: 1.5 }, 'phone: must be a string'],
    ['NUL in a custom value', { favorite_color: 'bad\u0000' }, 'favorite_color: must not contain NUL characters or unpaired surrogates'],
    ['an unpaired surrogate in a custom key', { favorite_color: { 'k\ud800': 1 } }, 'favorite_color: must not contain NUL characters or unpaired surrogates'],
    ['a custom value nested too deep', { favorite_color: JSON.parse('['.repeat(40) + ']'.repeat(40)) }, 'favorite_color: nested more than 4 levels deep'],
    ['NUL in a field name', { 'bad\u0000key': 1 }, 'record: field names must not contain NUL characters or unpaired surrogates'],
  ])('rejects %s with a message naming the field', (_label, record, message) => {
    expect(messageOf(() => splitRecord(record as Record<string, unknown>, defined))).toBe(message);
  });
});

describe('normalizeRecordPhone', () => {
  it.each(['+1 (714) 555-1234', '17145551234', '714-555-1234', '(714) 555 1234', '+17145551234'])('reads %s in a US workspace', (input) => {
    expect(normalizeRecordPhone(input, 'US')).toBe('17145551234');
  });

  it('reads a number without country code in the workspace region', () => {
    expect(normalizeRecordPhone('020 7946 0958', 'GB')).toBe('442079460958');
    expect(normalizeRecordPhone('020 7946 0958', 'US')).toBeUndefined();
    expect(normalizeRecordPhone('17145551234', 'GB')).toBe('17145551234');
  });

  it('accepts a phone sent as a JSON number', () => {
    expect(normalizeRecordPhone(17145551234, 'US')).toBe('17145551234');
  });

  it.each([undefined, null, '', '12', 'call me', '+1 714', 1.5, -17145551234, {}, ['17145551234']])('rejects %j', (input) => {
    expect(normalizeRecordPhone(input, 'US')).toBeUndefined();
  });
});

describe('normalizePhone fast path for +1 regions', () => {
  // The reading order normalizePhone documents: the region's reading first, then the digits as international.
  const reference = (input: string, region: string) => {
    for (const parsed of [parsePhoneNumberFromString(input, region as CountryCode), parsePhoneNumberFromString(`+${input}`)]) {
      if (parsed?.isValid()) return parsed.number.slice(1);
    }
    return undefined;
  };
  it('gives the same answer as reading in the region first, for any 1 + 10 digits', () => {
    const nanpish = fc.tuple(fc.integer({ min: 200, max: 999 }), fc.integer({ min: 200, max: 999 }), fc.integer({ min: 0, max: 9999 }));
    const anyDigits = fc.stringMatching(/^1\d{10}$/);
    const input = fc.oneof(
      nanpish.map(([a, b, c]) => `1${a}${b}${String(c).padStart(4, '0')}`),
      anyDigits,
    );
    fc.assert(
      fc.property(input, fc.constantFrom('US', 'CA', 'PR', 'JM', 'GB', 'DE', 'KZ'), (phone, region) => {
        expect(normalizePhone(phone, region)).toBe(reference(phone, region));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('phoneCandidate (lookups try these digits before validating)', () => {
  const regions = fc.constantFrom('US', 'CA', 'PR', 'GB', 'DE', 'FR', 'IN', 'BR', 'EG', 'KZ', 'AU', 'JP');
  // Valid-looking numbers of every country: an example number with its last digits varied.
  const e164 = fc
    .tuple(fc.constantFrom(...getCountries().filter((c) => (examples as Record<string, string>)[c])), fc.integer({ min: 0, max: 999 }))
    .map(([c, n]) => {
      const national = (examples as Record<string, string>)[c]!;
      return getCountryCallingCode(c) + national.slice(0, -3) + String(n).padStart(3, '0');
    });
  const input = fc.oneof(
    e164.map((d) => `+${d}`),
    e164.map((d) => ` +${d} `),
    fc.stringMatching(/^1\d{10}$/),
    fc.tuple(fc.integer({ min: 200, max: 999 }), fc.integer({ min: 0, max: 9_999_999 })).map(([a, b]) => `1${a}${String(b).padStart(7, '0')}`),
  );

  it('names the one stored phone an input can match: whenever the digits are a valid number, normalizePhone gives them', () => {
    fc.assert(
      fc.property(input, regions, (phone, region) => {
        const candidate = phoneCandidate(phone, region);
        // 1 + 10 digits has a candidate only in a +1 region; '+' and digits always has one.
        if (candidate === undefined) {
          expect(phone.trim().startsWith('+')).toBe(false);
          expect(getCountryCallingCode(region as CountryCode)).not.toBe('1');
          return;
        }
        if (normalizePhone(`+${candidate}`) === candidate) expect(normalizePhone(phone, region)).toBe(candidate);
      }),
      { numRuns: 1500 },
    );
  });

  it.each([
    ['7145551234', 'US'],
    ['+1 (714) 555-1234', 'US'],
    ['17145551234', 'GB'],
    ['442079460958', 'GB'],
    ['+1234567890123456', 'US'],
  ])('has no candidate for %j in %s (normalised first)', (phone, region) => {
    expect(phoneCandidate(phone, region)).toBeUndefined();
  });
});
