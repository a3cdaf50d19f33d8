/**
 * Errors that teach (src/builtin-tools/explain-failure.ts), the cases a real
 * daemon does not readily give: an inbox of more than ten messages, a
 * look-up that fails, a value thrown that is no Error, an error naming a
 * number that only contains the one asked for. The agent-level cases are in
 * tools-teaching-errors*.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { explainFailure } from '../src/builtin-tools/explain-failure.js';
import { groupedCall } from '../src/agent-tools/tool-groups.js';
import type { MessageRecord } from '../src/mail/message-record.js';

interface Directory {
  /** Every pet-name path that exists, joined with `/`. */
  paths: string[];
  messages?: MessageRecord[];
  /** Names the daemon refuses to look at (its `Invalid name`). */
  invalid?: string[];
  failing?: { list?: boolean; listMessages?: boolean };
}

/** The daemon's powers as explainFailure reads them: has, list and listMessages. */
const powersOf = (directory: Directory) =>
  harden({
    has: async (...path: string[]) => {
      const bad = path.find(name => directory.invalid?.includes(name));
      if (bad !== undefined) throw Error(`Invalid name ${JSON.stringify(bad)}`);
      return directory.paths.includes(path.join('/'));
    },
    list: async (...folder: string[]) => {
      if (directory.failing?.list === true) throw Error('list failed');
      const prefix = folder.length === 0 ? '' : `${folder.join('/')}/`;
      return directory.paths
        .filter(each => each.startsWith(prefix) && !each.slice(prefix.length).includes('/'))
        .map(each => each.slice(prefix.length));
    },
    listMessages: async () => {
      if (directory.failing?.listMessages === true) throw Error('listMessages failed');
      return directory.messages ?? [];
    },
  });

const home: Directory = {
  paths: ['calculator', 'things', 'things/shopping-list', 'things/inner'],
  messages: [{ number: 3n, names: ['math-tool'] }],
};

/** The error explainFailure makes of `error` for a call of `name` with `args`. */
const explained = async (
  error: unknown,
  name: string,
  args: Record<string, unknown>,
  directory: Directory = home,
) =>
  explainFailure(error, name, harden(args), groupedCall(name, harden(args)), {
    powers: powersOf(directory) as never,
  });

describe('errors that teach, at the module', () => {
  test('the explained error keeps the original as its cause; one left as it is is the original', async () => {
    const original = Error('lookup: "calculater" not found');
    const said = await explained(original, 'names', { op: 'lookup', path: 'calculater' });
    expect(said.message).toBe(
      'lookup: "calculater" not found (there is no "calculater" in your directory; the nearest names there: "calculator")',
    );
    expect(said.cause).toBe(original);
    const plain = Error('lookup: something else went wrong');
    expect(await explained(plain, 'names', { op: 'lookup', path: 'calculater' })).toBe(plain);
  });

  test('a thrown value that is no Error becomes one with its text, explained alike', async () => {
    const left = await explained('no such thing', 'names', { op: 'lookup', path: 'calculator' });
    expect(left).toBeInstanceOf(Error);
    expect(left.message).toBe('no such thing');
    const said = await explained('"zzz" not found', 'names', { op: 'lookup', path: 'zzz' });
    expect(said.message).toMatch(/^"zzz" not found \(there is no "zzz" in your directory; /);
    expect(said.cause).toBe('"zzz" not found');
  });

  test('an inbox of more than ten names its ten newest; numbers that are not numbers are left out', async () => {
    const messages: MessageRecord[] = [
      ...Array.from({ length: 12 }, (_, index) => ({ number: BigInt(index + 1) })),
      { number: 'x' },
      {},
    ];
    const said = await explained(
      Error('there is no #99'),
      'reply',
      { messageNumber: 99n, strings: ['hi'] },
      { paths: [], messages },
    );
    expect(said.message).toBe(
      'there is no #99 (there is no message #99; your inbox holds #3, #4, #5, #6, #7, #8, #9, #10, #11, #12)',
    );
  });

  test('a number is found in the error only whole: #99 is not about 9 or 990', async () => {
    const inbox: Directory = { paths: [], messages: [{ number: 1n }] };
    for (const text of ['no message 990', 'no message 199', 'no message 9'])
      expect(
        (await explained(Error(text), 'mail', { op: 'dismiss', messageNumber: 99n }, inbox))
          .message,
      ).toBe(text);
    expect(
      (
        await explained(
          Error('no message 99.'),
          'mail',
          { op: 'dismiss', messageNumber: 99n },
          inbox,
        )
      ).message,
    ).toBe('no message 99. (there is no message #99; your inbox holds #1)');
  });

  test('a message that is there and an edge it carries give no hint', async () => {
    const error = Error('adopt: "math-tool" failed');
    const said = await explained(error, 'mail', {
      op: 'adopt',
      messageNumber: 3n,
      edgeName: 'math-tool',
      petName: 'math',
    });
    expect(said).toBe(error);
  });

  test('an edge missing from a message of one value names it', async () => {
    const said = await explained(Error('adoptTool: no "math"'), 'mail', {
      op: 'adoptTool',
      messageNumber: 3n,
      edgeName: 'math',
      toolName: 'math',
    });
    expect(said.message).toBe(
      'adoptTool: no "math" (message #3 carries one value, under the edge name "math-tool")',
    );
  });

  test('a look-up that fails adds nothing, and the others still tell', async () => {
    const failing: Directory = { ...home, failing: { listMessages: true } };
    const said = await explained(
      Error('resolve: #7 and "calculater"'),
      'mail',
      { op: 'resolve', messageNumber: 7n, path: 'calculater' },
      failing,
    );
    expect(said.message).toBe(
      'resolve: #7 and "calculater" (there is no "calculater" in your directory; the nearest names there: "calculator")',
    );
    const error = Error('lookup: "calculater"');
    expect(
      await explained(
        error,
        'names',
        { op: 'lookup', path: 'calculater' },
        {
          ...home,
          failing: { list: true },
        },
      ),
    ).toBe(error);
  });

  test('a name the daemon refuses to look at is not there', async () => {
    const said = await explained(
      Error('send: "Bob" is invalid'),
      'send',
      { recipient: 'Bob', strings: ['hi'] },
      { paths: ['bob'], invalid: ['Bob'] },
    );
    expect(said.message).toBe(
      'send: "Bob" is invalid (there is no "Bob" in your directory; the nearest names there: "bob")',
    );
  });

  test('each of several paths is looked at: the missing one among them is named', async () => {
    const said = await explained(Error('unknown pet name "shoping-list"'), 'evaluate', {
      source: 'x',
      codeNames: ['a', 'b'],
      petNamePaths: [['calculator'], ['things', 'shoping-list']],
      resultName: 'r',
    });
    expect(said.message).toBe(
      'unknown pet name "shoping-list" (there is no "shoping-list" in "things"; the nearest names there: "shopping-list")',
    );
  });

  test('a name made needs only its folder: a folder missing is named, a name at the top is not looked at', async () => {
    const said = await explained(Error('adopt: "thingz" is missing'), 'mail', {
      op: 'adopt',
      messageNumber: 3n,
      edgeName: 'math-tool',
      petName: ['thingz', 'math'],
    });
    expect(said.message).toBe(
      'adopt: "thingz" is missing (there is no "thingz" in your directory; the nearest names there: "things")',
    );
    const error = Error('makeDirectory: "thingz" failed');
    expect(await explained(error, 'names', { op: 'makeDirectory', path: 'thingz' })).toBe(error);
  });

  test('a name made three deep needs its folder two deep', async () => {
    const said = await explained(Error('copy: "innr" is missing'), 'names', {
      op: 'copy',
      path: 'calculator',
      to: 'things/innr/calc',
    });
    expect(said.message).toBe(
      'copy: "innr" is missing (there is no "innr" in "things"; the nearest names there: "inner")',
    );
  });

  test('a call with no message number is told nothing of the inbox, even when its error says "undefined"', async () => {
    const error = Error('lookup: cannot read properties of undefined');
    expect(await explained(error, 'names', { op: 'lookup', path: 'calculator' })).toBe(error);
  });

  test('every name of a path that exists gives no hint, however deep', async () => {
    const error = Error('lookup: "things" "inner" failed');
    expect(await explained(error, 'names', { op: 'lookup', path: 'things/inner' })).toBe(error);
  });

  test('a folder of many names, none near: the first five, and how many in all', async () => {
    const paths = ['box', ...['ant', 'bee', 'cat', 'dog', 'eel', 'fox'].map(name => `box/${name}`)];
    const said = await explained(
      Error('"qqqqqq" not found'),
      'names',
      {
        op: 'lookup',
        path: 'box/qqqqqq',
      },
      { paths },
    );
    expect(said.message).toBe(
      '"qqqqqq" not found (there is no "qqqqqq" in "box"; the names there: "ant", "bee", "cat", "dog", "eel" (6 in all))',
    );
    const five = await explained(
      Error('"qqqqqq" not found'),
      'names',
      {
        op: 'lookup',
        path: 'box/qqqqqq',
      },
      { paths: paths.slice(0, 6) },
    );
    expect(five.message).toBe(
      '"qqqqqq" not found (there is no "qqqqqq" in "box"; the names there: "ant", "bee", "cat", "dog", "eel")',
    );
  });

  test('two missing names an error names give two hints', async () => {
    const said = await explained(Error('copy: no "calculater", no "thingz"'), 'names', {
      op: 'copy',
      path: 'calculater',
      to: 'thingz/x',
    });
    expect(said.message).toBe(
      'copy: no "calculater", no "thingz" (there is no "calculater" in your directory; the nearest names there: "calculator"; there is no "thingz" in your directory; the nearest names there: "things")',
    );
  });
});

describe('a name the daemon refuses', () => {
  test('says the naming rule and a name that would do (adoptTool toolName "runCommand")', async () => {
    const said = await explained(Error('Invalid name "runCommand"'), 'mail', {
      op: 'adoptTool',
      messageNumber: 3n,
      edgeName: 'math-tool',
      toolName: 'runCommand',
    });
    expect(said.message).toBe(
      'Invalid name "runCommand" (a pet name is lowercase letters, digits and "-", starting with a letter or digit, at most 128 characters: "run-command" would do)',
    );
    const pet = await explained(Error('Invalid pet name "My Notes!"'), 'names', {
      op: 'makeDirectory',
      path: 'My Notes!',
    });
    expect(pet.message).toContain('"my-notes" would do');
  });
});
