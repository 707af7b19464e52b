import { z } from 'zod';
import { defineAction } from '../define';
import { recipient, sendMessage, sendOutput } from './send';

const input = z
  .object({
    to: recipient,
    name: z
      .string()
      .min(1)
      .max(512)
      .regex(/^[a-z0-9_]+$/)
      .describe('Approved template name'),
    language: z.string().min(2).max(15).default('en_US').describe('Template language code (en_US, fr, pt_BR…)'),
    bodyParameters: z.array(z.string().min(1).max(1024)).max(100).optional().describe('Values of the body placeholders {{1}}, {{2}}… in order'),
    components: z
      .array(z.record(z.string(), z.unknown()))
      .max(20)
      .optional()
      .describe('Raw template components (header, body, button parameters) as Meta documents them; used as given'),
  })
  .strict();

/** Sends an approved template message (allowed outside the 24-hour window). */
export default defineAction({
  key: 'send_template',
  title: 'Send a template message',
  input,
  output: sendOutput,
  idempotent: false,
  docs: 'https://developers.facebook.com/docs/whatsapp/cloud-api/guides/send-message-templates',
  run(p, ctx) {
    const components = [
      ...(p.components ?? []),
      ...(p.bodyParameters ? [{ type: 'body', parameters: p.bodyParameters.map((text) => ({ type: 'text', text })) }] : []),
    ];
    return sendMessage(ctx, {
      to: p.to,
      type: 'template',
      template: { name: p.name, language: { policy: 'deterministic', code: p.language }, ...(components.length ? { components } : {}) },
    });
  },
});
