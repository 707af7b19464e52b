import type { Config } from '../core/config';
import type { TelephonyProvider } from './provider';
import { createTwilioProvider } from './twilio';

/** The configured provider: Twilio's Calls API at TELEPHONY_BASE_URL (the carrier simulator by default). */
export function telephonyProviderFromConfig(config: Pick<Config, 'TELEPHONY_BASE_URL' | 'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN'>): TelephonyProvider {
  // idempotentPlacement stays false even for the simulator: callers keep Twilio's check-before-place discipline.
  return createTwilioProvider({ baseUrl: config.TELEPHONY_BASE_URL, accountSid: config.TWILIO_ACCOUNT_SID, authToken: config.TWILIO_AUTH_TOKEN });
}
