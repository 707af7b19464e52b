import { createDb } from '../../src/db/pool';
import { createWorkspace } from '../../src/workspaces/db/workspaces';
import { testEnv } from '../helpers/env';
import { uniquePhone } from '../helpers/phones';
import { runCli } from '../helpers/processes';

jest.setTimeout(120_000);
const env = () => ({ PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: testEnv('databaseUrl'), LOG_LEVEL: 'warn' });
const cli = async (...args: string[]) => {
  const res = await runCli(args, env());
  return { ...res, json: res.code === 0 && res.stdout.trim() ? JSON.parse(res.stdout) : undefined };
};

describe("CLI: agent update, phone-number add and assign (the api's rules)", () => {
  const db = createDb(testEnv('databaseUrl'), { max: 1 });
  afterAll(() => db.close());

  it('adds, moves and detaches numbers and updates agents, refusing what the api refuses', async () => {
    const ws = (await createWorkspace(db, { name: 'cli agents' })).id;
    const other = (await createWorkspace(db, { name: 'cli agents other' })).id;
    const [n1, n2, theirs] = [uniquePhone(), uniquePhone(), uniquePhone()];
    const agent = await cli('agent', 'create', '--workspace', ws, '--name', 'Max', '--call-window', '{"start":"09:00","end":"17:00"}');
    expect(agent.code).toBe(0);
    const agentId = agent.json.agent_id as string;

    const added = await cli('phone-number', 'add', '--workspace', ws, '--number', `+${n1}`, '--agent', agentId);
    expect(added.json).toEqual({ phone_number_id: expect.any(String), number: n1, agent_id: agentId, phone_group_id: expect.any(String) });
    const loose = await cli('phone-number', 'add', '--workspace', ws, '--number', n2);
    expect(loose.json).toMatchObject({ number: n2, agent_id: null, phone_group_id: null });
    expect((await cli('phone-number', 'add', '--workspace', other, '--number', theirs)).code).toBe(0);

    const taken = await cli('phone-number', 'add', '--workspace', ws, '--number', theirs);
    expect([taken.code, taken.stderr]).toEqual([1, 'error: Phone number belongs to another workspace\n']);
    const bad = await cli('phone-number', 'add', '--workspace', ws, '--number', '12');
    expect([bad.code, bad.stderr]).toEqual([1, 'error: --number: 12 is not a valid phone number\n']);

    const assigned = await cli('phone-number', 'assign', '--workspace', ws, n2, '--agent', agentId);
    expect(assigned.json).toMatchObject({ number: n2, agent_id: agentId });
    const detached = await cli('phone-number', 'assign', '--workspace', ws, added.json.phone_number_id, '--agent', 'none');
    expect(detached.json).toMatchObject({ number: n1, agent_id: null, phone_group_id: null });

    const updated = await cli(
      'agent',
      'update',
      '--workspace',
      ws,
      '--agent',
      agentId,
      '--name',
      'Maxine',
      '--transfer-number',
      '(714) 555-1234',
      '--call-window',
      'none',
      '--numbers',
      `${n1},${n2}`,
    );
    expect(updated.json).toEqual({
      agent_id: agentId,
      name: 'Maxine',
      profile_picture: null,
      transfer_number: '17145551234',
      call_window: null,
      phone_group_id: expect.any(String),
      numbers: expect.arrayContaining([n1, n2]),
    });
    const badWindow = await cli('agent', 'update', '--workspace', ws, '--agent', agentId, '--call-window', '{"start":"18:00","end":"09:00"}');
    expect([badWindow.code, badWindow.stderr]).toEqual([1, 'error: --call-window.end: start must be before end\n']);
    const foreign = await cli('agent', 'update', '--workspace', other, '--agent', agentId, '--name', 'Stolen');
    expect([foreign.code, foreign.stderr]).toEqual([1, 'error: Agent not found\n']);
    const [row] = await db.query<{ name: string }>('SELECT name FROM agents WHERE id = $1', [agentId]);
    expect(row!.name).toBe('Maxine');
  });
});
