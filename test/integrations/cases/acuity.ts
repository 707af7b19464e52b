import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: `Basic ${Buffer.from('1234:acuity-key').toString('base64')}` };
const BOOKING = {
  datetime: '2026-03-02T09:00:00-08:00',
  appointmentTypeID: 5,
  firstName: 'Ada',
  lastName: 'Caller',
  email: 'ada@example.com',
  phone: '+15550100',
  fields: [{ id: 11, value: 'Referred by a friend' }],
};

/** Acuity Scheduling: Basic user id:API key. */
export const acuity: IntegrationCases = {
  integration: 'acuity',
  connection: { kind: 'basic', secrets: { username: '1234', password: 'acuity-key' } },
  cases: [
    {
      action: 'get_available_times',
      params: { appointmentTypeID: 5, date: '2026-03-02', timezone: 'America/Los_Angeles' },
      exchanges: [
        {
          request: {
            method: 'GET',
            path: '/api/v1/availability/times',
            query: { appointmentTypeID: '5', date: '2026-03-02', timezone: 'America/Los_Angeles' },
            headers: H,
          },
          response: {
            body: [
              { time: '2026-03-02T09:00:00-0800', slotsAvailable: 1 },
              { time: '2026-03-02T09:30:00-0800', slotsAvailable: 1 },
            ],
          },
        },
      ],
      data: {
        times: [
          { time: '2026-03-02T09:00:00-0800', slotsAvailable: 1 },
          { time: '2026-03-02T09:30:00-0800', slotsAvailable: 1 },
        ],
      },
    },
    {
      action: 'create_appointment',
      params: BOOKING,
      exchanges: [
        {
          request: { method: 'POST', path: '/api/v1/appointments', headers: { ...H, 'content-type': 'application/json' }, body: BOOKING },
          response: { body: { id: 880, datetime: '2026-03-02T09:00:00-0800', confirmationPage: 'https://acuityscheduling.com/c/880' } },
        },
      ],
      data: { id: 880, datetime: '2026-03-02T09:00:00-0800', confirmationPage: 'https://acuityscheduling.com/c/880' },
    },
    {
      action: 'reschedule_appointment',
      params: { id: 880, datetime: '2026-03-03T10:00:00-08:00' },
      exchanges: [
        {
          request: { method: 'PUT', path: '/api/v1/appointments/880/reschedule', headers: H, body: { datetime: '2026-03-03T10:00:00-08:00' } },
          response: { body: { id: 880, datetime: '2026-03-03T10:00:00-0800' } },
        },
      ],
      data: { id: 880, datetime: '2026-03-03T10:00:00-0800' },
    },
    {
      action: 'cancel_appointment',
      params: { id: 880, cancelNote: 'Caller cancelled by phone' },
      exchanges: [
        {
          request: { method: 'PUT', path: '/api/v1/appointments/880/cancel', headers: H, body: { cancelNote: 'Caller cancelled by phone' } },
          response: { body: { id: 880, canceled: true } },
        },
      ],
      data: { id: 880, canceled: true },
    },
  ],
};
