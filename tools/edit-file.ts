/**
 * `editFile`: replaces one exact occurrence of a string in a file inside the
 * tool root. The replacement is inserted literally (no `$&`/`$1` patterns:
 * String.prototype.replace is deliberately not used).
 */
import type { Env } from '../providers/types.js';
import { openInside, toolRootFromEnv } from './lib/confine.js';
import { readTextFile, writeWholeFile } from './lib/file-io.js';
import { makeFaeTool } from './lib/make-fae-tool.js';
import { parameters, text, type ValuesOf } from './lib/fae-parameters.js';

const toolName = 'editFile';

/** Every start index of `needle` in `haystack`, overlapping ones included (they are ambiguous too). */
function findAll(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    found.push(at);
  }
  return found;
}

function lineOf(body: string, index: number): number {
  let line = 1;
  for (let at = body.indexOf('\n'); at !== -1 && at < index; at = body.indexOf('\n', at + 1)) {
    line += 1;
  }
  return line;
}

const editFileParameters = {
  path: text('File path relative to the working directory.'),
  oldString: text('Exact text to replace; must occur exactly once in the file.'),
  newString: text('Replacement text, inserted literally.', { allowEmpty: true }),
};

async function editConfined(
  root: string,
  { path: userPath, oldString, newString }: ValuesOf<typeof editFileParameters>,
) {
  const handle = await openInside(root, userPath, 'update');
  try {
    const { text: body } = await readTextFile(handle, userPath);
    const matches = findAll(body, oldString);
    const [at] = matches;
    if (at === undefined) {
      throw Error(
        `${toolName}: oldString not found in ${JSON.stringify(userPath)} (0 matches); it must match exactly once, whitespace included`,
      );
    }
    if (matches.length > 1) {
      throw Error(
        `${toolName}: oldString matches ${matches.length} places in ${JSON.stringify(userPath)} (lines ${matches
          .slice(0, 10)
          .map(index => lineOf(body, index))
          .join(', ')}); include more surrounding text so it matches exactly once`,
      );
    }
    const edited = body.slice(0, at) + newString + body.slice(at + oldString.length);
    const bytesWritten = await writeWholeFile(handle, edited);
    return { path: userPath, line: lineOf(body, at), bytesWritten };
  } finally {
    await handle.close();
  }
}

export const make = (_powers?: unknown, _context?: unknown, options?: { env?: Env }) => {
  const root = toolRootFromEnv(options?.env, toolName);
  return makeFaeTool({
    name: toolName,
    description:
      'Replace one exact occurrence of oldString with newString in a text file inside the working directory.',
    parameters: parameters(editFileParameters),
    returns: '{ path, line, bytesWritten }',
    help: [
      'oldString must match exactly once: zero or several matches are refused with the count.',
      'newString is written literally ($&, $1 and $$ are not patterns).',
    ].join('\n'),
    run: args => editConfined(root, args),
  });
};
harden(make);
