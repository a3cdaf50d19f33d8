/**
 * The folder layout is the architecture (docs/architecture.md): the agent does not reach into the
 * tool caplets or the doubles, the providers stand on their own, and tools/ holds caplets at its
 * top level with their shared helpers in tools/lib/. These rules are read from the import
 * statements of the files themselves, so a change that breaks one fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

interface Rule {
  /** The folder whose files are checked. */
  from: string;
  /** Folders (or files) they may not import. */
  forbidden: string[];
  /** Exceptions: files they may import although they sit in a forbidden folder. */
  allowed?: string[];
  why: string;
}

export const RULES: readonly Rule[] = [
  {
    from: 'providers',
    forbidden: ['src', 'tools', 'sim', 'setup', 'bench', 'test', 'agent.ts'],
    why: 'the providers are a library of their own: the agent uses them, never the other way round',
  },
  {
    from: 'src',
    forbidden: ['tools', 'sim', 'setup', 'bench', 'test', 'setup.ts', 'setup-tools.ts'],
    why: 'the agent runs in its own worker: it must not load the tool caplets, the doubles or provisioning code',
  },
  {
    from: 'tools',
    forbidden: ['src', 'sim', 'setup', 'bench', 'test', 'agent.ts'],
    // The FaeTool interface guard is the contract between the agent and its tools; the MCP
    // bridge makes its schemas fit with the agent's own check (one normaliser, not two), and a
    // caplet checks a call's argument names with the agent's own check (one check, not two); the
    // list of this package's tools is one, read by the agent and the setup scripts.
    allowed: [
      'src/agent-tools/fae-tool.ts',
      'src/agent-tools/check-tool-schema.ts',
      'src/agent-tools/check-fae-arguments.ts',
      'src/agent-tools/package-tools.ts',
    ],
    why: 'a tool caplet runs in a worker of its own and shares only the FaeTool contract with the agent',
  },
];

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** The repository-relative files that a source text imports by relative path. */
export const importsOf = (file: string, text: string): string[] =>
  [...text.matchAll(SPECIFIER)].map(match =>
    path.normalize(path.join(path.dirname(file), match[1]!)).replace(/\.js$/, '.ts'),
  );

const within = (file: string, place: string) => file === place || file.startsWith(`${place}/`);

/** Every import that breaks a rule, as "file → import (why)". */
export const breaches = (
  sources: ReadonlyMap<string, string>,
  rules: readonly Rule[] = RULES,
): string[] =>
  [...sources].flatMap(([file, text]) =>
    rules
      .filter(rule => within(file, rule.from))
      .flatMap(rule =>
        importsOf(file, text)
          .filter(target => rule.forbidden.some(place => within(target, place)))
          .filter(target => !(rule.allowed ?? []).includes(target))
          .map(target => `${file} → ${target} (${rule.why})`),
      ),
  );

const sourcesUnder = (folder: string): [string, string][] =>
  readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter(name => name.endsWith('.ts'))
    .map(name => {
      const file = path.join(folder, name);
      return [file, readFileSync(path.join(ROOT, file), 'utf8')];
    });

describe('layout (docs/architecture.md)', () => {
  test('no folder imports what it may not', () => {
    const sources = new Map(['providers', 'src', 'tools'].flatMap(sourcesUnder));
    expect(sources.size).toBeGreaterThan(50);
    expect(breaches(sources)).toEqual([]);
  });

  test('the check catches providers/ importing src/, src/ importing tools/, and tools/ importing src/', () => {
    const planted = new Map([
      ['providers/config.ts', "import { DEFAULT_LIMITS } from '../src/config/config.js';"],
      ['src/setup/plan.ts', "import { toolModuleFiles } from '../../tools/index.js';"],
      ['src/run-agent.ts', "const { make } = await import('../tools/math.js');"],
      [
        'tools/math.ts',
        "import type { Log } from '../src/log/log.js';\nimport { FaeToolInterface } from '../src/agent-tools/fae-tool.js';",
      ],
      ['src/serving/serve-turn.ts', "import { cut } from './mail/message-record.js';"],
    ]);
    expect(breaches(planted).map(line => line.split(' (')[0])).toEqual([
      'providers/config.ts → src/config/config.ts',
      'src/setup/plan.ts → tools/index.ts',
      'src/run-agent.ts → tools/math.ts',
      'tools/math.ts → src/log/log.ts',
    ]);
  });

  test('tools/ holds caplets at its top level (each exports make) and its helpers in tools/lib/', () => {
    const top = readdirSync(path.join(ROOT, 'tools'), { withFileTypes: true });
    const folders = top.filter(entry => entry.isDirectory()).map(entry => entry.name);
    expect(folders).toEqual(['lib']);
    const notCaplets = top
      .filter(entry => entry.isFile() && entry.name.endsWith('.ts') && entry.name !== 'index.ts')
      .filter(
        entry =>
          !/export (?:function|const) make\b/.test(
            readFileSync(path.join(ROOT, 'tools', entry.name), 'utf8'),
          ),
      )
      .map(entry => entry.name);
    expect(notCaplets).toEqual([]);
  });
});
