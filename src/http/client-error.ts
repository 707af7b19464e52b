import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { failureBody } from './api-error';

// Node's parser errors (llhttp codes and the server's own timeouts) a client causes, by the status they deserve.
const STATUS_BY_CODE: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request headers too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Chunk extensions too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timed out'],
  HPE_HEADERS_TIMEOUT: [408, 'Request headers timed out'],
};

/**
 * Requests Node's HTTP parser rejects never reach Koa; Node would answer them with an empty body. This answers them
 * in the error shape instead (431 for oversized headers, 408 for timeouts, 400 for anything malformed).
 */
export function answerClientErrorsInShape(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node's own handler: write only when no response of this socket has begun, so the peer never sees a mix.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, message] = STATUS_BY_CODE[err.code ?? ''] ?? [400, 'Malformed HTTP request'];
    const body = JSON.stringify(failureBody(message));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
