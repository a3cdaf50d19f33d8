/**
 * The tool caplets by the name the model calls them, with the module file
 * each is built to (`dist/tools/<file>`), so setup scripts can find them
 * without importing them (importing a tool needs SES lockdown; this module
 * does not, and holds only frozen data and a URL helper).
 */

export const toolModuleFiles = Object.freeze({
  timestamp: 'timestamp.js',
  greet: 'greet.js',
  math: 'math.js',
  readFile: 'read-file.js',
  writeFile: 'write-file.js',
  editFile: 'edit-file.js',
  listDir: 'list-dir.js',
  runCommand: 'run-command.js',
} as const);

export type ToolName = keyof typeof toolModuleFiles;

/** Tools that need no configuration. */
export const exampleToolNames: readonly ToolName[] = Object.freeze([
  'greet',
  'math',
  'timestamp',
] as const);

/** Tools confined to (or run in) the root named by FAE_CWD; making them without it fails. */
export const rootedToolNames: readonly ToolName[] = Object.freeze([
  'readFile',
  'writeFile',
  'editFile',
  'listDir',
  'runCommand',
] as const);

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(toolModuleFiles, name);
}

/**
 * The `file://` URL of a tool's module, next to this one: in `dist/tools/`
 * once built, which is what `makeUnconfined` needs.
 */
export function toolModuleUrl(name: ToolName): string {
  return new URL(`./${toolModuleFiles[name]}`, import.meta.url).href;
}
