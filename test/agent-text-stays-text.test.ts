/**
 * Text stays text (behaviour 3.3): free-text arguments reach their
 * destination exactly as the model wrote them; SmallCaps decoding applies
 * only where a parameter can hold a passable (message numbers, the value of
 * `store`). Through make() and the daemon double.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { callTool, say } from './support/scripted-provider.js';
import { latestMessageNumber, textOf } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const echoToolUrl = new URL('../bench/bench-tool.ts', import.meta.url).href;
const TEXTS = ['+1', '!important', '#NaN', '100%', '-5', '#undefined', '$0.Alleged: x', '&1'];

const { start } = useAgents();

describe('text stays text', () => {
  test('send and reply deliver "+1", "!important", "#NaN", "100%" … exactly as written', async () => {
    const run = await start({
      env: { LAL_STOP_AFTER_ANSWER: '0' },
      steps: [
        {
          role: 'assistant',
          content: '',
          toolCalls: TEXTS.map((text, index) => ({
            id: `s${index}`,
            name: 'send',
            arguments: JSON.stringify({ recipient: 'HOST', strings: [text] }),
          })),
        },
        request =>
          callTool('reply', { messageNumber: `+${latestMessageNumber(request)}`, strings: ['+1'] }),
        say(''),
      ],
    });
    await run.send('say odd things');
    for (const text of TEXTS) await run.reply(text);
    const replied = await run.reply('+1');
    expect(replied.replyTo).toBeDefined();
  });

  test('a FaeTool gets its arguments as the model wrote them', async () => {
    const host = makeMailHost();
    await E(host.host).makeUnconfined('worker-echo', echoToolUrl, {
      resultName: 'echo-tool',
      env: { TOOL_NAME: 'echo' },
    });
    const run = await start({
      host,
      persona: 'fae',
      introducedNames: { 'echo-tool': 'echo-tool' },
      steps: [
        callTool('echo', { text: '!important', list: ['+1', '#NaN', '100%'] }),
        request => say(request.messages.at(-1)!.content),
      ],
    });
    await run.send('echo');
    const answer = JSON.parse(textOf(await run.reply(/echoed/))) as { echoed: unknown };
    expect(answer.echoed).toEqual({ text: '!important', list: ['+1', '#NaN', '100%'] });
  });

  test('store reads its value SmallCaps-first: "+5" is 5n, "!+5" the text "+5"', async () => {
    const host = makeMailHost();
    const run = await start({
      host,
      persona: 'fae',
      steps: [
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'a', name: 'store', arguments: JSON.stringify({ value: '+5', petName: 'five' }) },
            {
              id: 'b',
              name: 'store',
              arguments: JSON.stringify({ value: { n: '!+5', list: ['-7'] }, petName: 'text' }),
            },
          ],
        },
        say('stored'),
      ],
    });
    await run.send('store things');
    await run.reply('stored');
    const powers = host.guest('fae').powers;
    expect(await E(powers).lookup('five')).toBe(5n);
    expect(await E(powers).lookup('text')).toEqual({ n: '+5', list: [-7n] });
  });

  test('the tool descriptions and the prompt say where SmallCaps applies', async () => {
    const run = await start({ steps: [say('ok')] });
    await run.send('hi');
    await run.reply('ok');
    const { BUILTIN_SCHEMAS } = await import('../src/agent-tools/builtin-schemas.js');
    // store is an op of the names tool; its value is the one parameter read as SmallCaps.
    const store = BUILTIN_SCHEMAS.find(schema => schema.function.name === 'names')!;
    expect(store.function.parameters.properties?.value?.description).toMatch(
      /"\+5" is the bigint 5/,
    );
    // That text is sent exactly as written is said once, in the system prompt, for every tool.
    expect(run.provider.requests[0]!.messages[0]!.content).toMatch(
      /Text you write is sent exactly as written; only a stored value is read in that encoding/,
    );
  });
});
