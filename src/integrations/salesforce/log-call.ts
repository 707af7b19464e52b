import { z } from 'zod';
import { defineAction } from '../define';
import { SF_API, sfFields, type SfSaveResult } from './api';

const recordId = z.string().regex(/^[A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?$/, 'a Salesforce record id');

const input = z
  .object({
    Subject: z.string().min(1).max(255).describe('Task subject, e.g. "Call with the AI agent"'),
    Description: z.string().max(32_000).optional().describe('Call notes or summary'),
    WhoId: recordId.optional().describe('The Lead or Contact the call was with'),
    WhatId: recordId.optional().describe('A related Account, Opportunity or other record'),
    CallDurationInSeconds: z.number().int().min(0).optional(),
    CallType: z.enum(['Inbound', 'Outbound', 'Internal']).optional(),
    ActivityDate: z.iso.date().optional().describe('YYYY-MM-DD'),
    Status: z.string().max(40).default('Completed'),
    fields: sfFields.optional(),
  })
  .strict();

const output = z.object({ id: z.string() });

/** Logs a call as a completed Task (TaskSubtype Call) on a lead or contact. */
export default defineAction({
  key: 'log_call',
  title: 'Log a call',
  input,
  output,
  idempotent: false,
  docs: 'https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_task.htm',
  async run({ fields, ...named }, { http }) {
    const res = await http.request<SfSaveResult>({ method: 'POST', path: `${SF_API}/sobjects/Task`, json: { ...fields, ...named, TaskSubtype: 'Call' } });
    return { id: res.body.id };
  },
});
