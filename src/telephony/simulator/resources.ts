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
    answered_by: call.answeredBy ?? null,
    api_version: '2010-04-01',
    date_created: rfc2822(call.createdAt),
    date_updated: rfc2822(new Date().toISOString()),
    start_time: rfc2822(call.createdAt),
    end_time: call.endedAt ? rfc2822(call.endedAt) : null,
    duration: call.durationSeconds == null ? null : String(call.durationSeconds),
    price: null,
    price_unit: 'USD',
    uri,
  };
}

/** A page of Twilio's call list (ListCallResponse): the matching calls newest first, all on one page. */
export function callListResource(accountSid: string, calls: SimCall[], query: URLSearchParams) {
  const uri = `/2010-04-01/Accounts/${accountSid}/Calls.json?${query}`;
  const pageSize = Number(query.get('PageSize') ?? 50);
  const page = calls.slice(0, pageSize);
  return {
    calls: page.map((c) => callResource(accountSid, c)),
    end: Math.max(0, page.length - 1),
    first_page_uri: uri,
    next_page_uri: null,
    page: 0,
    page_size: pageSize,
    previous_page_uri: null,
    start: 0,
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
