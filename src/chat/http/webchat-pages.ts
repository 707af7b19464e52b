import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findFlow } from '../db/chat';
import { notFound } from '../../http/api-error';
import { isUuid } from '../../core/ids';
import { packageRoot } from '../../core/paths';
import { defineRoute } from '../../http/route';

const WIDGET = readFileSync(path.join(packageRoot, 'public', 'webchat', 'widget.js'), 'utf8');
const AVATAR = readFileSync(path.join(packageRoot, 'public', 'webchat', 'avatar.svg'), 'utf8');
const FAVICON = readFileSync(path.join(packageRoot, 'public', 'favicon.svg'), 'utf8');

/** A static SVG image, cached for a day. */
const svg = (routePath: string, summary: string, body: string) =>
  defineRoute({
    method: 'get',
    path: routePath,
    tag: 'Web chat',
    summary,
    auth: 'none',
    responses: { 200: { description: 'An SVG image', contentType: 'image/svg+xml' } },
    async handler({ ctx }) {
      ctx.type = 'image/svg+xml';
      ctx.set('Cache-Control', 'public, max-age=86400');
      return body;
    },
  });

/** GET /webchat/avatar.svg: the demo persona's picture, served by the api itself. */
const demoAvatar = svg('/webchat/avatar.svg', "The demo persona's avatar", AVATAR);
/** GET /favicon.ico and /favicon.svg: the api's icon (SVG; browsers ask /favicon.ico by default). */
const faviconIco = svg('/favicon.ico', 'The favicon (SVG)', FAVICON);
const faviconSvg = svg('/favicon.svg', 'The favicon (SVG)', FAVICON);

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** GET /webchat/widget.js: the embeddable chat widget. */
const widgetScript = defineRoute({
  method: 'get',
  path: '/webchat/widget.js',
  tag: 'Web chat',
  summary: 'The embeddable chat widget (JavaScript)',
  description:
    'Embed with <script src="{hooks_url}/webchat/widget.js" data-flow-id="FLOW_UUID"></script>; optional data-session (a session your ' +
    "server created with its API key: the lead's chat), or data-phone, data-first-name, data-last-name (kept on an anonymous session). It keeps the session id in localStorage (a reload resumes the conversation), " +
    'shows the persona, messages and a typing indicator, sends heartbeats, and reconnects with r/true after a drop.',
  auth: 'none',
  responses: { 200: { description: 'The widget script', contentType: 'application/javascript' } },
  async handler({ ctx }) {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    return WIDGET;
  },
});

/**
 * The demo page's Content-Security-Policy: scripts from this origin only (the widget), its one style element by the
 * page's nonce, the chat's session request and WebSocket to this origin, the persona's picture from here or https,
 * and no framing. Only the demo page sends it: the widget itself embeds in customers' pages under their own policy.
 */
const demoPagePolicy = (nonce: string, wsOrigin: string): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' https: data:",
    `connect-src 'self' ${wsOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

/** GET /webchat/demo/{flowId}: a page embedding the widget, to try a flow. */
const demoPage = defineRoute({
  method: 'get',
  path: '/webchat/demo/:flowId',
  tag: 'Web chat',
  summary: 'A demo page that embeds the chat widget for a flow',
  description: 'For a person to try a flow opened for public chat; 404 for unknown or private flows.',
  auth: 'none',
  example: { params: { flowId: '7d3c2c4e-1f7a-4a43-9a39-2a6f1d2c9b10' } },
  responses: { 200: { description: 'An HTML page', contentType: 'text/html' }, 404: { description: 'Flow not found (or not opened for public chat)' } },
  async handler({ ctx, params, deps }) {
    const flowId = params.flowId ?? '';
    const flow = isUuid(flowId) ? await findFlow(deps.db, flowId) : undefined;
    if (!flow || !flow.public_chat) throw notFound('Flow not found');
    ctx.type = 'text/html; charset=utf-8';
    // The page is ours alone: no framing (clickjacking), nothing but the widget's script, style and connections.
    const nonce = randomBytes(16).toString('base64');
    ctx.set('Content-Security-Policy', demoPagePolicy(nonce, `${ctx.protocol === 'https' ? 'wss' : 'ws'}://${ctx.host}`));
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'no-referrer');
    return (
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<title>${escapeHtml(flow.name)} · chat demo</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"></head><body><h1>${escapeHtml(flow.name)}</h1>` +
      `<p>Chat with ${escapeHtml(flow.owner_name)} in the corner of this page.</p>` +
      `<script src="/webchat/widget.js" nonce="${nonce}" data-flow-id="${escapeHtml(flow.id)}"></script></body></html>`
    );
  },
});

/** The chat's pages (static script, demo, images): not counted against the session limit. */
export const webchatPageRoutes = [widgetScript, demoPage, demoAvatar, faviconIco, faviconSvg];
