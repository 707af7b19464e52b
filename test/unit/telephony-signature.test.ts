import fc from 'fast-check';
import { twilioSignature, verifyTwilioSignature } from '../../src/telephony/signature';

// The worked example of Twilio's request-validation docs (https://www.twilio.com/docs/usage/security).
const DOCS_URL = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const DOCS_PARAMS = { CallSid: 'CA1234567890ABCDE', Caller: '+12349013030', Digits: '1234', From: '+12349013030', To: '+18005551212' };
const DOCS_TOKEN = '12345';
const DOCS_SIGNATURE = '0/KCTR6DLpKmkAf8muzZqo1nDgQ=';

describe('X-Twilio-Signature', () => {
  it("matches the signature of Twilio's documented example", () => {
    expect(twilioSignature(DOCS_TOKEN, DOCS_URL, DOCS_PARAMS)).toBe(DOCS_SIGNATURE);
    expect(verifyTwilioSignature(DOCS_TOKEN, DOCS_URL, DOCS_PARAMS, DOCS_SIGNATURE)).toBe(true);
  });

  it('signs a parsed form body the same whatever the order the fields came in', () => {
    const shuffled = new URLSearchParams([
      ['To', '+18005551212'],
      ['Digits', '1234'],
      ['CallSid', 'CA1234567890ABCDE'],
      ['From', '+12349013030'],
      ['Caller', '+12349013030'],
    ]);
    expect(twilioSignature(DOCS_TOKEN, DOCS_URL, shuffled)).toBe(DOCS_SIGNATURE);
  });

  it('rejects a tampered body, URL, query, token, or a missing or truncated signature', () => {
    const verify = (url: string, params: Record<string, string>, sig: string | undefined, token = DOCS_TOKEN) => verifyTwilioSignature(token, url, params, sig);
    expect(verify(DOCS_URL, { ...DOCS_PARAMS, Digits: '1235' }, DOCS_SIGNATURE)).toBe(false);
    expect(verify(DOCS_URL, { ...DOCS_PARAMS, Extra: '' }, DOCS_SIGNATURE)).toBe(false);
    expect(verify('https://mycompany.com/myapp.php?foo=1&bar=3', DOCS_PARAMS, DOCS_SIGNATURE)).toBe(false);
    expect(verify('http://mycompany.com/myapp.php?foo=1&bar=2', DOCS_PARAMS, DOCS_SIGNATURE)).toBe(false);
    expect(verify(DOCS_URL, DOCS_PARAMS, DOCS_SIGNATURE, '12346')).toBe(false);
    expect(verify(DOCS_URL, DOCS_PARAMS, undefined)).toBe(false);
    expect(verify(DOCS_URL, DOCS_PARAMS, '')).toBe(false);
    expect(verify(DOCS_URL, DOCS_PARAMS, DOCS_SIGNATURE.slice(0, -1))).toBe(false);
  });

  it('signs every value of a repeated field, so dropping one breaks the signature', () => {
    const both = new URLSearchParams([
      ['Event', 'ringing'],
      ['Event', 'answered'],
    ]);
    const sig = twilioSignature(DOCS_TOKEN, DOCS_URL, both);
    expect(verifyTwilioSignature(DOCS_TOKEN, DOCS_URL, { Event: ['answered', 'ringing'] }, sig)).toBe(true);
    expect(verifyTwilioSignature(DOCS_TOKEN, DOCS_URL, { Event: 'ringing' }, sig)).toBe(false);
  });

  it('verifies what it signs, and any change to one value fails', () => {
    const params = fc.dictionary(fc.stringMatching(/^[A-Za-z]{1,12}$/), fc.string({ maxLength: 40 }), { minKeys: 1, maxKeys: 8 });
    fc.assert(
      fc.property(
        fc.webUrl({ withQueryParameters: true }),
        params,
        fc.string({ minLength: 8 }),
        fc.string({ minLength: 1, maxLength: 5 }),
        (url, form, token, suffix) => {
          const sig = twilioSignature(token, url, form);
          expect(verifyTwilioSignature(token, url, form, sig)).toBe(true);
          const name = Object.keys(form)[0]!;
          expect(verifyTwilioSignature(token, url, { ...form, [name]: form[name] + suffix }, sig)).toBe(false);
          expect(verifyTwilioSignature(token, url + suffix, form, sig)).toBe(false);
        },
      ),
    );
  });
});
