import { randomBytes } from 'node:crypto';
import { ConfigError, DEV_DEFAULT_SECRETS, loadConfig } from '../../src/core/config';
import { telephonyProviderFromConfig } from '../../src/telephony/from-config';
import { SIMULATOR_ACCOUNT_SID } from '../../src/telephony/simulator/server';

describe('telephony settings', () => {
  it('point at the embedded carrier simulator by default', () => {
    const config = loadConfig({});
    expect(config.TELEPHONY_BASE_URL).toBe('http://127.0.0.1:3079');
    expect(config.TWILIO_ACCOUNT_SID).toBe(SIMULATOR_ACCOUNT_SID);
    const provider = telephonyProviderFromConfig(config);
    expect(provider.name).toBe('twilio');
    expect(provider.idempotentPlacement).toBe(false);
  });

  it.each([
    ['TWILIO_ACCOUNT_SID', 'AC123'],
    ['TWILIO_ACCOUNT_SID', 'SK0123456789abcdef0123456789abcdef'],
    ['TWILIO_AUTH_TOKEN', 'short'],
    ['TELEPHONY_BASE_URL', 'api.twilio.com'],
    ['TELEPHONY_BASE_URL', 'ftp://api.twilio.com'],
  ])('reject %s=%s, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}: `));
  });

  it('refuse to start in production with the public default token, set or left unset, without echoing it', () => {
    const key = randomBytes(32).toString('base64');
    for (const env of [{}, { TWILIO_AUTH_TOKEN: DEV_DEFAULT_SECRETS.TWILIO_AUTH_TOKEN }]) {
      let issues: ConfigError['issues'] = [];
      try {
        loadConfig({ NODE_ENV: 'production', ENCRYPTION_KEY: key, ...env });
      } catch (err) {
        issues = (err as ConfigError).issues;
      }
      expect(issues).toEqual([{ variable: 'TWILIO_AUTH_TOKEN', problem: expect.stringMatching(/required in production/) }]);
      expect(JSON.stringify(issues)).not.toContain(DEV_DEFAULT_SECRETS.TWILIO_AUTH_TOKEN);
    }
    expect(loadConfig({ NODE_ENV: 'production', ENCRYPTION_KEY: key, TWILIO_AUTH_TOKEN: 'x'.repeat(32) }).TWILIO_AUTH_TOKEN).toBe('x'.repeat(32));
    // Outside production the simulator's token stays the default.
    expect(loadConfig({ NODE_ENV: 'test' }).TWILIO_AUTH_TOKEN).toBe(DEV_DEFAULT_SECRETS.TWILIO_AUTH_TOKEN);
  });

  it('take a real Twilio account', () => {
    const config = loadConfig({
      TELEPHONY_BASE_URL: 'https://api.twilio.com',
      TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
      TWILIO_AUTH_TOKEN: 'x'.repeat(32),
    });
    expect(config.TELEPHONY_BASE_URL).toBe('https://api.twilio.com');
  });
});
