import { z } from 'zod';
import { defineAction } from '../define';
import { envelope, envelopeFields, sent, sentOutput } from './email';

const input = z
  .object({
    ...envelope,
    templateId: z.number().int().positive().optional().describe('Template id'),
    templateAlias: z.string().min(1).max(255).optional().describe('Template alias (instead of templateId)'),
    model: z.record(z.string(), z.unknown()).default({}).describe("Values for the template's variables"),
  })
  .strict()
  .refine((p) => (p.templateId === undefined) !== (p.templateAlias === undefined), {
    message: 'give exactly one of templateId and templateAlias',
    path: ['templateId'],
  });

/** Sends an email from a stored template (POST /email/withTemplate). */
export default defineAction({
  key: 'send_template',
  title: 'Send a template email',
  input,
  output: sentOutput,
  idempotent: false,
  docs: 'https://postmarkapp.com/developer/api/templates-api#email-with-template',
  async run(p, { http }) {
    const res = await http.request<{ MessageID: string; SubmittedAt: string; To: string }>({
      method: 'POST',
      path: '/email/withTemplate',
      json: {
        ...envelopeFields(p),
        ...(p.templateId !== undefined ? { TemplateId: p.templateId } : { TemplateAlias: p.templateAlias }),
        TemplateModel: p.model,
      },
    });
    return sent(res.body);
  },
});
