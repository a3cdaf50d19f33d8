// A misconfigured FaeTool is its author's mistake: makeFaeTool refuses it when the tool is made,
// with the offending value quoted, instead of offering the model a tool that fails when called.
import { describe, expect, it } from 'vitest';
import { E } from '@endo/far';
import { makeFaeTool, type FaeToolSpec } from '../tools/lib/make-fae-tool.js';

const goodSpec: FaeToolSpec = {
  name: 'echo',
  description: 'Echoes its text.',
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  help: 'echo({ text }) -> text',
  run: args => args.text,
};

const made = (changes: Record<string, unknown>) => () => makeFaeTool({ ...goodSpec, ...changes });

describe('makeFaeTool', () => {
  it('makes a tool from a well-formed spec', async () => {
    const tool = makeFaeTool(goodSpec);
    await expect(E(tool).execute(harden({ text: 'hi' }))).resolves.toBe('hi');
  });

  it('refuses a name the model APIs reject, quoting it', () => {
    expect(made({ name: 'read file' })).toThrow(/FaeTool name .*"read file"/);
    expect(made({ name: '' })).toThrow(/FaeTool name .*""/);
    expect(made({ name: 'x'.repeat(65) })).toThrow(/FaeTool name/);
  });

  it('refuses a spec without an implementation, a description, help or a parameters schema', () => {
    expect(made({ run: undefined })).toThrow(
      /FaeTool "echo": run must be a function, got "\[undefined\]"/,
    );
    expect(made({ description: 42 })).toThrow(
      /FaeTool "echo": description must be a string, got 42/,
    );
    expect(made({ help: null })).toThrow(/FaeTool "echo": help must be a string, got null/);
    expect(made({ parameters: 'object' })).toThrow(
      /FaeTool "echo": parameters must be a JSON schema object, got "object"/,
    );
  });

  it('checks the arguments from `parameters` before run sees them, and writes the help from them', async () => {
    const seen: unknown[] = [];
    const tool = makeFaeTool({
      name: 'greet',
      description: 'Greets.',
      parameters: {
        type: 'object',
        properties: { name: { type: 'string' }, language: { type: 'string' } },
        required: ['name'],
        additionalProperties: false,
      },
      returns: '{ greeting }',
      help: 'language: a code.',
      run: args => {
        seen.push(args);
        return 'hi';
      },
    });
    await expect(E(tool).execute(harden({ name: 'Ada', tone: 'warm' }))).rejects.toThrow(
      /^greet: unknown argument\(s\) tone; expected name, language$/,
    );
    await expect(E(tool).execute(harden({ language: 'fr' }))).rejects.toThrow(
      /^greet: name is required$/,
    );
    await expect(E(tool).execute(harden({ name: null }))).rejects.toThrow(
      /^greet: name is required$/,
    );
    expect(seen).toEqual([]);
    await expect(E(tool).execute(harden({ name: 'Ada' }))).resolves.toBe('hi');
    expect(await E(tool).help()).toBe(
      'greet({ name, language? }) -> { greeting }\nlanguage: a code.',
    );
  });

  it('refuses `returns` that is not a string', () => {
    expect(made({ returns: 3 })).toThrow(/FaeTool "echo": returns must be a string, got 3/);
  });
});
