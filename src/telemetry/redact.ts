import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

// Attributes that hold a URL or its parts: the query string (where phones and emails travel) is never kept.
const URL_KEYS = new Set(['url.full', 'http.url', 'http.target', 'url.original']);
const DROPPED_KEYS = new Set(['url.query', 'db.statement.parameters', 'db.query.parameters', 'http.request.body', 'http.response.body']);
const EMAIL = /[^\s@/?&=:"']+@[^\s@/?&=:"']+\.[^\s@/?&=:"']+/g;
// A run of digits with phone punctuation, not inside a longer token; an IPv4 address or a date (Twilio's API version
// in its paths) is left alone.
const PHONE = /(?<![\w-])\+?\d[\d\s().-]{5,}\d(?![\w-])/g;
// What any PHONE match contains: a test without PHONE's look-behind at every position.
const PHONE_LIKE = /\d[\d\s().-]{5,}\d/;
const NOT_A_PHONE = /^(\d{1,3}(\.\d{1,3}){3}|\d{4}-\d{2}-\d{2})$/;

/** value with anything shaped like an email or a phone number replaced by [redacted]. */
export function scrubText(value: string): string {
  // Most values (routes, statements, methods) hold no @ and no run of digits: the cheap tests spare them the scans
  // (EMAIL's backtracks over every token of a statement's text).
  const noEmail = value.includes('@') ? value.replace(EMAIL, '[redacted]') : value;
  return PHONE_LIKE.test(noEmail) ? noEmail.replace(PHONE, (m) => (NOT_A_PHONE.test(m) ? m : '[redacted]')) : noEmail;
}

/** A URL without its query string and fragment, the rest scrubbed. */
export function scrubUrl(value: string): string {
  return scrubText(value.replace(/[?#].*$/s, ''));
}

type Attributes = Record<string, unknown>;

function scrubAttributes(attributes: Attributes): void {
  for (const key in attributes) {
    const value = attributes[key];
    if (DROPPED_KEYS.has(key)) delete attributes[key];
    else if (typeof value === 'string') attributes[key] = URL_KEYS.has(key) ? scrubUrl(value) : scrubText(value);
    else if (Array.isArray(value)) attributes[key] = value.map((v: unknown) => (typeof v === 'string' ? scrubText(v) : v));
  }
}

/** Removes personal data from a finished span in place: its name, attributes and events' attributes. */
export function scrubSpan(span: ReadableSpan): void {
  (span as { name: string }).name = scrubText(span.name);
  scrubAttributes(span.attributes as Attributes);
  for (const event of span.events) if (event.attributes) scrubAttributes(event.attributes as Attributes);
}

/**
 * Wraps the exporting processor: every span (the process's own and the workflows' from the sink) is scrubbed before
 * it is queued, whatever instrumentation made it.
 */
export class RedactingSpanProcessor implements SpanProcessor {
  constructor(private readonly inner: SpanProcessor) {}
  onStart(span: Span, parent: Context): void {
    this.inner.onStart(span, parent);
  }
  onEnd(span: ReadableSpan): void {
    scrubSpan(span);
    this.inner.onEnd(span);
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}
