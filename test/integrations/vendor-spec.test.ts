import { readdirSync } from 'node:fs';
import path from 'node:path';
import { vendorSpec, vendorSpecPath } from '../helpers/vendor-spec';

const files = readdirSync(path.dirname(vendorSpecPath('INDEX.md'))).filter((f) => f.endsWith('.json') && f !== 'monday.json');

describe('the vendor description checker', () => {
  it.each(files)('loads %s in strict and lenient mode and refuses an unknown operation', (file) => {
    for (const lenient of [false, true]) {
      const check = vendorSpec(file, { lenient });
      expect(check({ method: 'POST', path: '/no/such/operation', query: {}, headers: {}, rawBody: '', body: undefined })[0]).toMatch(/no such operation/);
    }
  });

  it('checks form bodies (Twilio): a required field missing and an unknown field are reported, a sound request passes', () => {
    const check = vendorSpec('twilio.json');
    const req = (body: Record<string, string>) => ({
      method: 'POST',
      path: '/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages.json',
      query: {},
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: new URLSearchParams(body).toString(),
      body,
    });
    expect(check(req({ To: '+15005550006', From: '+15005550001', Body: 'hi' }))).toEqual([]);
    expect(check(req({ From: '+15005550001', Body: 'hi', Colour: 'red' })).join('\n')).toMatch(/To[\s\S]*Colour|Colour[\s\S]*To/);
  });
});
