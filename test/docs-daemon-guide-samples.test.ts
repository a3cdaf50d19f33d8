/**
 * docs/daemon-guide.md's samples say what the reader's command does: a
 * sample whose output says the setup passed `LAL_HOST` (or `LAL_MODEL`) to
 * the agent sets it in the command printed (or upstream's `ENDO_LLM_HOST`,
 * `ENDO_LLM_MODEL`), since the script passes only the variables that are
 * set. A command printed without them starts an agent that thinks with
 * `qwen3` on the default Ollama, not with the model the sample shows.
 */
import { describe, expect, it } from 'vitest';
import { readRepoFile } from './support/repo-files.js';

interface Sample {
  line: number;
  command: string;
  output: string[];
}

/** Each `$ ` command of an indented block, with the lines it printed (to the next command or the block's end). */
const samplesOf = (text: string): Sample[] => {
  const samples: Sample[] = [];
  let current: Sample | undefined;
  text.split('\n').forEach((raw, index) => {
    const indented = /^ {4}(.*)$/.exec(raw);
    if (indented === null) {
      if (raw.trim() !== '') current = undefined;
      return;
    }
    const line = indented[1]!;
    if (line.startsWith('$ ')) {
      current = { line: index + 1, command: line.slice(2), output: [] };
      samples.push(current);
    } else current?.output.push(line);
  });
  return samples;
};

const passed = (output: readonly string[]): string[] =>
  output.flatMap(line => /, passing ([A-Z_, ]+)$/.exec(line)?.[1]?.split(', ') ?? []);

describe("docs/daemon-guide.md's setup samples", () => {
  const samples = samplesOf(readRepoFile('docs/daemon-guide.md'));

  it('are read: some say what they passed', () => {
    expect(samples.filter(sample => passed(sample.output).length > 0).length).toBeGreaterThan(3);
  });

  it.each(['HOST', 'MODEL'])(
    'set LAL_%s in the command when the output says it was passed',
    name => {
      for (const sample of samples) {
        if (!passed(sample.output).includes(`LAL_${name}`)) continue;
        expect(
          new RegExp(`\\b(?:LAL|ENDO_LLM)_${name}=`).test(sample.command),
          `line ${sample.line}: ${sample.command}`,
        ).toBe(true);
      }
    },
  );
});
