import { TERMINAL_STATUSES } from '../../src/telephony/provider';
import { ruleFor, scriptFor, type Rule } from '../../src/telephony/simulator/rules';

const RULES: Rule[] = ['human_transcript', 'voicemail', 'no_answer', 'busy', 'one_transfer', 'two_transfers', 'silent', 'human'];

describe("the simulator's outcome rules", () => {
  it.each([
    ['+17145550001', 'human_transcript'],
    ['+17145550002', 'voicemail'],
    ['+17145550003', 'no_answer'],
    ['+17145550004', 'busy'],
    ['+17145550005', 'one_transfer'],
    ['+17145550006', 'two_transfers'],
    ['+17145550007', 'silent'],
    ['+17145550090', 'harness'],
    ['+1 (714) 555-0004', 'busy'],
    ['+17145550008', 'human'],
    ['+17145550000', 'human'],
    ['+17145500010', 'human'],
    ['+17145510001', 'human_transcript'],
    ['+447700900005', 'one_transfer'],
  ])('%s plays %s (last four digits, exactly)', (to, rule) => {
    expect(ruleFor(to)).toBe(rule);
  });

  it.each(RULES.flatMap((rule) => (['off', 'Enable', 'DetectMessageEnd'] as const).map((amd) => [rule, amd] as const)))(
    '%s (machine detection %s) ends within 10 s at speed 1, each call and leg in lifecycle order',
    (rule, amd) => {
      const script = scriptFor(rule, amd);
      expect(script.map((s) => s.at)).toEqual([...script.map((s) => s.at)].sort((a, b) => a - b));
      expect(Math.max(0, ...script.map((s) => s.at))).toBeLessThanOrEqual(10_000);
      for (const leg of new Set(script.map((s) => s.leg))) {
        const steps = script.filter((s) => s.leg === leg);
        expect(steps[0]!.status).toBe('queued');
        expect(steps.slice(0, -1).some((s) => TERMINAL_STATUSES.has(s.status))).toBe(false);
        expect(TERMINAL_STATUSES.has(steps.at(-1)!.status)).toBe(true);
        // A leg ends before its parent call does.
        if (leg > 0) expect(steps.at(-1)!.at).toBeLessThanOrEqual(script.filter((s) => s.leg === 0).at(-1)!.at);
      }
      if (amd === 'off') expect(script.some((s) => s.answeredBy)).toBe(false);
    },
  );
});
