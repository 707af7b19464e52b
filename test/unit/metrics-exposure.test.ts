import { metricsExposure } from '../../src/api/main';

describe('start-up says when /metrics is open on the api port', () => {
  it('warns beyond loopback, notes on loopback, and says nothing with METRICS_PORT or METRICS_TOKEN', () => {
    expect(metricsExposure({ HOST: '0.0.0.0', METRICS_PORT: undefined, METRICS_TOKEN: undefined })).toEqual({
      level: 'warn',
      message: expect.stringMatching(
        /without a token on the api's port \(HOST 0\.0\.0\.0\): anyone who reaches the api reads it; set METRICS_PORT .* or METRICS_TOKEN/,
      ),
    });
    expect(metricsExposure({ HOST: '10.0.0.5', METRICS_PORT: undefined, METRICS_TOKEN: undefined })?.level).toBe('warn');
    for (const HOST of ['127.0.0.1', '::1', 'localhost'])
      expect(metricsExposure({ HOST, METRICS_PORT: undefined, METRICS_TOKEN: undefined })).toEqual({
        level: 'info',
        message: expect.stringMatching(/only this machine/),
      });
    expect(metricsExposure({ HOST: '0.0.0.0', METRICS_PORT: 9100, METRICS_TOKEN: undefined })).toBeUndefined();
    expect(metricsExposure({ HOST: '0.0.0.0', METRICS_PORT: undefined, METRICS_TOKEN: 'x'.repeat(16) })).toBeUndefined();
  });
});
