import type { AnsweredBy, CallStatus, MachineDetection } from '../provider';

/** The outcome rule a destination's last four digits select (tools outside the project rely on these exactly). */
export type Rule = 'human_transcript' | 'voicemail' | 'no_answer' | 'busy' | 'one_transfer' | 'two_transfers' | 'silent' | 'human' | 'harness';

const RULES: Record<string, Rule> = {
  '0001': 'human_transcript',
  '0002': 'voicemail',
  '0003': 'no_answer',
  '0004': 'busy',
  '0005': 'one_transfer',
  '0006': 'two_transfers',
  '0007': 'silent',
  // A person answers; the simulator fetches the TwiML (the ledger shows it) and opens no stream: a test plays the callee.
  '0090': 'harness',
};

/** The rule for a destination: by its last four digits, else a person answers and the call completes. */
export const ruleFor = (to: string): Rule => RULES[to.replace(/\D/g, '').slice(-4)] ?? 'human';

/** One scripted callback: at (ms at speed 1) on the call (leg 0) or a transfer leg (1, 2). */
export interface Step {
  at: number;
  leg: number;
  status: CallStatus;
  answeredBy?: AnsweredBy;
  sipResponseCode?: number;
  /** On completed: seconds since the answer. */
  durationSeconds?: number;
  transcript?: string;
  /** On the answer: fetch the call's TwiML from its Url (signed, as Twilio does) into the ledger. */
  fetchTwiml?: boolean;
}

/** The transcript the 0001 rule's conversation produces. */
export const SIMULATED_TRANSCRIPT = [
  'agent: Hi, this is Ava calling from Switchboard. Is now a good time?',
  'user: Sure, go ahead.',
  'agent: Great, I am confirming your appointment for tomorrow at ten.',
  'user: Yes, that works. Thanks.',
  'agent: You are all set. Goodbye!',
].join('\n');

const answered = (amd: MachineDetection, by: AnsweredBy) => (amd === 'off' ? {} : { answeredBy: by });

/** The callbacks a rule plays, in time order; every script ends within 10 s at speed 1 ('silent' has none). */
export function scriptFor(rule: Rule, amd: MachineDetection): Step[] {
  const start: Step[] = [
    { at: 0, leg: 0, status: 'queued' },
    { at: 800, leg: 0, status: 'ringing' },
  ];
  const talk = (answerAt: number, endAt: number, extra: Partial<Step> = {}): Step[] => [
    ...start,
    { at: answerAt, leg: 0, status: 'in-progress', ...answered(amd, 'human') },
    { at: endAt, leg: 0, status: 'completed', sipResponseCode: 200, durationSeconds: Math.round((endAt - answerAt) / 1000), ...extra },
  ];
  const leg = (n: number, at: number, fails: boolean): Step[] => [
    { at, leg: n, status: 'queued' },
    { at: at + 400, leg: n, status: 'ringing' },
    fails ? { at: at + 1400, leg: n, status: 'failed', sipResponseCode: 503 } : { at: at + 1400, leg: n, status: 'in-progress' },
    ...(fails ? [] : [{ at: at + 3400, leg: n, status: 'completed' as const, sipResponseCode: 200, durationSeconds: 2 }]),
  ];
  switch (rule) {
    case 'silent':
      return [];
    case 'harness':
      // In progress until the agent hangs up through the provider or the call is cancelled.
      return [...start, { at: 3000, leg: 0, status: 'in-progress', ...answered(amd, 'human'), fetchTwiml: true }];
    case 'human':
      return talk(3000, 8000);
    case 'human_transcript':
      return talk(3000, 8000, { transcript: SIMULATED_TRANSCRIPT });
    case 'voicemail': {
      const machine: AnsweredBy = amd === 'DetectMessageEnd' ? 'machine_end_beep' : 'machine_start';
      return [
        ...start,
        { at: 4000, leg: 0, status: 'in-progress', ...answered(amd, machine) },
        { at: 9000, leg: 0, status: 'completed', sipResponseCode: 200, durationSeconds: 5 },
      ];
    }
    case 'no_answer':
      return [...start, { at: 9000, leg: 0, status: 'no-answer', sipResponseCode: 480 }];
    case 'busy':
      return [
        { at: 0, leg: 0, status: 'queued' },
        { at: 1500, leg: 0, status: 'busy', sipResponseCode: 486 },
      ];
    case 'one_transfer':
      return sortByTime([...talk(2500, 9200), ...leg(1, 4500, false)]);
    case 'two_transfers':
      return sortByTime([...talk(2000, 9300), ...leg(1, 3000, true), ...leg(2, 5000, false)]);
  }
}

// Stable: steps at the same instant keep their order (a leg completes before its parent).
const sortByTime = (steps: Step[]) =>
  steps
    .map((s, i) => [s, i] as const)
    .sort((a, b) => a[0].at - b[0].at || a[1] - b[1])
    .map(([s]) => s);
