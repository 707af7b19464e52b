import { z } from 'zod';
import { defineAction, type VendorMethod } from '../define';

const input = z
  .object({
    apiMethod: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'),
    apiURL: z.url({ protocol: /^https?$/ }),
    authenticationSelect: z.enum(['none', 'bearer', 'basic', 'apiKey']).default('none'),
    bearerToken: z.string().min(1).optional(),
    basicUsername: z.string().optional(),
    basicPassword: z.string().optional(),
    apiKeyHeader: z
      .string()
      .regex(/^[A-Za-z0-9-]+$/)
      .optional(),
    apiKey: z.string().min(1).optional(),
    contentType: z
      .string()
      .regex(/^[\w.+-]+\/[\w.+-]+(;.*)?$/)
      .default('application/json'),
    responseType: z.enum(['json', 'text']).default('json'),
    enableHeaders: z.boolean().default(false),
    headers: z.array(z.object({ name: z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/), value: z.string() }).strict()).default([]),
    requestBody: z.string().optional(),
    requestBodyJson: z.unknown().optional(),
    timeoutMs: z.number().int().min(100).max(60_000).default(15_000),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.authenticationSelect === 'bearer' && !p.bearerToken)
      ctx.addIssue({ code: 'custom', path: ['bearerToken'], message: 'required when authenticationSelect is bearer' });
    if (p.authenticationSelect === 'basic' && p.basicUsername === undefined)
      ctx.addIssue({ code: 'custom', path: ['basicUsername'], message: 'required when authenticationSelect is basic' });
    if (p.authenticationSelect === 'apiKey' && (!p.apiKeyHeader || !p.apiKey))
      ctx.addIssue({ code: 'custom', path: ['apiKey'], message: 'apiKeyHeader and apiKey are required when authenticationSelect is apiKey' });
    if (p.requestBody !== undefined && p.requestBodyJson !== undefined)
      ctx.addIssue({ code: 'custom', path: ['requestBody'], message: 'give requestBody or requestBodyJson, not both' });
  });

const output = z.object({ status: z.number(), headers: z.record(z.string(), z.string()), body: z.unknown() });

/** A generic HTTP request to a user-supplied URL (through the SSRF guard), with the live platform's params. */
export default defineAction({
  key: 'request',
  title: 'HTTP request',
  description: 'Sends one HTTP request to any public URL and returns its status, headers and body.',
  input,
  output,
  idempotent: false,
  // HTTP's own rule (RFC 9110 §9.2.2): GET, PUT and DELETE have the effect of one request however often they are sent.
  idempotentFor: { inputs: 'GET, PUT, DELETE', test: (p) => ['GET', 'PUT', 'DELETE'].includes(p.apiMethod) },
  docs: 'https://developer.mozilla.org/en-US/docs/Web/HTTP/Methods',
  async run(p, { http }) {
    const headers: Record<string, string> = {};
    if (p.enableHeaders) for (const h of p.headers) headers[h.name.toLowerCase()] = h.value;
    if (p.authenticationSelect === 'bearer') headers.authorization = `Bearer ${p.bearerToken}`;
    if (p.authenticationSelect === 'basic') headers.authorization = `Basic ${Buffer.from(`${p.basicUsername}:${p.basicPassword ?? ''}`).toString('base64')}`;
    if (p.authenticationSelect === 'apiKey') headers[p.apiKeyHeader!.toLowerCase()] = p.apiKey!;
    headers.accept = p.responseType === 'json' ? 'application/json' : '*/*';
    let body: string | undefined;
    if (p.apiMethod !== 'GET') {
      body = p.requestBodyJson !== undefined ? JSON.stringify(p.requestBodyJson) : p.requestBody;
      if (body !== undefined) headers['content-type'] = p.contentType;
    }
    const res = await http.request({ method: p.apiMethod as VendorMethod, url: p.apiURL, headers, body, timeoutMs: p.timeoutMs });
    let data = res.body;
    if (p.responseType === 'json' && typeof data === 'string' && data !== '') {
      try {
        data = JSON.parse(data);
      } catch {
        // Not JSON despite responseType json: returned as text.
      }
    }
    return { status: res.status, headers: res.headers, body: data };
  },
});
