import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { documentedInput } from '../../src/core/documented';
import { createHmac } from 'node:crypto';
import { demoJourneySteps } from '../../src/cli/demo';
import { branchTarget } from '../../src/journeys/conditions';
import { parseIsoDuration } from '../../src/schedule/duration';
import { JourneyDefinitionError, JourneySteps, parseJourneySteps, type StepOf } from '../../src/journeys/schema';
import type { TimeWindow } from '../../src/schedule/window-schema';
import { renderTemplate, signWebhook, webhookEventId } from '../../src/webhooks/webhook';
import { msUntilWindow } from '../../src/schedule/window';

/** The issues parseJourneySteps reports for input (fails the test when it validates). */
function issues(input: unknown): string[] {
  try {
    parseJourneySteps(input);
  } catch (err) {
    if (err instanceof JourneyDefinitionError) return err.issues;
    throw err;
  }
  throw new Error('expected the journey to be rejected');
}

describe('journey schema', () => {
  it('accepts the demo journey (tag → wait → tag → end)', () => {
    const steps = parseJourneySteps(demoJourneySteps);
    expect(steps.map((s) => s.kind)).toEqual(['tag', 'wait', 'tag', 'end']);
  });

  it('accepts every step kind', () => {
    const steps = parseJourneySteps([
      { id: 'w1', kind: 'wait', duration: 'PT10M' },
      { id: 'w2', kind: 'wait', until: { days: ['mon', 'fri'], start: '09:00', end: '17:00' } },
      { id: 't', kind: 'tag', tag: 'High_Priority' },
      { id: 'u', kind: 'untag', tag: 'cold' },
      { id: 'f', kind: 'update_lead', fields: { company: 'Acme', plan: null } },
      { id: 'h', kind: 'webhook', url: 'https://example.com/hook', payload: { who: '{{lead.first_name}}' } },
      { id: 'c', kind: 'call', agent_id: '6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11' },
      { id: 'a', kind: 'automation', automationType: 'slack', action: 'post_message', params: { text: 'hi' } },
      { id: 'x', kind: 'trigger', name: 'Hand off to CRM' },
      {
        id: 'b',
        kind: 'branch',
        cases: [
          { when: { has_tag: 'vip' }, goto: 'g' },
          { when: { outcome: ['failed', 'skipped'] }, goto: 'e' },
        ],
        else: 'g',
      },
      { id: 'g', kind: 'goto', target: 'e' },
      { id: 'e', kind: 'end' },
    ]);
    expect(steps).toHaveLength(12);
  });

  it('reads a trigger step: a name at most, optional', () => {
    expect(parseJourneySteps([{ id: 'x', kind: 'trigger' }])).toEqual([{ id: 'x', kind: 'trigger' }]);
    expect(
      issues([
        { id: 'a', kind: 'trigger', name: '' },
        { id: 'b', kind: 'trigger', url: 'https://example.com' },
        { id: 'c', kind: 'trigger', name: 'x'.repeat(201) },
      ]),
    ).toEqual([
      expect.stringMatching(/^steps\[0\] \(a\)\.name: /),
      expect.stringMatching(/^steps\[1\] \(b\): .*url/),
      expect.stringMatching(/^steps\[2\] \(c\)\.name: /),
    ]);
  });

  it('reads a call step: agent, window, retries and retry_on (agent_id, its older name, still reads)', () => {
    const agent = '6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11';
    const [full, old] = parseJourneySteps([
      {
        id: 'c',
        kind: 'call',
        agent,
        window: { start: '09:00', end: '17:00' },
        retries: { attempts: 2, spacing: 'PT1H' },
        retry_on: ['no_answer', 'voicemail'],
      },
      { id: 'o', kind: 'call', agent_id: agent },
      {
        id: 'b',
        kind: 'branch',
        cases: [
          { when: { outcome: ['human', 'transferred'] }, goto: 'e' },
          { when: { outcome: 'no_answer' }, goto: 'e' },
        ],
        else: 'e',
      },
      { id: 'e', kind: 'end' },
    ]) as [StepOf<'call'>, StepOf<'call'>];
    expect(full).toMatchObject({
      agent,
      window: { start: '09:00', end: '17:00' },
      retries: { attempts: 2, spacing: 'PT1H' },
      retry_on: ['no_answer', 'voicemail'],
    });
    expect(old.agent_id).toBe(agent);
    expect(
      issues([
        { id: 'a', kind: 'call' },
        { id: 'b', kind: 'call', agent, agent_id: agent },
        { id: 'c', kind: 'call', agent, retries: { attempts: 0, spacing: 'PT1M' } },
        { id: 'd', kind: 'call', agent, retries: { attempts: 1, spacing: 'soon' } },
        { id: 'f', kind: 'call', agent, retry_on: ['no_answer'] },
        { id: 'g', kind: 'call', agent, retries: { attempts: 1, spacing: 'PT1M' }, retry_on: ['maybe'] },
        { id: 'h', kind: 'call', agent, window: { start: '18:00', end: '09:00' } },
        { id: 'i', kind: 'branch', cases: [{ when: { outcome: 'rang' }, goto: 'a' }], else: 'a' },
      ]),
    ).toEqual([
      'steps[0] (a).agent: a call needs agent (the agent UUID)',
      'steps[1] (b).agent: a call needs agent (the agent UUID)',
      'steps[2] (c).retries.attempts: Too small: expected number to be >=1',
      'steps[3] (d).retries.spacing: an ISO-8601 duration such as PT10M, PT1S or P2D (no years or months)',
      'steps[4] (f).retry_on: retry_on needs retries',
      expect.stringMatching(/^steps\[5\] \(g\)\.retry_on\.0: Invalid option/),
      'steps[6] (h).window.end: start must be before end',
      expect.stringMatching(/^steps\[7\] \(i\)\.cases\.0\.when: /),
    ]);
  });

  it('names each shape problem with its step', () => {
    expect(
      issues([
        { id: 'a', kind: 'nope' },
        { id: 'b', kind: 'wait' },
        { id: 'c', kind: 'wait', duration: 'P1M' },
        { kind: 'tag', tag: 'two words' },
        { id: 'w', kind: 'webhook', url: 'ftp://example.com' },
        { id: 'x', kind: 'tag', tag: 't', colour: 'red' },
      ]),
    ).toEqual([
      'steps[0] (a).kind: must be one of wait, tag, untag, update_lead, webhook, branch, goto, end, call, automation, trigger',
      'steps[1] (b): a wait needs exactly one of duration and until',
      'steps[2] (c).duration: an ISO-8601 duration such as PT10M, PT1S or P2D (no years or months)',
      'steps[3].id: required',
      'steps[3].tag: letters, digits and underscores only, 1–64 characters',
      'steps[4] (w).url: an http(s) URL',
      'steps[5] (x): Unrecognized key: "colour"',
    ]);
  });

  it('rejects an empty journey and a non-list', () => {
    expect(issues([])).toEqual(['steps: a journey needs at least one step']);
    expect(issues({ steps: [] })[0]).toMatch(/^steps: .*expected array/);
  });

  it('rejects duplicate ids and unknown step ids referenced', () => {
    expect(
      issues([
        { id: 'a', kind: 'branch', cases: [{ when: { lacks_tag: 'x' }, goto: 'ghost' }], else: 'b' },
        { id: 'b', kind: 'goto', target: 'nowhere' },
        { id: 'b', kind: 'end' },
      ]),
    ).toEqual(['steps[2] (b): duplicate step id "b" (also steps[1])', 'steps[0] (a): unknown step id "ghost"', 'steps[1] (b): unknown step id "nowhere"']);
  });

  it('rejects unreachable steps', () => {
    expect(
      issues([
        { id: 'a', kind: 'tag', tag: 'x' },
        { id: 'stop', kind: 'end' },
        { id: 'orphan', kind: 'tag', tag: 'y' },
      ]),
    ).toEqual(['steps[2] (orphan): unreachable from the first step']);
  });

  it('rejects a loop without a wait, and accepts it with one', () => {
    const loop = [
      { id: 'a', kind: 'tag', tag: 'x' },
      { id: 'b', kind: 'branch', cases: [{ when: { has_tag: 'done' }, goto: 'z' }], else: 'a' },
      { id: 'z', kind: 'end' },
    ];
    expect(issues(loop)).toEqual(['loop without a wait: a → b → a (add a wait step inside the loop)']);
    expect(issues([{ id: 'self', kind: 'goto', target: 'self' }])).toEqual(['loop without a wait: self → self (add a wait step inside the loop)']);
    expect(parseJourneySteps([{ id: 'w', kind: 'wait', duration: 'P1D' }, ...loop.map((s) => (s.id === 'b' ? { ...s, else: 'w' } : s))])).toHaveLength(4);
  });

  it('checks windows: weekdays, HH:MM, start before end', () => {
    expect(issues([{ id: 'w', kind: 'wait', until: { days: [], start: '9:00', end: '08:00' } }])).toEqual([
      'steps[0] (w).until.days: Too small: expected array to have >=1 items',
      'steps[0] (w).until.start: a time of day as HH:MM (24-hour)',
    ]);
    expect(issues([{ id: 'w', kind: 'wait', until: { days: ['monday'], start: '18:00', end: '08:00' } }])[0]).toMatch(/until\.days\.0/);
    expect(issues([{ id: 'w', kind: 'wait', until: { days: ['mon'], start: '18:00', end: '08:00' } }])).toEqual([
      'steps[0] (w).until.end: start must be before end',
    ]);
  });
});

describe('ISO-8601 durations', () => {
  it.each([
    ['PT10M', 600_000],
    ['P2D', 172_800_000],
    ['PT1S', 1000],
    ['PT0.5S', 500],
    ['P1W', 604_800_000],
    ['P1DT2H3M4S', 93_784_000],
  ])('%s = %d ms', (text, ms) => expect(parseIsoDuration(text)).toBe(ms));

  it.each(['', 'P', 'PT', 'P1M', 'P1Y', '10M', 'PT-1S', 'pt1s', 'PT1.2345S'])('rejects %j', (text) => expect(parseIsoDuration(text)).toBeUndefined());
});

describe('wait windows', () => {
  const weekdays = { days: ['mon', 'tue', 'wed', 'thu', 'fri'] as const, start: '09:00', end: '17:00' };
  const w = { ...weekdays, days: [...weekdays.days] };
  it.each([
    ['open now (Fri 10:00 New York)', '2024-03-15T14:00:00Z', 'America/New_York', '2024-03-15T14:00:00.000Z'],
    ['after hours on Friday → Monday 09:00', '2024-03-15T22:30:00Z', 'America/New_York', '2024-03-18T13:00:00.000Z'],
    ['Saturday → Monday 09:00', '2024-03-16T12:00:00Z', 'America/New_York', '2024-03-18T13:00:00.000Z'],
    ['across the DST change (Sun 10 Mar 2024)', '2024-03-10T06:00:00Z', 'America/New_York', '2024-03-11T13:00:00.000Z'],
    ['before opening, same day', '2024-03-11T12:59:00Z', 'America/New_York', '2024-03-11T13:00:00.000Z'],
    ['another zone (Tokyo Mon 08:00)', '2024-03-10T23:00:00Z', 'Asia/Tokyo', '2024-03-11T00:00:00.000Z'],
    ['closing time counts as closed', '2024-03-15T21:00:00Z', 'America/New_York', '2024-03-18T13:00:00.000Z'],
  ])('%s', (_name, now, tz, opens) => {
    const at = Date.parse(now);
    expect(new Date(at + msUntilWindow(at, w, tz)).toISOString()).toBe(opens);
  });
});

describe('wait windows that start in a DST gap or fold', () => {
  it.each([
    [
      '02:30 skipped in New York (Sun 9 Mar 2031) → 03:00 EDT, the first time the clock reads inside the window',
      '2031-03-08T17:00:00Z',
      { days: ['sun'], start: '02:30', end: '04:00' },
      'America/New_York',
      '2031-03-09T07:00:00.000Z',
    ],
    [
      '02:15 skipped by the half-hour change on Lord Howe (Sun 6 Oct 2030) → 02:30, when the clock jumps into the window',
      '2030-10-05T00:00:00Z',
      { days: ['sun'], start: '02:15', end: '04:00' },
      'Australia/Lord_Howe',
      '2030-10-05T15:30:00.000Z',
    ],
    [
      '01:30 twice in New York (Sun 2 Nov 2031) → the first one',
      '2031-11-01T16:00:00Z',
      { days: ['sun'], start: '01:30', end: '01:45' },
      'America/New_York',
      '2031-11-02T05:30:00.000Z',
    ],
  ])('%s', (_name, now, w, tz, opens) => {
    const at = Date.parse(now);
    expect(new Date(at + msUntilWindow(at, w as TimeWindow, tz)).toISOString()).toBe(opens);
  });
});

describe('branch conditions', () => {
  const step: StepOf<'branch'> = {
    id: 'b',
    kind: 'branch',
    cases: [
      { when: { has_tag: 'vip' }, goto: 'vip' },
      { when: { field: 'company', equals: 'Acme' }, goto: 'acme' },
      { when: { field: 'email', exists: false }, goto: 'no_email' },
      { when: { outcome: 'failed' }, goto: 'retry' },
    ],
    else: 'other',
  };
  const facts = (o: Partial<{ tags: string[]; fields: Record<string, unknown>; lastOutcome: string }>) => ({
    tags: [],
    fields: { email: 'a@example.com' },
    lastOutcome: 'done',
    ...o,
  });
  it('takes the first case that holds, else the else', () => {
    expect(branchTarget(step, facts({ tags: ['vip'], fields: { company: 'Acme' } }))).toBe('vip');
    expect(branchTarget(step, facts({ fields: { company: 'Acme', email: 'x@example.com' } }))).toBe('acme');
    expect(branchTarget(step, facts({ fields: { email: '' } }))).toBe('no_email');
    expect(branchTarget(step, facts({ lastOutcome: 'failed' }))).toBe('retry');
    expect(branchTarget(step, facts({}))).toBe('other');
  });
});

describe('webhook helpers', () => {
  it("signs like Stripe: t=<unix>,v1=HMAC-SHA256(secret, '<t>.<body>')", () => {
    const expected = createHmac('sha256', 'whsec_x').update('1700000000.{"a":1}').digest('hex');
    expect(signWebhook(['whsec_x'], 1_700_000_000, '{"a":1}')).toBe(`t=1700000000,v1=${expected}`);
  });

  it('signs with every valid secret during a rotation: the new one first, then the previous one', () => {
    const v1 = (secret: string) => createHmac('sha256', secret).update('1700000000.{"a":1}').digest('hex');
    expect(signWebhook(['whsec_new', 'whsec_old'], 1_700_000_000, '{"a":1}')).toBe(`t=1700000000,v1=${v1('whsec_new')},v1=${v1('whsec_old')}`);
  });

  it('gives one event id per enrollment, step and step run', () => {
    const id = webhookEventId('e1', 'hook', 3);
    expect(id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(webhookEventId('e1', 'hook', 3)).toBe(id);
    expect(new Set([id, webhookEventId('e2', 'hook', 3), webhookEventId('e1', 'hook2', 3), webhookEventId('e1', 'hook', 4)]).size).toBe(4);
  });

  it('renders templates: whole placeholders keep their type, embedded ones become text', () => {
    const vars = { lead: { first_name: 'Ada', tags: ['a', 'b'], custom_fields: { plan: 'pro' } }, lead_id: 'L1' };
    expect(
      renderTemplate(
        {
          text: 'Hi {{lead.first_name}} ({{ lead_id }}), {{lead.missing}}!',
          tags: '{{lead.tags}}',
          plan: '{{lead.custom_fields.plan}}',
          n: 1,
          list: ['{{lead_id}}'],
        },
        vars,
      ),
    ).toEqual({ text: 'Hi Ada (L1), !', tags: ['a', 'b'], plan: 'pro', n: 1, list: ['L1'] });
  });
});

describe("the journey steps' JSON Schema states every rule JSON Schema can express", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validSchema = ajv.compile(documentedInput(JourneySteps));
  const agent = '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47';
  const window = { days: ['mon'], start: '09:00', end: '17:00' };
  const agrees = (step: Record<string, unknown>) => {
    const steps = [step, { id: 'z', kind: 'end' }];
    let parsed = true;
    try {
      parseJourneySteps(steps);
    } catch {
      parsed = false;
    }
    return { schema: validSchema(steps), parsed };
  };

  it.each([
    ['a wait with duration', { id: 'w', kind: 'wait', duration: 'PT1M' }, true],
    ['a wait with until', { id: 'w', kind: 'wait', until: window }, true],
    ['a wait with both', { id: 'w', kind: 'wait', duration: 'PT1M', until: window }, false],
    ['a wait with neither', { id: 'w', kind: 'wait' }, false],
    ['a zero duration', { id: 'w', kind: 'wait', duration: 'PT0S' }, false],
    ['a duration in months', { id: 'w', kind: 'wait', duration: 'P1M' }, false],
    ['a call with agent', { id: 'c', kind: 'call', agent }, true],
    ['a call with agent and agent_id', { id: 'c', kind: 'call', agent, agent_id: agent }, false],
    ['a call without an agent', { id: 'c', kind: 'call' }, false],
    ['retry_on without retries', { id: 'c', kind: 'call', agent, retry_on: ['busy'] }, false],
    ['retry_on with retries', { id: 'c', kind: 'call', agent, retries: { attempts: 2, spacing: 'PT1H' }, retry_on: ['busy'] }, true],
    ['update_lead without fields', { id: 'u', kind: 'update_lead', fields: {} }, false],
    ['update_lead setting phone', { id: 'u', kind: 'update_lead', fields: { phone: '1' } }, false],
    ['update_lead setting company', { id: 'u', kind: 'update_lead', fields: { company: 'Acme' } }, true],
  ])('%s: the schema and the import agree', (_name, step, valid) => {
    expect(agrees(step)).toEqual({ schema: valid, parsed: valid });
  });

  it('a duration matches the documented pattern exactly when the import takes it', () => {
    const wait = (duration: string) => agrees({ id: 'w', kind: 'wait', duration });
    const part = fc.oneof(fc.constantFrom('', '0', '1', '00', '12', '0.5', '1.250', '0.000', '1.2345'), fc.nat(99).map(String));
    const duration = fc
      .tuple(
        fc.constantFrom('P', 'p', ''),
        part,
        fc.constantFrom('W', 'D', 'Y', 'M', ''),
        fc.constantFrom('T', ''),
        part,
        fc.constantFrom('H', 'M', 'S', ''),
        part,
        fc.constantFrom('S', 'M', ''),
      )
      .map((t) => t.join(''));
    fc.assert(
      fc.property(duration, (d) => {
        const { schema, parsed } = wait(d);
        return schema === parsed;
      }),
      { numRuns: 2000 },
    );
  });
});
