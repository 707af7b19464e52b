import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const input = z
  .object({
    text: z.string().min(1).max(20_000).describe('Message text (Adaptive Card TextBlock; simple markdown)'),
    title: z.string().min(1).max(255).optional().describe('A bold heading above the text'),
    facts: z
      .array(z.object({ title: z.string().min(1).max(100), value: z.string().min(1).max(1000) }).strict())
      .max(20)
      .optional()
      .describe('Label/value pairs shown as a fact set (caller, outcome…)'),
  })
  .strict();

const output = z.object({ accepted: z.literal(true) });

/**
 * Posts an Adaptive Card to the connection's Teams Workflows webhook (the "When a Teams webhook request is received"
 * trigger): no OAuth needed. Workflows accept Adaptive Cards only, not the retired connector message cards.
 */
export default defineAction({
  key: 'post_webhook',
  title: 'Post to a channel webhook',
  input,
  output,
  idempotent: false,
  docs: 'https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/connectors-using',
  async run(p, { http, connection }) {
    const url = connection.secrets.webhook_url;
    if (!url || !/^https?:\/\//.test(url))
      throw new VendorError('vendor_auth_failed', 'the microsoft_teams connection has no webhook_url; reconnect the integration', false);
    const body = [
      ...(p.title ? [{ type: 'TextBlock', text: p.title, weight: 'Bolder', size: 'Medium', wrap: true }] : []),
      { type: 'TextBlock', text: p.text, wrap: true },
      ...(p.facts?.length ? [{ type: 'FactSet', facts: p.facts }] : []),
    ];
    const card = { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4', body };
    // An absolute URL: the shared client sends it through the SSRF guard and never attaches the Graph token to it.
    await http.request({
      method: 'POST',
      url,
      json: { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }] },
    });
    return { accepted: true as const };
  },
});
