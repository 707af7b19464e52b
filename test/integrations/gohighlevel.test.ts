import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { declareCoverage } from '../helpers/declare-coverage';
import { vendorFakeRunner } from '../helpers/integration-harness';

declareCoverage('gohighlevel', ['upsert_contact', 'add_tags', 'add_note', 'find_slots', 'book_appointment']);

const connection: Connection = { id: 'c1', integration: 'gohighlevel', kind: 'api_key', secrets: { api_key: 'pit-0000-test' }, settings: { location_id: 've9EPM428h8vShlRW1KT' } };
const CONTACT = 'ocQHyuzHvysMo5N5VsXc';
const CALENDAR = 'BqTwX8QFwXzpegMve9EQ';

describe('gohighlevel', () => {
  const h = vendorFakeRunner('gohighlevel', connection, 'req-1');
  const { run, waits } = h;

  it('upsert_contact sends Version, the location and custom fields as [{id, field_value}]', async () => {
    h.fake.on('POST', '/contacts/upsert', { status: 200, body: { new: true, contact: { id: CONTACT }, traceId: 't' } });
    const out = await run('upsert_contact', { firstName: 'Ada', email: 'ada@example.com', phone: '+15551234567', tags: ['ai-call'], custom_field_values: { '6dvNaf7VhkQ9snc5vnjJ': 'booked', Zl9a0nP7T1NhGv3QXpBq: 3 } });
    expect(out.data).toEqual({ id: CONTACT, created: true });
    const [req] = h.fake.requests;
    expect(req!.headers).toMatchObject({ authorization: 'Bearer pit-0000-test', version: '2021-07-28', 'content-type': 'application/json' });
    expect(req!.body).toEqual({
      firstName: 'Ada',
      email: 'ada@example.com',
      phone: '+15551234567',
      tags: ['ai-call'],
      locationId: 've9EPM428h8vShlRW1KT',
      customFields: [
        { id: '6dvNaf7VhkQ9snc5vnjJ', field_value: 'booked' },
        { id: 'Zl9a0nP7T1NhGv3QXpBq', field_value: 3 },
      ],
    });
  });

  it('spec customFields resolve from callData.fields into HighLevel custom field values', async () => {
    h.fake.on('POST', '/contacts/upsert', { status: 200, body: { new: false, contact: { id: CONTACT } } });
    const params = { email: 'caller_email', custom_field_values: { '6dvNaf7VhkQ9snc5vnjJ': 'outcome' }, customFields: [{ field: 'email', customFieldEnabled: true }, { field: 'custom_field_values.6dvNaf7VhkQ9snc5vnjJ', customFieldEnabled: true }] };
    const out = await runIntegrationAction({ integration: 'gohighlevel', action: 'upsert_contact', params, connection, idempotencyKey: 'req-1', call: { callData: { fields: { caller_email: 'ada@example.com', outcome: 'booked' } } }, baseUrls: { gohighlevel: h.fake.url }, ssrfAllowlist: ['127.0.0.1/8'] });
    expect(out.data).toEqual({ id: CONTACT, created: false });
    expect(h.fake.requests[0]!.body).toEqual({ email: 'ada@example.com', locationId: 've9EPM428h8vShlRW1KT', customFields: [{ id: '6dvNaf7VhkQ9snc5vnjJ', field_value: 'booked' }] });
  });

  it('add_tags and add_note go to the contact', async () => {
    h.fake.on('POST', `/contacts/${CONTACT}/tags`, { status: 201, body: { tags: ['ai-call', 'hot'] } });
    h.fake.on('POST', `/contacts/${CONTACT}/notes`, { status: 201, body: { note: { id: 'n0te0000001', body: 'x' } } });
    await expect(run('add_tags', { contactId: CONTACT, tags: ['hot'] })).resolves.toMatchObject({ data: { tags: ['ai-call', 'hot'] } });
    await expect(run('add_note', { contactId: CONTACT, body: 'Asked for a callback' })).resolves.toMatchObject({ data: { id: 'n0te0000001' } });
    expect(h.fake.requests.map((r) => r.body)).toEqual([{ tags: ['hot'] }, { body: 'Asked for a callback' }]);
  });

  it('find_slots queries epoch milliseconds with the calendars Version and flattens the days', async () => {
    h.fake.on('GET', `/calendars/${CALENDAR}/free-slots`, { status: 200, body: { '2026-12-01': { slots: ['2026-12-01T10:00:00-06:00', '2026-12-01T10:30:00-06:00'] }, '2026-12-02': { slots: ['2026-12-02T09:00:00-06:00'] }, traceId: 'x' } });
    const out = await run('find_slots', { calendarId: CALENDAR, startDate: '2026-12-01T00:00:00Z', endDate: '2026-12-03T00:00:00Z', timezone: 'America/Chicago' });
    expect(out.data).toEqual({ slots: ['2026-12-01T10:00:00-06:00', '2026-12-01T10:30:00-06:00', '2026-12-02T09:00:00-06:00'] });
    const [req] = h.fake.requests;
    expect(req!.headers.version).toBe('2021-04-15');
    expect(req!.query).toEqual({ startDate: String(Date.parse('2026-12-01T00:00:00Z')), endDate: String(Date.parse('2026-12-03T00:00:00Z')), timezone: 'America/Chicago' });
  });

  it('book_appointment books the slot for the contact', async () => {
    h.fake.on('POST', '/calendars/events/appointments', { status: 201, body: { id: 'appt00000001', startTime: '2026-12-01T10:00:00-06:00' } });
    await run('book_appointment', { calendarId: CALENDAR, contactId: CONTACT, startTime: '2026-12-01T10:00:00-06:00', title: 'Demo' });
    const [req] = h.fake.requests;
    expect(req!.headers.version).toBe('2021-04-15');
    expect(req!.body).toEqual({ calendarId: CALENDAR, contactId: CONTACT, startTime: '2026-12-01T10:00:00-06:00', title: 'Demo', appointmentStatus: 'confirmed', locationId: 've9EPM428h8vShlRW1KT' });
  });

  it('422 surfaces HighLevel’s validation message, without retrying', async () => {
    h.fake.on('POST', '/contacts/upsert', { status: 422, body: { statusCode: 422, message: ['phone must be a valid phone number'], error: 'Unprocessable Entity' } });
    await expect(run('upsert_contact', { phone: '12' })).rejects.toMatchObject({ type: 'vendor_rejected', message: expect.stringContaining('422: phone must be a valid phone number'), attempts: 1 });
  });

  it('5xx is retried with backoff, then succeeds', async () => {
    h.fake.on('POST', '/calendars/events/appointments', { status: 502, body: 'bad gateway' }, { status: 201, body: { id: 'appt00000002' } });
    await expect(run('book_appointment', { calendarId: CALENDAR, contactId: CONTACT, startTime: '2026-12-01T10:00:00-06:00' })).resolves.toMatchObject({ data: { id: 'appt00000002' }, attempts: 2 });
    expect(waits).toHaveLength(1);
  });

  it('without a location in params or connection, fails naming it and sends nothing', async () => {
    await expect(run('upsert_contact', { email: 'ada@example.com' }, { ...connection, settings: {} })).rejects.toMatchObject({ type: 'invalid_params', message: expect.stringContaining('locationId') });
    await expect(run('find_slots', { calendarId: CALENDAR, startDate: '2026-12-03T00:00:00Z', endDate: '2026-12-01T00:00:00Z' })).rejects.toMatchObject({ type: 'invalid_params', problems: ['endDate: endDate must be after startDate'] });
    expect(h.fake.requests).toHaveLength(0);
  });
});
