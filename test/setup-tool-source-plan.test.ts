/**
 * setup-tools' plan of the tool source caplet (setup/tool-source-plan.ts):
 * FAE_TOOL_MODULES read and checked before anything is made, each path made
 * absolute (a caplet's worker runs elsewhere), built-in tools kept by name,
 * FAE_TOOL_ENV's names passed on, and FAE_TOOL_ISOLATE held to the names
 * this run makes.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planToolSource, readIsolated } from '../setup/tool-source-plan.js';

const specifier = 'file:///dist/tools/tool-source.js';
const toolsFolder = fileURLToPath(new URL('../tools/', import.meta.url));

describe('the tool source plan', () => {
  it('makes nothing without FAE_TOOL_MODULES, and plans tool-source with the modules made absolute', () => {
    expect(planToolSource({}, '/', specifier)).toBeUndefined();
    expect(planToolSource({ FAE_TOOL_MODULES: ' , ' }, '/', specifier)).toBeUndefined();
    const plan = planToolSource(
      {
        FAE_TOOL_MODULES: 'math, math.ts ,readFile',
        FAE_TOOL_ENV: 'REGION,  KEY_FILE',
        REGION: 'here',
        FAE_CWD: '/work',
        UNRELATED: 'never',
      },
      toolsFolder,
      specifier,
    );
    expect(plan).toEqual({
      petName: 'tool-source',
      specifier,
      env: {
        FAE_CWD: '/work',
        REGION: 'here',
        TOOL_MODULES: `math,${path.join(toolsFolder, 'math.ts')},readFile`,
      },
    });
    expect(
      planToolSource({ FAE_TOOL_MODULES: 'math', FAE_TOOL_SOURCE: ' work-tools ' }, '/', specifier)
        ?.petName,
    ).toBe('work-tools');
  });

  it('keeps a file:// URL as given', () => {
    const url = new URL('../tools/math.ts', import.meta.url).href;
    expect(planToolSource({ FAE_TOOL_MODULES: url }, '/', specifier)?.env.TOOL_MODULES).toBe(url);
  });

  it('refuses a name or a variable name with anything after what is allowed', () => {
    expect(() =>
      planToolSource({ FAE_TOOL_MODULES: 'math', FAE_TOOL_SOURCE: 'tools!' }, '/', specifier),
    ).toThrow('FAE_TOOL_SOURCE must be a pet name (lower case, digits, -), got "tools!"');
    expect(() =>
      planToolSource({ FAE_TOOL_MODULES: 'math', FAE_TOOL_ENV: 'REGION-2' }, '/', specifier),
    ).toThrow(/"REGION-2" cannot be one/);
  });

  it('refuses a module that does not exist, a name that is no pet name, and a variable name that is none', () => {
    expect(() =>
      planToolSource({ FAE_TOOL_MODULES: 'missing.js' }, toolsFolder, specifier),
    ).toThrow(/The caplet module ".*missing\.js" does not exist/);
    expect(() =>
      planToolSource({ FAE_TOOL_MODULES: 'math', FAE_TOOL_SOURCE: 'My Tools' }, '/', specifier),
    ).toThrow('FAE_TOOL_SOURCE must be a pet name (lower case, digits, -), got "My Tools"');
    expect(() =>
      planToolSource({ FAE_TOOL_MODULES: 'math', FAE_TOOL_ENV: 'A,1B' }, '/', specifier),
    ).toThrow(
      'FAE_TOOL_ENV names variables to pass to the tool source, separated by commas; "1B" cannot be one',
    );
  });

  it('isolates only tools this run makes', () => {
    const plans = [
      { petName: 'math-tool', specifier, env: {} },
      { petName: 'tool-source', specifier, env: {} },
    ];
    expect([...readIsolated({}, plans)]).toEqual([]);
    expect([...readIsolated({ FAE_TOOL_ISOLATE: 'tool-source, math-tool' }, plans)]).toEqual([
      'tool-source',
      'math-tool',
    ]);
    expect(() => readIsolated({ FAE_TOOL_ISOLATE: 'math' }, plans)).toThrow(
      'FAE_TOOL_ISOLATE names "math", which this run does not make; it makes "math-tool, tool-source"',
    );
  });
});
