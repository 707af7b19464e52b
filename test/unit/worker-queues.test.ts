import { ConfigError, loadConfig } from '../../src/core/config';
import { workerLimits } from '../../src/temporal/worker-queues';

const config = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env });

describe('WORKER_TASK_QUEUES and per-queue limits', () => {
  it('polls all four queues by default, or the ones named (trimmed, once each)', () => {
    expect(config({}).WORKER_TASK_QUEUES).toEqual(['journeys', 'calls', 'automations', 'chat']);
    expect(config({ WORKER_TASK_QUEUES: ' calls ,chat,calls' }).WORKER_TASK_QUEUES).toEqual(['calls', 'chat']);
  });

  it('refuses unknown queue names and an empty list, naming the setting', () => {
    expect(() => config({ WORKER_TASK_QUEUES: 'journeys,emails' })).toThrow(ConfigError);
    expect(() => config({ WORKER_TASK_QUEUES: 'journeys,emails' })).toThrow(
      /WORKER_TASK_QUEUES: unknown task queue\(s\) emails; known: journeys, calls, automations, chat/,
    );
    expect(() => config({ WORKER_TASK_QUEUES: ' , ' })).toThrow(/WORKER_TASK_QUEUES: name at least one of/);
  });

  it('maps WORKER_<QUEUE>_* to the SDK’s worker options, per queue', () => {
    const c = config({
      WORKER_CHAT_MAX_CONCURRENT_WORKFLOW_TASKS: '40',
      WORKER_CHAT_MAX_CONCURRENT_ACTIVITIES: '20',
      WORKER_JOURNEYS_MAX_CONCURRENT_LOCAL_ACTIVITIES: '5',
    });
    expect(workerLimits(c, 'chat')).toEqual({ maxConcurrentWorkflowTaskExecutions: 40, maxConcurrentActivityTaskExecutions: 20 });
    expect(workerLimits(c, 'journeys')).toEqual({ maxConcurrentLocalActivityExecutions: 5 });
    expect(workerLimits(c, 'calls')).toEqual({});
  });

  it('WORKER_<QUEUE>_MAX_CACHED_WORKFLOWS bounds a queue’s sticky cache (0: none), the memory of sleeping runs', () => {
    const c = config({ WORKER_JOURNEYS_MAX_CACHED_WORKFLOWS: '500', WORKER_CHAT_MAX_CACHED_WORKFLOWS: '0' });
    expect(workerLimits(c, 'journeys')).toEqual({ maxCachedWorkflows: 500 });
    expect(workerLimits(c, 'chat')).toEqual({ maxCachedWorkflows: 0 });
    expect(() => config({ WORKER_JOURNEYS_MAX_CACHED_WORKFLOWS: '-1' })).toThrow(/WORKER_JOURNEYS_MAX_CACHED_WORKFLOWS/);
  });

  it('refuses limits the SDK would not take', () => {
    expect(() => config({ WORKER_CALLS_MAX_CONCURRENT_WORKFLOW_TASKS: '1' })).toThrow(/WORKER_CALLS_MAX_CONCURRENT_WORKFLOW_TASKS/);
    expect(() => config({ WORKER_CALLS_MAX_CONCURRENT_ACTIVITIES: 'lots' })).toThrow(/WORKER_CALLS_MAX_CONCURRENT_ACTIVITIES/);
  });
});
