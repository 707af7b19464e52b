import type { IntegrationCases } from '../../helpers/action-cases';

const CONTACT = 'ocQHyuzHvysMo5N5VsXc';
const CALENDAR = 'BqTwX8QFwXzpegMve9EQ';
const LOCATION = 've9EPM428h8vShlRW1KT';
const CONTACTS = { authorization: 'Bearer pit-0000-test', version: '2021-07-28' };
const CALENDARS = { authorization: 'Bearer pit-0000-test', version: '2021-04-15' };

/** HighLevel: private integration token, a Version header per API family, the location from the connection. */
export const gohighlevel: IntegrationCases = {
  integration: 'gohighlevel',
  connection: { kind: 'api_key', secrets: { api_key: 'pit-0000-test' }, settings: { location_id: LOCATION } },
  cases: [
    {
      action: 'upsert_contact',
      params: {
        firstName: 'Ada',
        email: 'ada@example.com',
        phone: '+15551234567',
        tags: ['ai-call'],
        custom_field_values: { '6dvNaf7VhkQ9snc5vnjJ': 'booked', Zl9a0nP7T1NhGv3QXpBq: 3 },
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/contacts/upsert',
            headers: { ...CONTACTS, 'content-type': 'application/json' },
            body: {
              firstName: 'Ada',
              email: 'ada@example.com',
              phone: '+15551234567',
              tags: ['ai-call'],
              locationId: LOCATION,
              customFields: [
                { id: '6dvNaf7VhkQ9snc5vnjJ', field_value: 'booked' },
                { id: 'Zl9a0nP7T1NhGv3QXpBq', field_value: 3 },
              ],
            },
          },
          response: { status: 200, body: { new: true, contact: { id: CONTACT }, traceId: 't' } },
        },
      ],
      data: { id: CONTACT, created: true },
    },
    {
      action: 'upsert_contact',
      name: 'custom fields from callData',
      params: {
        email: 'caller_email',
        custom_field_values: { '6dvNaf7VhkQ9snc5vnjJ': 'outcome' },
        customFields: [
          { field: 'email', customFieldEnabled: true },
          { field: 'custom_field_values.6dvNaf7VhkQ9snc5vnjJ', customFieldEnabled: true },
        ],
      },
      callData: { fields: { caller_email: 'ada@example.com', outcome: 'booked' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/contacts/upsert',
            headers: CONTACTS,
            body: { email: 'ada@example.com', locationId: LOCATION, customFields: [{ id: '6dvNaf7VhkQ9snc5vnjJ', field_value: 'booked' }] },
          },
          response: { status: 200, body: { new: false, contact: { id: CONTACT } } },
        },
      ],
      data: { id: CONTACT, created: false },
    },
    {
      action: 'add_tags',
      params: { contactId: CONTACT, tags: ['hot'] },
      exchanges: [
        {
          request: { method: 'POST', path: `/contacts/${CONTACT}/tags`, headers: CONTACTS, body: { tags: ['hot'] } },
          response: { status: 201, body: { tags: ['ai-call', 'hot'] } },
        },
      ],
      data: { tags: ['ai-call', 'hot'] },
    },
    {
      action: 'add_note',
      params: { contactId: CONTACT, body: 'Asked for a callback' },
      exchanges: [
        {
          request: { method: 'POST', path: `/contacts/${CONTACT}/notes`, headers: CONTACTS, body: { body: 'Asked for a callback' } },
          response: { status: 201, body: { note: { id: 'n0te0000001', body: 'x' } } },
        },
      ],
      data: { id: 'n0te0000001' },
    },
    {
      action: 'find_slots',
      params: { calendarId: CALENDAR, startDate: '2026-12-01T00:00:00Z', endDate: '2026-12-03T00:00:00Z', timezone: 'America/Chicago' },
      exchanges: [
        {
          request: {
            method: 'GET',
            path: `/calendars/${CALENDAR}/free-slots`,
            query: { startDate: String(Date.parse('2026-12-01T00:00:00Z')), endDate: String(Date.parse('2026-12-03T00:00:00Z')), timezone: 'America/Chicago' },
            headers: CALENDARS,
          },
          response: {
            status: 200,
            body: {
              '2026-12-01': { slots: ['2026-12-01T10:00:00-06:00', '2026-12-01T10:30:00-06:00'] },
              '2026-12-02': { slots: ['2026-12-02T09:00:00-06:00'] },
              traceId: 'x',
            },
          },
        },
      ],
      data: { slots: ['2026-12-01T10:00:00-06:00', '2026-12-01T10:30:00-06:00', '2026-12-02T09:00:00-06:00'] },
    },
    {
      action: 'book_appointment',
      params: { calendarId: CALENDAR, contactId: CONTACT, startTime: '2026-12-01T10:00:00-06:00', title: 'Demo' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/calendars/events/appointments',
            headers: CALENDARS,
            body: {
              calendarId: CALENDAR,
              contactId: CONTACT,
              startTime: '2026-12-01T10:00:00-06:00',
              title: 'Demo',
              appointmentStatus: 'confirmed',
              locationId: LOCATION,
            },
          },
          response: { status: 201, body: { id: 'appt00000001', startTime: '2026-12-01T10:00:00-06:00' } },
        },
      ],
      data: { id: 'appt00000001', startTime: '2026-12-01T10:00:00-06:00' },
    },
  ],
};
