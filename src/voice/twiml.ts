/**
 * TwiML built from a small element tree: every attribute value and text goes through one escaping function, so no
 * caller's data can close a tag or an attribute.
 */

export interface TwimlElement {
  name: string;
  attributes?: Record<string, string | undefined>;
  children?: (TwimlElement | string)[];
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** XML-escapes text or an attribute value; drops characters XML 1.0 cannot carry at all. */
export function escapeXml(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const NAME = /^[A-Za-z][A-Za-z0-9]*$/;

function render(node: TwimlElement | string): string {
  if (typeof node === 'string') return escapeXml(node);
  if (!NAME.test(node.name)) throw new Error(`not a TwiML element name: ${node.name}`);
  const attrs = Object.entries(node.attributes ?? {})
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => {
      if (!NAME.test(k)) throw new Error(`not a TwiML attribute name: ${k}`);
      return ` ${k}="${escapeXml(v)}"`;
    })
    .join('');
  const children = node.children ?? [];
  return children.length ? `<${node.name}${attrs}>${children.map(render).join('')}</${node.name}>` : `<${node.name}${attrs}/>`;
}

/** A TwiML document: `<?xml …?><Response>…</Response>`. */
export function twimlDocument(verbs: TwimlElement[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${render({ name: 'Response', children: verbs })}`;
}

/** The custom parameters a voice answer hands its stream (Twilio returns them in start.customParameters). */
export interface StreamParameters {
  call_id: string;
  credential: string;
  /** '1' when the call's stream broke and this answer resumes the conversation. */
  resume: '0' | '1';
}

/**
 * The answer to an answered call: a bidirectional Media Stream (`<Connect><Stream>`, which holds the call until our
 * server closes the socket) and, after it, a `<Redirect>` back to the voice route, which Twilio follows when the
 * stream ends without the call ending (a voice process died): the next answer resumes the conversation.
 */
export function connectStreamTwiml(o: { streamUrl: string; parameters: StreamParameters; redirectUrl: string }): string {
  if (new URL(o.streamUrl).search) throw new Error('the stream URL must not carry a query string');
  return twimlDocument([
    {
      name: 'Connect',
      children: [
        {
          name: 'Stream',
          attributes: { url: o.streamUrl },
          children: Object.entries(o.parameters).map(([name, value]) => ({ name: 'Parameter', attributes: { name, value } })),
        },
      ],
    },
    { name: 'Redirect', attributes: { method: 'POST' }, children: [o.redirectUrl] },
  ]);
}

/** The answer to a call that must not (or no longer) talk to the agent. */
export const hangupTwiml = (): string => twimlDocument([{ name: 'Hangup' }]);
