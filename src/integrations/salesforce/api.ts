import { z } from 'zod';

/** The REST API version every Salesforce path uses. */
export const SF_API = '/services/data/v62.0';

/** Field values by API name (standard `Industry` or custom `Score__c`). */
export const sfFields = z
  .record(z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a field API name'), z.union([z.string(), z.number(), z.boolean(), z.null()]))
  .describe('More fields by API name, custom ones ending in __c');

/** Salesforce's answer to a create or upsert. */
export interface SfSaveResult {
  id: string;
  success: boolean;
  created?: boolean;
}
