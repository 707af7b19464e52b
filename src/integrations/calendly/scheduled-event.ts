import { z } from 'zod';

/** A scheduled event by its URI (https://api.calendly.com/scheduled_events/<uuid>) or bare uuid. */
export const scheduledEvent = z
  .string()
  .regex(/^(?:https:\/\/api\.calendly\.com\/scheduled_events\/)?[A-Za-z0-9-]{8,64}$/, 'a scheduled event URI or uuid')
  .describe('The scheduled event (its URI from a Calendly webhook, or its uuid)');

/** The uuid of a scheduled event param. */
export const eventUuid = (event: string): string => event.split('/').pop()!;
