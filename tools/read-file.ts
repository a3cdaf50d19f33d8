/**
 * `readFile`: reads a text file inside the tool root, whole or a range of
 * lines, capped to a byte budget with a marker giving the original size.
 */
import type { Env } from '../providers/types.js';
import { openInside, toolRootFromEnv } from './lib/confine.js';
import { readTextFile } from './lib/file-io.js';
import { makeFaeTool } from './lib/make-fae-tool.js';
import { capText } from './lib/output-cap.js';
import { integer, optional, parameters, text, type ValuesOf } from './lib/fae-parameters.js';

const toolName = 'readFile';
const defaultMaxBytes = 64 * 1024;
const largestMaxBytes = 1024 * 1024;

/** Splits into lines; a final newline does not start another line. */
function splitLines(body: string): string[] {
  if (body === '') return [];
  const lines = body.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const readFileParameters = {
  path: text('File path relative to the working directory.'),
  offset: optional(integer('First line to read (1-based).', { min: 1 })),
  limit: optional(integer('How many lines to read.', { min: 1 })),
  maxBytes: optional(
    integer(`Cap on the returned text in bytes (default ${defaultMaxBytes}).`, {
      min: 1,
      max: largestMaxBytes,
    }),
  ),
};

async function readConfined(
  root: string,
  {
    path: userPath,
    offset,
    limit,
    maxBytes = defaultMaxBytes,
  }: ValuesOf<typeof readFileParameters>,
) {
  const handle = await openInside(root, userPath, 'read');
  let file: { text: string; totalBytes: number };
  try {
    file = await readTextFile(handle, userPath);
  } finally {
    await handle.close();
  }

  const lines = splitLines(file.text);
  const startLine = offset ?? 1;
  if (startLine > 1 && startLine > lines.length) {
    throw Error(
      `${toolName}: offset ${startLine} is past the end of ${JSON.stringify(userPath)} (${lines.length} lines)`,
    );
  }
  const wholeFile = offset === undefined && limit === undefined;
  const selected = wholeFile
    ? lines
    : lines.slice(startLine - 1, limit === undefined ? undefined : startLine - 1 + limit);
  const shown = wholeFile ? file.text : selected.map(line => `${line}\n`).join('');
  const capped = capText(shown, maxBytes);
  return {
    path: userPath,
    content: capped.text,
    truncated: capped.truncated,
    totalBytes: file.totalBytes,
    totalLines: lines.length,
    startLine,
    endLine: startLine - 1 + selected.length,
  };
}

export const make = (_powers?: unknown, _context?: unknown, options?: { env?: Env }) => {
  const root = toolRootFromEnv(options?.env, toolName);
  return makeFaeTool({
    name: toolName,
    description:
      'Read a text file inside the working directory, whole or a range of lines. Long output is cut with a marker.',
    parameters: parameters(readFileParameters),
    returns: '{ path, content, truncated, totalBytes, totalLines, startLine, endLine }',
    help: [
      'path is relative to the tool root; paths that lead outside it are refused.',
      `content is capped at maxBytes (default ${defaultMaxBytes}) with a marker giving the size.`,
    ].join('\n'),
    run: args => readConfined(root, args),
  });
};
harden(make);
