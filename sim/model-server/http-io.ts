/** Reading an HTTP request as the model doubles need it: the body, its JSON, the headers safe to record. */
import type { IncomingMessage } from 'node:http';

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'cookie']);

export const readBody = (request: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
harden(readBody);

/** The parsed body, or undefined when it is empty or not JSON. */
export const parseJson = (bytes: Buffer): { value: unknown } | undefined => {
  if (bytes.length === 0) return undefined;
  try {
    return { value: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch {
    return undefined;
  }
};
harden(parseJson);

/** The request's headers without credentials or cookies. */
export const publicHeaders = (request: IncomingMessage): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!SECRET_HEADERS.has(name) && value !== undefined)
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
};
harden(publicHeaders);

/** Whether a credential header (authorization or x-api-key) was sent. */
export const hadAuth = (request: IncomingMessage): boolean =>
  request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined;
harden(hadAuth);
