/**
 * Workflow interceptors (bundled with every workflow, see worker/workers.ts): the SDK's OpenTelemetry interceptors, but
 * only for a run whose start carried a trace (the `_tracer-data` header a traced client adds). A run started untraced,
 * and every history recorded before tracing existed, runs exactly as without them: the choice reads only the run's
 * history, so replay makes the same one.
 */
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';
import type {
  ActivityInput,
  ContinueAsNewInput,
  DisposeInput,
  LocalActivityInput,
  Next,
  SignalInput,
  SignalWorkflowInput,
  StartChildWorkflowExecutionInput,
  UpdateInput,
  WorkflowExecuteInput,
  WorkflowInboundCallsInterceptor,
  WorkflowInterceptors,
  WorkflowInternalsInterceptor,
  WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';

const TRACE_HEADER = '_tracer-data';

/**
 * Per run: whether its start was traced (set when the run executes, before any outbound call). The SDK's interceptors
 * are made only for a traced run: making one installs a tracer provider and context manager in the workflow context.
 */
class RunTrace {
  traced = false;
  private made?: { inbound: OpenTelemetryInboundInterceptor; outbound: OpenTelemetryOutboundInterceptor; internals: OpenTelemetryInternalsInterceptor };
  get otel() {
    this.made ??= {
      inbound: new OpenTelemetryInboundInterceptor(),
      outbound: new OpenTelemetryOutboundInterceptor(),
      internals: new OpenTelemetryInternalsInterceptor(),
    };
    return this.made;
  }
}

class TracedInbound implements WorkflowInboundCallsInterceptor {
  constructor(private readonly run: RunTrace) {}
  execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    this.run.traced = TRACE_HEADER in input.headers;
    return this.run.traced ? this.run.otel.inbound.execute(input, next) : next(input);
  }
  handleSignal(input: SignalInput, next: Next<WorkflowInboundCallsInterceptor, 'handleSignal'>): Promise<void> {
    return this.run.traced && TRACE_HEADER in input.headers ? this.run.otel.inbound.handleSignal(input, next) : next(input);
  }
  handleUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'handleUpdate'>): Promise<unknown> {
    return this.run.traced && TRACE_HEADER in input.headers ? this.run.otel.inbound.handleUpdate(input, next) : next(input);
  }
}

class TracedOutbound implements WorkflowOutboundCallsInterceptor {
  constructor(private readonly run: RunTrace) {}
  scheduleActivity(input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>): Promise<unknown> {
    return this.run.traced ? this.run.otel.outbound.scheduleActivity(input, next) : next(input);
  }
  scheduleLocalActivity(input: LocalActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>): Promise<unknown> {
    return this.run.traced ? this.run.otel.outbound.scheduleLocalActivity(input, next) : next(input);
  }
  startChildWorkflowExecution(
    input: StartChildWorkflowExecutionInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'startChildWorkflowExecution'>,
  ): Promise<[Promise<string>, Promise<unknown>]> {
    return this.run.traced ? this.run.otel.outbound.startChildWorkflowExecution(input, next) : next(input);
  }
  continueAsNew(input: ContinueAsNewInput, next: Next<WorkflowOutboundCallsInterceptor, 'continueAsNew'>): Promise<never> {
    return this.run.traced ? this.run.otel.outbound.continueAsNew(input, next) : next(input);
  }
  signalWorkflow(input: SignalWorkflowInput, next: Next<WorkflowOutboundCallsInterceptor, 'signalWorkflow'>): Promise<void> {
    return this.run.traced ? this.run.otel.outbound.signalWorkflow(input, next) : next(input);
  }
}

class TracedInternals implements WorkflowInternalsInterceptor {
  constructor(private readonly run: RunTrace) {}
  dispose(input: DisposeInput, next: Next<WorkflowInternalsInterceptor, 'dispose'>): void {
    if (this.run.traced) void this.run.otel.internals.dispose(input, next);
    else next(input);
  }
}

/** The interceptors of one run (the SDK calls this once per run). */
export const interceptors = (): WorkflowInterceptors => {
  const run = new RunTrace();
  return { inbound: [new TracedInbound(run)], outbound: [new TracedOutbound(run)], internals: [new TracedInternals(run)] };
};
