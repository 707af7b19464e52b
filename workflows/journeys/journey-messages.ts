// The journey workflow's input, state, signal and query: shared by the workflow, the api and tests.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { JourneyStep } from '../../src/journeys/schema';
import type { LeadValues } from '../../src/leads/rules';

/** One step done: what it was, how it ended, when (workflow time, ISO-8601). */
export interface StepRecord {
  seq: number;
  step_id: string;
  kind: JourneyStep['kind'];
  outcome: string;
  detail?: string;
  at: string;
}

/** What a run carries into the next after continue-as-new. */
export interface CarriedState {
  enrollmentId: string;
  /** Index of the next step to run. */
  pc: number;
  lastOutcome?: string;
  /** Steps run so far in this enrollment (all runs). */
  seq: number;
  history: StepRecord[];
}

/** Input of journeyEnrollment: ids, the pinned version and its steps (already validated by the api). */
export interface JourneyInput {
  workspaceId: string;
  journeyId: string;
  leadId: string;
  version: number;
  steps: JourneyStep[];
  /** Continue-as-new after this many steps in one run (default 200); the history also asks for it when large. */
  maxStepsPerRun?: number;
  resume?: CarriedState;
  /** A preview run (POST /v1/journeys/{id}/preview, on the preview task queue): absent from every real run's input. */
  preview?: PreviewInput;
}

/** A lead given as a record rather than on file (a preview only): its fields as a lead row would hold them. */
export type PreviewLead = LeadValues;

/** What a preview run starts from: its virtual clock's start (epoch ms) and, for a record, the lead it describes. */
interface PreviewInput {
  at: number;
  lead?: PreviewLead;
}

/** The most steps a preview runs (a journey that loops is shown up to here). */
export const PREVIEW_STEP_LIMIT = 100;

export type EnrollmentStatus = 'active' | 'completed' | 'unenrolled' | 'failed';

/** What the journeyState query answers. */
export interface JourneyState {
  enrollment_id: string;
  journey_id: string;
  version: number;
  status: EnrollmentStatus;
  current_step: string | null;
  last_outcome: string | null;
  /** The most recent steps done (up to HISTORY_TAIL), oldest first. */
  history: StepRecord[];
}

/** How many step records the query (and continue-as-new) keeps. */
export const HISTORY_TAIL = 100;

/** Stops the journey: the current step is cancelled and the enrollment ends as unenrolled. */
export const unenrollSignal = defineSignal<[{ reason?: string }?]>('unenroll');
/**
 * The enrollment request api versions before enrollUpdate sent (kept for their clients and recorded runs). A run
 * that is active ignores it; a run that has already decided to end starts over on the given version instead.
 */
export const enrollSignal = defineSignal<[{ version: number }]>('enroll');
/**
 * Enrollment request: the api sends it (update-with-start) only when a lead already has an open run. Its validator
 * rejects it while the run is active, so a duplicate writes nothing to the run's history; a run that has already
 * decided to end accepts it and starts over on the given version (an enrollment racing the end is not lost).
 */
export const enrollUpdate = defineUpdate<'restarting', [{ version: number }]>('enroll');
/** Stops the journey like the signal, and answers once the enrollment is recorded as ended (its final state). */
export const unenrollUpdate = defineUpdate<JourneyState, [{ reason?: string }]>('unenroll');
/** Failure types the validators reject with: the run is active (an enroll is already satisfied) / no longer active. */
export const ALREADY_ACTIVE = 'already_active';
export const NOT_ACTIVE = 'not_active';
/** The current step and the steps done. */
export const journeyStateQuery = defineQuery<JourneyState>('journeyState');
