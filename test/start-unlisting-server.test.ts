/**
 * `npm start` at a server that answers but lists no models (issue 45, trial 13 S1;
 * docs/troubleshooting.md, "Before the first message"): with LAL_MODEL unset there is no model to
 * use, so the start-up check stops the start (exit 1) with one line saying what is wrong and what
 * to change, before any greeting; with LAL_MODEL set the list is not needed, and the start goes on.
 */
import { describe, expect, it } from 'vitest';
import { useStartAtRawServer } from './support/run-sim.js';

const raw = useStartAtRawServer();

describe('npm start at a server that lists no models', () => {
  it('a server answering 404 to everything stops the start in one line, before any greeting', async () => {
    const host = await raw.serve((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
    });
    const run = await raw.start({ LAL_HOST: host });
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('you are HOST');
    expect(run.stderr.trim()).toBe(
      `${host} answered HTTP 404 when asked for its models — is LAL_HOST the address of a model server speaking Ollama's API (the API LAL_PROVIDER, or the guess from LAL_HOST, names)? Check LAL_HOST and LAL_PROVIDER; a server that speaks it but lists no models needs LAL_MODEL set to the model to use.`,
    );
  });

  it('a server answering 200 with no list stops it alike', async () => {
    const host = await raw.serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"status":"ok"}');
    });
    const run = await raw.start({ LAL_HOST: `${host}/v1` });
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('you are HOST');
    expect(run.stderr.trim()).toBe(
      `${host}/v1 gave no model list — is LAL_HOST the address of a model server speaking an OpenAI-compatible API (the API LAL_PROVIDER, or the guess from LAL_HOST, names)? Check LAL_HOST and LAL_PROVIDER; a server that speaks it but lists no models needs LAL_MODEL set to the model to use.`,
    );
  });
});
