import type { SimCall } from './ledger';

const rfc2822 = (iso: string) => new Date(iso).toUTCString().replace('GMT', '+0000');

/** A call as Twilio's Calls API returns it (the fields Switchboard and Twilio's SDKs read). */
export function callResource(accountSid: string, call: SimCall) {
  const uri = `/2010-04-01/Accounts/${accountSid}/Calls/${call.sid}.json`;
  return {
    sid: call.sid,
    account_sid: accountSid,
    parent_call_sid: call.parentSid,
    to: call.to,
    from: call.from,
    status: call.status,
    direction: call.parentSid ? 'outbound-dial' : 'outbound-api',
    answered_by: null,
    api_version: '2010-04-01',
    date_created: rfc2822(call.createdAt),
    date_updated: rfc2822(new Date().toISOString()),
    start_time: null,
    end_time: null,
    duration: null,
    price: null,
    price_unit: 'USD',
    uri,
  };
}

/** Twilio's error body. */
export const twilioError = (status: number, code: number, message: string) => ({
  code,
  message,
  more_info: `https://www.twilio.com/docs/errors/${code}`,
  status,
});
