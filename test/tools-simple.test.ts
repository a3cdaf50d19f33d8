// The example tool caplets (timestamp, greet, math), their schemas, and the
// tool index, called through E() as the agent calls them.
import { describe, expect, it } from 'vitest';
import { E } from '@endo/far';
import * as timestamp from '../tools/timestamp.js';
import * as greet from '../tools/greet.js';
import * as math from '../tools/math.js';
import * as readFile from '../tools/read-file.js';
import * as writeFile from '../tools/write-file.js';
import * as editFile from '../tools/edit-file.js';
import * as listDir from '../tools/list-dir.js';
import * as runCommand from '../tools/run-command.js';
import {
  exampleToolNames,
  isToolName,
  rootedToolNames,
  toolModuleFiles,
  toolModuleUrl,
} from '../tools/index.js';
import { expectValidToolSchema, makeTool } from './tools-helpers.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempDir = useTempFolders();

const modulesByName = {
  timestamp,
  greet,
  math,
  readFile,
  writeFile,
  editFile,
  listDir,
  runCommand,
} as const;

describe('tool schemas and the index', () => {
  it('every tool declares a valid schema under its own name, and help text', async () => {
    const env = { FAE_CWD: makeTempDir('schemas') };
    for (const [name, module] of Object.entries(modulesByName)) {
      const tool = makeTool(module, env);
      expectValidToolSchema(await E(tool).schema(), name);
      const help = await E(tool).help();
      expect(help).toContain(name);
    }
  });

  it('the index names every tool once and points at its module file', () => {
    expect(Object.keys(toolModuleFiles).sort()).toEqual(Object.keys(modulesByName).sort());
    expect([...exampleToolNames, ...rootedToolNames].sort()).toEqual(
      Object.keys(modulesByName).sort(),
    );
    expect(isToolName('math')).toBe(true);
    expect(isToolName('toString')).toBe(false);
    expect(toolModuleUrl('readFile')).toMatch(/^file:\/\/.*\/tools\/read-file\.js$/);
  });

  it('file tools and runCommand refuse to be made without a usable FAE_CWD', () => {
    const notADirectory = `${makeTempDir('nodir')}/file`;
    for (const name of rootedToolNames) {
      const module = modulesByName[name];
      expect(() => makeTool(module, {})).toThrow(/FAE_CWD is not set/);
      expect(() => makeTool(module, { FAE_CWD: 'relative/dir' })).toThrow(/absolute path/);
      expect(() => makeTool(module, { FAE_CWD: notADirectory })).toThrow(/does not exist/);
    }
  });

  it('arguments the schema does not declare are refused by name', async () => {
    const tool = makeTool(math);
    await expect(E(tool).execute(harden({ operation: 'add', a: 1, b: 2, c: 3 }))).rejects.toThrow(
      /unknown argument\(s\) c/,
    );
  });
});

describe('timestamp', () => {
  it('gives the ISO instant and the wall-clock time in the requested zone', async () => {
    const before = Date.now();
    const result = (await E(makeTool(timestamp)).execute(harden({ timeZone: 'Asia/Tokyo' }))) as {
      iso: string;
      local: string;
      timeZone: string;
      utcOffset: string;
    };
    const after = Date.now();
    const instant = Date.parse(result.iso);
    expect(instant).toBeGreaterThanOrEqual(before);
    expect(instant).toBeLessThanOrEqual(after);
    expect(result.timeZone).toBe('Asia/Tokyo');
    expect(result.utcOffset).toBe('GMT+09:00');
    // Tokyo has no daylight saving: local time is UTC + 9 h exactly.
    const expectedLocal = new Date(instant + 9 * 3600_000)
      .toISOString()
      .slice(0, 19)
      .replace('T', ' ');
    expect(result.local).toBe(expectedLocal);
    expect(Object.isFrozen(result)).toBe(true);
  });

  it('defaults to the daemon zone when none is given', async () => {
    const result = (await E(makeTool(timestamp)).execute(harden({}))) as { timeZone: string };
    expect(result.timeZone).toBe(new Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('refuses an unknown zone with a clear error', async () => {
    await expect(
      E(makeTool(timestamp)).execute(harden({ timeZone: 'Mars/Olympus_Mons' })),
    ).rejects.toThrow(/unknown time zone "Mars\/Olympus_Mons"/);
  });
});

describe('greet', () => {
  it('greets in English by default and in a chosen language by code or name', async () => {
    const tool = makeTool(greet);
    expect(await E(tool).execute(harden({ name: 'Ada' }))).toEqual({
      greeting: 'Hello, Ada!',
      language: 'en',
    });
    expect(await E(tool).execute(harden({ name: 'Ada', language: 'fr' }))).toEqual({
      greeting: 'Bonjour, Ada !',
      language: 'fr',
    });
    expect(await E(tool).execute(harden({ name: 'Ada', language: 'Spanish' }))).toEqual({
      greeting: '¡Hola, Ada!',
      language: 'es',
    });
  });

  it('refuses an unknown language, listing the supported ones, and a missing name', async () => {
    const tool = makeTool(greet);
    await expect(E(tool).execute(harden({ name: 'Ada', language: 'klingon' }))).rejects.toThrow(
      /^greet: language must be one of en, fr, .*, got "klingon"$/,
    );
    await expect(E(tool).execute(harden({}))).rejects.toThrow(/name is required/);
  });
});

describe('math', () => {
  const cases: [string, number, number, number][] = [
    ['add', 40, 2, 42],
    ['subtract', 50, 8, 42],
    ['multiply', 6, 7, 42],
    ['divide', 84, 2, 42],
    ['modulo', -7, 3, -1],
    ['power', 2, 10, 1024],
  ];
  it.each(cases)('%s(%d, %d) = %d', async (operation, a, b, expected) => {
    const result = (await E(makeTool(math)).execute(harden({ operation, a, b }))) as {
      result: number;
    };
    expect(result.result).toBe(expected);
  });

  it('accepts numeric strings and bigints as operands', async () => {
    const result = (await E(makeTool(math)).execute(
      harden({ operation: 'add', a: '40', b: 2n }),
    )) as { result: number };
    expect(result.result).toBe(42);
  });

  it('refuses division and modulo by zero', async () => {
    const tool = makeTool(math);
    await expect(E(tool).execute(harden({ operation: 'divide', a: 1, b: 0 }))).rejects.toThrow(
      /division by zero/,
    );
    await expect(E(tool).execute(harden({ operation: 'modulo', a: 1, b: 0 }))).rejects.toThrow(
      /modulo by zero/,
    );
  });

  it('refuses non-finite operands, non-finite results, non-numbers and unknown operations', async () => {
    const tool = makeTool(math);
    await expect(E(tool).execute(harden({ operation: 'add', a: Infinity, b: 1 }))).rejects.toThrow(
      /a must be a finite number/,
    );
    await expect(E(tool).execute(harden({ operation: 'add', a: NaN, b: 1 }))).rejects.toThrow(
      /a must be a finite number/,
    );
    await expect(E(tool).execute(harden({ operation: 'power', a: 10, b: 400 }))).rejects.toThrow(
      /no finite result/,
    );
    await expect(E(tool).execute(harden({ operation: 'add', a: 'five', b: 1 }))).rejects.toThrow(
      /a must be a number, got a string/,
    );
    await expect(E(tool).execute(harden({ operation: 'root', a: 4, b: 2 }))).rejects.toThrow(
      /^math: operation must be one of add, subtract, .*, got "root"$/,
    );
    await expect(E(tool).execute(harden({ operation: 'add', a: 1 }))).rejects.toThrow(
      /b is required/,
    );
  });
});
