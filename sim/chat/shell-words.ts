/**
 * The words of an `/attach` line as a shell reads them, for both its forms (a tool's folder,
 * ./attach-tool.ts; an MCP server's command and arguments, ./attach-mcp.ts): split at spaces
 * outside quotes; quotes taken off wherever they stand in a word (`~/"my dir"`), `'…'` kept as
 * written, `"…"` but for `\"` and `\\`; a backslash outside quotes keeps the next character
 * (`my\ dir`); and `~` at the start of a word, unquoted, alone or before `/`, is the home folder
 * (./home-path.ts). A quoted `~` is kept, as a shell keeps it.
 */
import { expandTilde, homeFolder, LEADING_TILDE } from './home-path.js';

export interface ShellWord {
  /** As a program is given it: quotes and escapes taken off, a leading `~` the home folder. */
  text: string;
  /** As typed. */
  typed: string;
  /** A leading `~` was made the home folder. */
  expanded: boolean;
  /** It begins with a quoted `~` (`"~/x"`), which stays a `~`. */
  quotedTilde: boolean;
}

const SPACE = /\s/;

/** The text of a quoted part starting at `at` (a quote), and where it ends; throws when it is not closed. */
const quoted = (line: string, at: number): { text: string; next: number } => {
  const quote = line[at]!;
  let text = '';
  let index = at + 1;
  while (index < line.length && line[index] !== quote) {
    const escaped = quote === '"' && line[index] === '\\' && /["\\]/.test(line[index + 1] ?? '');
    if (escaped) index += 1;
    text += line[index];
    index += 1;
  }
  if (index >= line.length) throw Error(`A quote is not closed: ${line.slice(at)}`);
  return { text, next: index + 1 };
};

/** The line's words; throws, saying so, when a quote is not closed. */
export const readShellWords = (
  line: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ShellWord[] => {
  const words: ShellWord[] = [];
  let index = 0;
  while (index < line.length) {
    if (SPACE.test(line[index]!)) {
      index += 1;
      continue;
    }
    const start = index;
    let text = '';
    while (index < line.length && !SPACE.test(line[index]!)) {
      const char = line[index]!;
      if (char === '"' || char === "'") {
        const part = quoted(line, index);
        text += part.text;
        index = part.next;
      } else if (char === '\\' && index + 1 < line.length) {
        text += line[index + 1];
        index += 2;
      } else {
        text += char;
        index += 1;
      }
    }
    const typed = line.slice(start, index);
    // Typed unquoted at the word's start, before `/` or alone: the text starts with it as typed.
    const expanded = LEADING_TILDE.test(typed);
    words.push({
      text: expanded ? expandTilde(text, homeFolder(env)) : text,
      typed,
      expanded,
      quotedTilde: /^["']~/.test(typed),
    });
  }
  return words;
};
harden(readShellWords);
