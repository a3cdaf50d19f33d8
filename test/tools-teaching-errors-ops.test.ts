/**
 * Errors that teach, for the ops tools-teaching-errors.test.ts does not
 * call (docs/behaviour.md 4.x), through make() in the daemon double: list,
 * inspectCapability, copy (from and into), makeDirectory in a folder that
 * is not there, resolve of a message not in the inbox, and the same missing
 * name given twice, said once.
 */
import { expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool, type RecordedRequest, type Step } from './support/scripted-provider.js';
import { latestMessageNumber } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

/** The error the latest tool result of a request holds. */
const lastResult = (request: RecordedRequest): string => {
  const text = request.messages.filter(message => message.role === 'tool').at(-1)!.content;
  return String((JSON.parse(text) as { error?: unknown }).error);
};

const results = async (calls: Step[]): Promise<string[]> => {
  const run = await start({
    steps: [
      ...calls,
      request =>
        callTool('reply', { messageNumber: latestMessageNumber(request), strings: ['done'] }),
    ],
    prepare: async (host, name) => {
      await E(host.host).storeValue(harden({ kind: 'a calculator' }), 'calculator');
      await E(host.host).provideGuest(name, { introducedNames: { calculator: 'calculator' } });
      const guest = E(host.guest(name).powers);
      await guest.makeDirectory(['things']);
      await guest.storeValue(harden('a note'), ['things', 'shopping-list']);
    },
  });
  await run.send('try these');
  await run.reply('done');
  return run.provider.requests.slice(1).map(lastResult);
};

const call =
  (name: string, args: unknown): Step =>
  () =>
    callTool(name, args);

test('each op that names something that must exist names the nearest when it does not', async () => {
  const said = await results([
    call('names', { op: 'list', path: 'thingz' }),
    call('names', { op: 'inspectCapability', path: 'calculater' }),
    call('names', { op: 'copy', path: 'calculater', to: 'copied' }),
    call('names', { op: 'copy', path: 'calculator', to: 'thingz/calc' }),
    call('names', { op: 'makeDirectory', path: 'thingz/inner' }),
    call('mail', { op: 'resolve', messageNumber: 999, path: 'calculator' }),
  ]);
  expect(said[0]).toMatch(
    /there is no "thingz" in your directory; the nearest names there: "things"/,
  );
  expect(said[1]).toMatch(
    /there is no "calculater" in your directory; the nearest names there: "calculator"/,
  );
  expect(said[2]).toMatch(
    /there is no "calculater" in your directory; the nearest names there: "calculator"/,
  );
  expect(said[3]).toMatch(
    /there is no "thingz" in your directory; the nearest names there: "things"/,
  );
  expect(said[4]).toMatch(
    /there is no "thingz" in your directory; the nearest names there: "things"/,
  );
  expect(said[5]).toMatch(/there is no message #999; your inbox holds #\d+/);
});

test('the same missing name given twice is explained once', async () => {
  const said = await results([
    request =>
      callTool('reply', {
        messageNumber: latestMessageNumber(request),
        strings: ['here', ' and ', ''],
        edgeNames: ['a', 'b'],
        petNames: ['calculater', 'calculater'],
      }),
  ]);
  expect(said[0]!.match(/there is no "calculater"/g)).toHaveLength(1);
});

test('a folder two deep is named whole; a name with regular-expression characters is found in the error; an error about nothing missing is left as it is', async () => {
  const said = await results([
    call('names', { op: 'makeDirectory', path: 'things/inner' }),
    call('names', { op: 'lookup', path: 'things/inner/qqqqqqq' }),
    call('names', { op: 'lookup', path: 'calc(ulater' }),
    call('names', { op: 'lookup', path: 'calculator/inside' }),
  ]);
  expect(said[1]).toMatch(/there is no "qqqqqqq" in "things\/inner", which is empty\)$/);
  expect(said[2]).toMatch(
    /there is no "calc\(ulater" in your directory; the nearest names there: "calculator"/,
  );
  expect(said[3]).not.toMatch(/there is no|\(\)$/);
});
