// Pure (type imports only): the journey workflow evaluates outcome-only branches itself.
import type { BranchCondition, JourneyStep, StepOf } from './schema';

/** What a branch looks at: the lead's tags and fields (standard and custom, flat) and the last step's outcome. */
export interface BranchFacts {
  tags: string[];
  fields: Record<string, unknown>;
  lastOutcome: string | undefined;
}

/** True when the condition holds for these facts. */
function holds(c: BranchCondition, f: BranchFacts): boolean {
  if ('has_tag' in c) return f.tags.includes(c.has_tag);
  if ('lacks_tag' in c) return !f.tags.includes(c.lacks_tag);
  if ('outcome' in c) return f.lastOutcome !== undefined && ([] as string[]).concat(c.outcome).includes(f.lastOutcome);
  const value = f.fields[c.field];
  const present = value !== undefined && value !== null && value !== '';
  if ('exists' in c) return present === c.exists;
  return present && String(value) === c.equals;
}

/** The step id a branch goes to: the first case that holds, else its `else`. */
export function branchTarget(step: StepOf<'branch'>, f: BranchFacts): string {
  return step.cases.find((c) => holds(c.when, f))?.goto ?? step.else;
}

/** True when a branch looks only at the last outcome, so no lead data is needed to decide it. */
export const outcomeOnly = (step: JourneyStep): boolean => step.kind === 'branch' && step.cases.every((c) => 'outcome' in c.when);

const conditionText = (c: BranchCondition): string => {
  if ('has_tag' in c) return `has_tag ${c.has_tag}`;
  if ('lacks_tag' in c) return `lacks_tag ${c.lacks_tag}`;
  if ('outcome' in c) return `outcome ${([] as string[]).concat(c.outcome).join('|')}`;
  return 'exists' in c ? `${c.field} ${c.exists ? 'exists' : 'missing'}` : `${c.field} = ${JSON.stringify(c.equals)}`;
};

/** Why a branch goes where it does (a preview's explanation): the case that held, else none did; and every case's target. */
export function branchReason(step: StepOf<'branch'>, f: BranchFacts): string {
  const taken = step.cases.find((c) => holds(c.when, f));
  const decided = taken ? `${conditionText(taken.when)} held` : 'no case held';
  const value = f.lastOutcome !== undefined && step.cases.some((c) => 'outcome' in c.when) ? ` (last outcome ${f.lastOutcome})` : '';
  const cases = [...step.cases.map((c) => `${conditionText(c.when)} → ${c.goto}`), `else → ${step.else}`].join('; ');
  return `${decided}${value}; cases: ${cases}`;
}
