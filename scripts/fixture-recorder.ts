// What every replay-fixture recorder shares: its command line (--tag, --only), the refusal to overwrite a recorded
// history (old histories must keep replaying, so a new recording gets a new name), and the file format the replay
// tests read ({workflowId, history} with protobufjs' own object form).
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { decodeHistory } from '../src/temporal/codec';
import { repoRoot } from '../test/helpers/env';

export interface RecordingPlan {
  /** The paths to record, in order. */
  names: string[];
  /** test/fixtures/<kind>-history-<name>[-<tag>].json */
  fileOf(name: string): string;
  /** Fetches the run's history and writes it to the path's file (never over an existing one). */
  save(client: Client, name: string, run: { workflowId: string; runId?: string }): Promise<void>;
  /** Plays every path at once (saying a failed one at once), then saves each run's history. */
  recordAll(client: Client, play: (name: string) => Promise<{ workflowId: string; runId?: string }>): Promise<void>;
}

/** Reads the command line of scripts/record-<kind>-fixtures.ts and checks it; says what is wrong and exits 1. */
export function planRecording(kind: string, known: readonly string[]): RecordingPlan {
  const fail = (message: string): never => {
    process.stderr.write(`record-${kind}-fixtures: ${message}\n`);
    process.exit(1);
  };
  const { values } = parseArgs({ options: { tag: { type: 'string' }, only: { type: 'string' } } });
  const names = values.only ? values.only.split(',').map((s) => s.trim()) : [...known];
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length) fail(`unknown path(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
  if (values.tag !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(values.tag)) fail('--tag takes lowercase letters, digits and dashes');

  const fileOf = (name: string) => path.join(repoRoot, 'test', 'fixtures', `${kind}-history-${name}${values.tag ? `-${values.tag}` : ''}.json`);
  const taken = names.filter((n) => existsSync(fileOf(n)));
  if (taken.length) {
    fail(
      `refusing to overwrite ${taken.map((n) => path.relative(repoRoot, fileOf(n))).join(', ')}: recorded histories must keep replaying. ` +
        'Record under a new name with --tag (e.g. --tag v2), or leave those paths out with --only.',
    );
  }
  const plan: RecordingPlan = {
    names,
    fileOf,
    async save(client, name, run) {
      // Decoded: a fixture must replay on any machine, whatever key encrypted the run's payloads here.
      const codecs = client.options.dataConverter.payloadCodecs ?? [];
      let history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
      for (const codec of [...codecs].reverse()) history = await decodeHistory(history, codec);
      // protobufjs' own object form (longs, enums and bytes as strings) round-trips with History.fromObject.
      const object = temporal.api.history.v1.History.toObject(history as temporal.api.history.v1.History, { longs: String, enums: String, bytes: String });
      writeFileSync(fileOf(name), `${JSON.stringify({ workflowId: run.workflowId, history: object }, null, 1)}\n`, { flag: 'wx' });
      process.stdout.write(`recorded ${path.relative(repoRoot, fileOf(name))} (${history.events?.length} events)\n`);
    },
    async recordAll(client, play) {
      const runs = await Promise.all(
        names.map(async (name) => {
          try {
            return [name, await play(name)] as const;
          } catch (err) {
            // Said now: closing the stack after a failed path may fail too and hide this.
            process.stderr.write(`path ${name} failed: ${(err as Error).stack ?? err}\n`);
            throw err;
          }
        }),
      );
      for (const [name, run] of runs) await plan.save(client, name, run);
    },
  };
  return plan;
}

/** Runs a recorder's main; a failure is printed and exits 1. */
export function runRecorder(main: () => Promise<void>): void {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}
