import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseStatusCallback } from '../../src/telephony/callback';
import type { CallEvent } from '../../src/telephony/provider';
import { verifyTwilioSignature } from '../../src/telephony/signature';

/** One status callback as received, with whether its X-Twilio-Signature verified against the full URL. */
export interface ReceivedCallback {
  url: string;
  form: URLSearchParams;
  signatureValid: boolean;
  event: CallEvent;
}

/** A local StatusCallback endpoint that records what the carrier (simulator) posts to it. */
export async function startCallbackReceiver(authToken: string) {
  const received: ReceivedCallback[] = [];
  const arrivals = new EventEmitter();
  let base = '';
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const url = `${base}${req.url}`;
      const signature = req.headers['x-twilio-signature'];
      received.push({
        url,
        form,
        signatureValid: verifyTwilioSignature(authToken, url, form, typeof signature === 'string' ? signature : undefined),
        event: parseStatusCallback(form),
      });
      res.writeHead(204).end();
      arrivals.emit('callback');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    received,
    /** Resolves once a received callback matches (jest's test timeout bounds the wait). */
    waitFor(match: (c: ReceivedCallback) => boolean): Promise<ReceivedCallback> {
      return new Promise((resolve) => {
        const check = () => {
          const found = received.find(match);
          if (!found) return;
          arrivals.off('callback', check);
          resolve(found);
        };
        arrivals.on('callback', check);
        check();
      });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
