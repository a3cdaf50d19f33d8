/**
 * Asking a server for its models (LAL_MODEL unset), at the wire, when the
 * answer is not the tidy list the doubles give: duplicates, entries without
 * names, an answer that holds no list, a page that is not JSON (and echoes the
 * key), and more models than the greeting names. The list is only advice:
 * each of these ends in a model to use and words for the HOST, never a throw.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connectProvider, describeModelChoice } from '../providers/connect-provider.js';
import { readProviderConfig } from '../providers/config.js';
import { listModels } from '../providers/list-models.js';
import { useRawServer, type RawHandler } from './support/raw-http-server.js';

const TOKEN = 'sk-list-secret-token-8765';
type Handler = RawHandler;
const seen: { path: string; authorization: string | undefined }[] = [];
afterEach(() => {
  seen.length = 0;
});
const raw = useRawServer();
// Every request's path and credentials are kept for the test to read.
const serve = (handler: Handler): Promise<string> =>
  raw.serve((request, response) => {
    seen.push({ path: request.url ?? '', authorization: request.headers.authorization });
    handler(request, response);
  });
const answer =
  (body: string, contentType = 'application/json'): Handler =>
  (_request, response) => {
    response.writeHead(200, { 'content-type': contentType });
    response.end(body);
  };

describe('model lists in the shapes servers send', () => {
  it('names come from id, name or model; duplicates, empty names and null entries are skipped', async () => {
    const host = await serve(
      answer(
        JSON.stringify({
          data: [
            { id: 'a' },
            { id: 'a' },
            null,
            { name: 'b' },
            { id: '' },
            { model: 'c' },
            { id: 7 },
          ],
        }),
      ),
    );
    const config = readProviderConfig({
      LAL_HOST: `${host}/v1`,
      LAL_PROVIDER: 'openai',
      LAL_AUTH_TOKEN: TOKEN,
    });
    expect(await listModels(config)).toEqual({ ok: true, models: ['a', 'b', 'c'] });
    expect(seen).toEqual([{ path: '/v1/models', authorization: `Bearer ${TOKEN}` }]);
  });

  it.each([
    ['an object without a list', JSON.stringify({ object: 'list' })],
    ['a JSON string', JSON.stringify('models here')],
  ])('%s is no model list, said so', async (_label, body) => {
    const host = await serve(answer(body));
    const config = readProviderConfig({ LAL_HOST: host, LAL_PROVIDER: 'ollama' });
    expect(await listModels(config)).toEqual({ ok: false, reason: `${host} gave no model list` });
  });

  it('a web page is a reason that calls it one, without the key it echoes', async () => {
    const host = await serve(answer(`<html>login required for ${TOKEN}</html>`, 'text/html'));
    const config = readProviderConfig({
      LAL_HOST: `${host}/v1`,
      LAL_PROVIDER: 'openai',
      LAL_AUTH_TOKEN: TOKEN,
    });
    const listed = await listModels(config);
    expect(listed.ok).toBe(false);
    const reason = listed.ok ? '' : listed.reason;
    expect(reason).toBe(`${host}/v1 answered with a web page, not a model list`);
    expect(reason).not.toContain(TOKEN);
  });

  it('with no list to pick from, the default model is used and the greeting says why', async () => {
    // The start-up check of npm start stops here (test/start-unlisting-server.test.ts); the agent says it.
    const NO_LIST_ADVICE =
      "is LAL_HOST the address of a model server speaking Ollama's API (the API LAL_PROVIDER, or the guess from LAL_HOST, names)? Check LAL_HOST and LAL_PROVIDER; a server that speaks it but lists no models needs LAL_MODEL set to the model to use.";
    const host = await serve(answer(JSON.stringify({ object: 'list' })));
    const provider = await connectProvider({ LAL_HOST: host, LAL_PROVIDER: 'ollama' });
    expect(provider.model).toBe('qwen3');
    expect(describeModelChoice(provider)).toBe(
      `I think with qwen3 (ollama), the default (${host} gave no model list — ${NO_LIST_ADVICE}). Set LAL_MODEL to choose another.`,
    );
  });

  it('a server offering many models: the greeting names twelve others and counts the rest', async () => {
    const names = Array.from({ length: 15 }, (_, index) => `model-${index + 1}`);
    const host = await serve(answer(JSON.stringify({ models: names.map(name => ({ name })) })));
    const provider = await connectProvider({ LAL_HOST: host, LAL_PROVIDER: 'ollama' });
    expect(provider.model).toBe('model-1');
    expect(describeModelChoice(provider)).toBe(
      `I think with model-1 (ollama), the first model the server lists. The server also offers ${names.slice(1, 13).join(', ')} and 2 more; set LAL_MODEL to choose one.`,
    );
  });
});
