/**
 * The tool caplets this package gives (tools/), by the name the model calls
 * them, with the module file each is built to (`dist/tools/<file>`): the one
 * list of them. tools/index.ts offers it to setup scripts; the agent reads
 * its names as tools known at start (../toolbox/own-tool-names.ts), since a
 * policy list may name one before it is given (LAL_TOOLS_DENY=runCommand).
 * Data only: the agent loads no tool caplet.
 */
export const PACKAGE_TOOL_FILES = Object.freeze({
  timestamp: 'timestamp.js',
  greet: 'greet.js',
  math: 'math.js',
  readFile: 'read-file.js',
  writeFile: 'write-file.js',
  editFile: 'edit-file.js',
  listDir: 'list-dir.js',
  runCommand: 'run-command.js',
} as const);
harden(PACKAGE_TOOL_FILES);
