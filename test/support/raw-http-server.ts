/**
 * A loopback HTTP server a test answers by hand (a handler per test), for
 * shapes the wire doubles never send; closed after each test.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export type RawHandler = (request: IncomingMessage, response: ServerResponse) => void;

export const useRawServer = () => {
  let server: Server | undefined;

  /** Stops listening now (a server that is not running), ending open connections. */
  const close = async (): Promise<void> => {
    const current = server;
    server = undefined;
    if (current === undefined) return;
    current.closeAllConnections();
    await new Promise(resolve => current.close(resolve));
  };
  afterEach(close);

  /** Starts a server that hands each whole request to `handler`; returns its base URL. */
  const serve = async (handler: RawHandler): Promise<string> => {
    const started = createServer((request, response) => {
      request.resume();
      request.on('end', () => handler(request, response));
    });
    server = started;
    await new Promise<void>(resolve => started.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(started.address() as AddressInfo).port}`;
  };

  return { serve, close };
};
