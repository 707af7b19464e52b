import { z } from 'zod';

/** The API path prefix (version 8). */
export const ZOHO_API = '/crm/v8';

/** Field values by API name, standard or custom (`Lead_Score`, `Call_Summary`). */
export const zohoFields = z
  .record(z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a field API name'), z.unknown())
  .describe('More fields by API name (custom fields included), as Zoho expects their values');

/** Zoho's answer to a write: one row per record. */
export interface ZohoWrite {
  data: Array<{ code: string; status: string; action?: 'insert' | 'update'; details: { id: string } }>;
}

/** Whether Zoho's workflow rules should run on the write (`trigger`). */
export const triggers = z
  .array(z.enum(['workflow', 'approval', 'blueprint', 'pathfinder', 'orchestration']))
  .default(['workflow'])
  .describe('Automation to run on the write');
