// What leaves the process in a span: no query string, no phone number, no email, whatever instrumentation made it.
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { scrubSpan, scrubText, scrubUrl } from '../../src/telemetry/redact';

describe('span scrubbing', () => {
  it('replaces phones and emails, keeps addresses, ids and statements', () => {
    expect(scrubText('call +1 (212) 555-0147 for ann@example.com')).toBe('call [redacted] for [redacted]');
    expect(scrubText('12125550147')).toBe('[redacted]');
    for (const kept of [
      '127.0.0.1',
      'call:6db962c2-32b5-4cea-96bc-51e290433abf',
      'SELECT * FROM leads WHERE phone = $1 LIMIT 50',
      'RunActivity:placeCall',
      '200',
    ])
      expect(scrubText(kept)).toBe(kept);
  });

  it('skips the scans only for values they would leave unchanged', () => {
    // The scans over every value, as scrubText made them before its cheap tests (an @, a run of digits) were added.
    const full = (v: string) =>
      v
        .replace(/[^\s@/?&=:"']+@[^\s@/?&=:"']+\.[^\s@/?&=:"']+/g, '[redacted]')
        .replace(/(?<![\w-])\+?\d[\d\s().-]{5,}\d(?![\w-])/g, (m) => (/^(\d{1,3}(\.\d{1,3}){3}|\d{4}-\d{2}-\d{2})$/.test(m) ? m : '[redacted]'));
    const piece = fc.constantFrom('+1', ' (212) ', '555-0147', '0147', '.', '-', ' ', '@', 'ann', 'example.com', '$1', '=', '2026-11-27', '10.0.0.7', 'x');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const value = parts.join('');
        expect(scrubText(value)).toBe(full(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('cuts the query string and fragment off URLs', () => {
    expect(scrubUrl('https://api.hubapi.com/crm/v3/objects/contacts/search?email=ann%40example.com#x')).toBe(
      'https://api.hubapi.com/crm/v3/objects/contacts/search',
    );
    expect(scrubUrl('http://127.0.0.1:3079/2010-04-01/Accounts/AC1/Calls/+12125550147.json')).toBe(
      'http://127.0.0.1:3079/2010-04-01/Accounts/AC1/Calls/[redacted].json',
    );
  });

  it('scrubs a finished span in place: name, attributes, event attributes; drops url.query', () => {
    const span = {
      name: 'GET ann@example.com',
      attributes: {
        'url.full': 'http://v/x?phone=%2B12125550147',
        'url.query': '?phone=%2B12125550147',
        'server.address': '10.0.0.7',
        note: ['ann@example.com', 3],
      },
      events: [{ name: 'exception', time: [0, 0], attributes: { 'exception.message': 'no lead with phone +12125550147' } }],
    } as unknown as ReadableSpan;
    scrubSpan(span);
    expect(span).toMatchObject({
      name: 'GET [redacted]',
      attributes: { 'url.full': 'http://v/x', 'server.address': '10.0.0.7', note: ['[redacted]', 3] },
      events: [{ attributes: { 'exception.message': 'no lead with phone [redacted]' } }],
    });
    expect(span.attributes).not.toHaveProperty('url.query');
  });
});
