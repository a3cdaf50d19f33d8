/**
 * What `help()` tells about the running agent beyond its methods: each part
 * of the agent (tools, usage, the daemon it runs on, …) registers a section
 * that is read when help is asked for, so the text is always current.
 */
import { describeError } from '../../providers/describe-error.js';

export interface StatusBoard {
  /** Registers (or replaces) a section; `lines` is called on every help(). */
  section(title: string, lines: () => readonly string[]): void;
  /** The sections that have something to say, as text. */
  describe(): string;
}

export const makeStatusBoard = (): StatusBoard => {
  const sections = new Map<string, () => readonly string[]>();
  return {
    section(title, lines) {
      sections.set(title, lines);
    },
    describe() {
      const parts: string[] = [];
      for (const [title, lines] of sections) {
        let said: readonly string[];
        try {
          said = lines();
        } catch (error) {
          // A section that fails must not take help() down with it.
          said = [`(could not be read: ${describeError(error)})`];
        }
        if (said.length > 0) parts.push(`${title}:\n${said.map(line => `- ${line}`).join('\n')}`);
      }
      return parts.join('\n');
    },
  };
};
harden(makeStatusBoard);
