// What leaves the process in a span: no query string, no phone number, no email, whatever instrumentation made it.
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
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
