/**
 * The scripted double's replies read as a model's would (issues 45 and 46; README, "Try it
 * without a model"): what it quotes reads as it was typed, never escaped twice (`\\\"` in the
 * reply's tool-call line and in `endo inbox`); a tool's result is told in words, never as its
 * raw JSON (a failed adoption of an embedded reference showed `{"error":…}` in the chat UI); and
 * its words hold no pair of the marks the Endo chat UI styles (`*bold*`, `/italic/`, `~strike~`,
 * `_underline_`; its hello's `/attach … /attach` came out in italics) outside code spans.
 */
import { describe, expect, it } from 'vitest';
import { demoModel } from '../sim/model-server/demo-model.js';
import type { NormalizedRequest, ScriptedReply } from '../sim/model-server/index.js';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

const request = (told: string, tool?: string): NormalizedRequest => ({
  protocol: 'openai',
  index: 0,
  model: 'double-model',
  messages: [
    { role: 'system', text: 'You are Lal.' },
    { role: 'user', text: told },
    ...(tool === undefined ? [] : [{ role: 'tool' as const, text: tool }]),
  ],
  toolNames: ['reply', 'evaluate', 'mail', 'toolbox'],
  maxTokens: undefined,
  bytes: 0,
});

/** The words of the double's reply (it answers with the reply tool when the message has a number). */
const saysTo = (told: string, tool?: string): string => {
  const reply: ScriptedReply = demoModel(request(told, tool));
  const call = 'toolCalls' in reply ? reply.toolCalls?.[0] : undefined;
  if (call?.name !== 'reply') throw Error(`no reply: ${JSON.stringify(reply)}`);
  return (call.arguments as { strings: string[] }).strings.join('');
};

/**
 * Spans the Endo chat UI styles: a mark, then text without it, then the mark again. Code spans
 * are shown as code, so their insides are left out first.
 */
const styledSpans = (text: string): string[] =>
  ['*', '/', '~', '_'].flatMap(mark => {
    const escaped = `\\${mark}`;
    const span = new RegExp(`${escaped}[^${escaped}]+${escaped}`, 'g');
    return [...text.replace(/`[^`]+`/g, 'code').matchAll(span)].map(found => found[0]);
  });

describe('the double quotes what it was told as it was typed', () => {
  it("tells a helper's task as written, not as the JSON string its end's notice quotes", () => {
    const says = saysTo(
      'DONE: helper h1 (task "count \\"sheep\\"", 1 model call) handed back: I counted them.\nNext: check it, then tell HOST (message #6).',
    );
    expect(says).toBe('My helper h1 (task: count "sheep") handed back: I counted them.');
  });

  it("tells a tool's text result as its text: a toolbox tool's answer, quotes and all", () => {
    const says = saysTo(
      'Message #2 from HOST: use a tool to plan a meeting called "standup"',
      JSON.stringify('calendar_create_item ran with {"title":"standup"}'),
    );
    expect(says).toBe('The tool answered: calendar_create_item ran with {"title":"standup"}');
  });

  it('in npm start -- --demo: no reply, nor its tool-call line, holds a quote escaped twice', async () => {
    const run = await runSim(['--demo', '--fresh'], {}, input => {
      input.write('ask a helper to count "sheep"\n');
      void input.waitFor(/lal › My helper h1 \(task: .*\n/).then(() => input.end());
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^#\d+ lal › My helper h1 \(task: count "sheep"\) handed back: /m);
    expect(run.stdout).not.toContain('\\\\\\"');
    expect(run.code).toBe(0);
  });
});

describe("the double tells a tool's result in words", () => {
  it('says what a record holds, as pairs of plain words, leaving out what is empty', () => {
    expect(
      saysTo(
        'Message #5 from HOST: use the math tool to multiply 6 by 7',
        '{"operation":"multiply","a":6,"b":7,"result":42}',
      ),
    ).toBe('The tool answered: operation: multiply, a: 6, b: 7, result: 42');
    expect(
      saysTo(
        'Message #2 from HOST: run `echo hi`',
        '{"command":"echo hi","exitCode":0,"signal":null,"status":"exited with code 0","stdout":"hi\\n","stderr":""}',
      ),
    ).toBe(
      'The tool answered: command: echo hi, exitCode: 0, status: exited with code 0, stdout: hi',
    );
  });

  it('says why a call failed, not its JSON: an embedded reference that is no tool, not adopted', () => {
    const says = saysTo(
      'Message #4 from HOST: here is @note',
      '{"error":"not adopted: it is not a usable FaeTool; the sender was told"}',
    );
    expect(says).toBe(
      'That did not work: not adopted: it is not a usable FaeTool; the sender was told',
    );
    expect(says).not.toContain('{');
  });

  it("says what an approved call returned in words too (APPROVED's notice)", () => {
    expect(
      saysTo(
        'APPROVED: HOST approved the call runCommand {"command":"echo hi"} (approval a1); it ran and returned: {"status":"exited with code 0","stdout":"hi\\n"}\nNext: carry on with what you needed it for, and tell HOST (message #3).',
      ),
    ).toBe('Done: status: exited with code 0, stdout: hi');
  });
});

describe("the double's words in the Endo chat UI", () => {
  it('its hello holds no pair of marks the chat would style, its commands in code spans', () => {
    const hello = saysTo('Message #1 from HOST: hello');
    expect(styledSpans(hello)).toEqual([]);
    expect(hello).toContain('`/attach`');
  });

  it('the check finds the pairs the chat styles, and leaves code spans alone', () => {
    expect(styledSpans('a /b c/ d *e* `f /g/`')).toEqual(['*e*', '/b c/']);
  });
});
