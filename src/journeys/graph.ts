/**
 * What the graph rules read of a step: its id, its kind, and the targets a goto or branch names. schema.ts's JourneyStep
 * fits it; the step kinds are declared there only (this file and schema.ts, which runs these rules, import nothing of
 * each other).
 */
export interface GraphStep {
  id: string;
  kind: string;
  /** A goto's target. */
  target?: string;
  /** A branch's cases and else. */
  cases?: { goto: string }[];
  else?: string;
}

/** Step ids a step names explicitly (goto and branch targets). */
function namedTargets(step: GraphStep): string[] {
  if (step.kind === 'goto') return [step.target!];
  if (step.kind === 'branch') return [...step.cases!.map((c) => c.goto), step.else!];
  return [];
}

/** Indexes of the steps that can follow steps[i]; falling off the end of the list ends the journey. */
function successors(steps: GraphStep[], i: number, indexOf: Map<string, number>): number[] {
  const step = steps[i]!;
  if (step.kind === 'end') return [];
  if (step.kind === 'goto' || step.kind === 'branch') return namedTargets(step).map((id) => indexOf.get(id)!);
  return i + 1 < steps.length ? [i + 1] : [];
}

const label = (steps: GraphStep[], i: number) => `steps[${i}] (${steps[i]!.id})`;

/** Graph problems of shape-valid steps: duplicate ids, unknown targets, unreachable steps, loops without a wait. */
export function graphProblems(steps: GraphStep[]): string[] {
  const problems: string[] = [];
  const indexOf = new Map<string, number>();
  steps.forEach((s, i) => {
    const first = indexOf.get(s.id);
    if (first === undefined) indexOf.set(s.id, i);
    else problems.push(`${label(steps, i)}: duplicate step id "${s.id}" (also steps[${first}])`);
  });
  steps.forEach((s, i) => {
    for (const target of namedTargets(s)) {
      if (!indexOf.has(target)) problems.push(`${label(steps, i)}: unknown step id "${target}"`);
    }
  });
  if (problems.length) return problems;

  const reached = new Set<number>([0]);
  const queue = [0];
  while (queue.length) {
    for (const next of successors(steps, queue.shift()!, indexOf)) {
      if (reached.has(next)) continue;
      reached.add(next);
      queue.push(next);
    }
  }
  steps.forEach((_, i) => {
    if (!reached.has(i)) problems.push(`${label(steps, i)}: unreachable from the first step`);
  });

  const loop = loopWithoutWait(steps, indexOf);
  if (loop) problems.push(`loop without a wait: ${loop.map((i) => steps[i]!.id).join(' → ')} (add a wait step inside the loop)`);
  return problems;
}

/** A cycle that passes through no wait step (it would spin without pause), as a list of indexes, or undefined. */
function loopWithoutWait(steps: GraphStep[], indexOf: Map<string, number>): number[] | undefined {
  const state = new Map<number, 'open' | 'done'>();
  const path: number[] = [];
  const visit = (i: number): number[] | undefined => {
    state.set(i, 'open');
    path.push(i);
    for (const next of successors(steps, i, indexOf)) {
      if (steps[next]!.kind === 'wait') continue;
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(i, 'done');
    return undefined;
  };
  for (let i = 0; i < steps.length; i++) {
    if (steps[i]!.kind === 'wait' || state.has(i)) continue;
    const found = visit(i);
    if (found) return found;
  }
  return undefined;
}
