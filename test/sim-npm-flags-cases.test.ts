/**
 * The flags npm kept for itself (sim/npm-flags.ts, issue 45), judged at the module: given before
 * `--`, a program's flag becomes npm's setting (`npm_config_demo=true`) and a flag's value is
 * passed on alone; the one line names each flag taken, in the program's order, the values passed
 * on alone, and the command that works. Only under the program's own npm script, and an empty
 * setting is npm's default, not a flag given. sim-npm-flags judges it through the built programs.
 */
import { describe, expect, it } from 'vitest';
import { npmTookFlags } from '../sim/npm-flags.js';

const program = {
  script: 'start',
  command: 'npm start',
  whose: "the simulator's",
  flags: [
    { name: '--persona', takesValue: true },
    { name: '--demo', takesValue: false },
    { name: '--port', takesValue: true },
    { name: '--fresh', takesValue: false },
  ],
};
const underStart = { npm_lifecycle_event: 'start' };
const took = (argv: string[], env: Record<string, string>) =>
  npmTookFlags(program, argv, { ...underStart, ...env });

describe('no flag taken', () => {
  it('none set, or only npm’s own empty defaults', () => {
    expect(took([], {})).toBeUndefined();
    expect(took(['--demo'], { npm_config_demo: '', npm_config_yes: '' })).toBeUndefined();
  });

  it('another script’s run, or no npm at all: its settings are not the program’s flags', () => {
    expect(
      npmTookFlags(program, [], { npm_lifecycle_event: 'test', npm_config_demo: 'true' }),
    ).toBe(undefined);
    expect(npmTookFlags(program, [], { npm_config_demo: 'true' })).toBeUndefined();
  });
});

describe('the line for the flags taken', () => {
  it('a flag alone', () => {
    expect(took([], { npm_config_demo: 'true' })).toBe(
      "npm took --demo for itself: put -- before the simulator's flags: npm start -- --demo",
    );
  });

  it('a flag whose value npm passed on alone: the value put back after it', () => {
    expect(took(['fae'], { npm_config_persona: 'true' })).toBe(
      'npm took --persona for itself and passed on "fae" alone: put -- before the simulator\'s flags: npm start -- --persona fae',
    );
  });

  it('a flag that takes a value with none passed on, or a flag passed on after it: no value taken for it', () => {
    expect(took([], { npm_config_persona: 'true' })).toBe(
      "npm took --persona for itself: put -- before the simulator's flags: npm start -- --persona",
    );
    expect(took(['--verbose'], { npm_config_persona: 'true' })).toBe(
      "npm took --persona for itself: put -- before the simulator's flags: npm start -- --persona --verbose",
    );
  });

  it('a flag that takes no value leaves the word after it to the program', () => {
    expect(took(['hello'], { npm_config_demo: 'true' })).toBe(
      "npm took --demo for itself: put -- before the simulator's flags: npm start -- --demo hello",
    );
  });

  it('--persona=fae: npm kept the value too', () => {
    expect(took([], { npm_config_persona: 'fae' })).toBe(
      "npm took --persona=fae for itself: put -- before the simulator's flags: npm start -- --persona=fae",
    );
  });

  it('two flags: "and"; three or more: commas, then "and"; values passed on alone each in turn', () => {
    expect(took(['--verbose'], { npm_config_persona: 'fae', npm_config_fresh: 'true' })).toBe(
      "npm took --persona=fae and --fresh for itself: put -- before the simulator's flags: npm start -- --persona=fae --fresh --verbose",
    );
    expect(
      took(['fae', '8080', 'extra'], {
        npm_config_persona: 'true',
        npm_config_demo: 'true',
        npm_config_port: 'true',
      }),
    ).toBe(
      'npm took --persona, --demo and --port for itself and passed on "fae", "8080" alone: put -- before the simulator\'s flags: npm start -- --persona fae --demo --port 8080 extra',
    );
  });

  it('the program’s own command and words', () => {
    const double = {
      script: 'model-double',
      command: 'npm run model-double',
      whose: "the model double's",
      flags: [{ name: '--help', takesValue: false }],
    };
    expect(
      npmTookFlags(double, [], { npm_lifecycle_event: 'model-double', npm_config_help: 'true' }),
    ).toBe(
      "npm took --help for itself: put -- before the model double's flags: npm run model-double -- --help",
    );
  });
});
