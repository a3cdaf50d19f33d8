/**
 * A tool source caplet for the toolbox tests and bench (src/toolbox/): the
 * product's tool source (tools/tool-source.ts) over the simulator's toolbox
 * (./toolbox-tools.ts: five servers' worth of tools, repository, calendar,
 * mail, files, tickets). `TOOLBOX_FROM` and `TOOLBOX_TO` in its env say
 * which of them it offers (0 to 60 unless they say).
 */
import { makeToolSource } from '../tools/tool-source.js';
import { make as makeToolboxTools, toolboxTools } from './toolbox-tools.js';

export const make = (
  _powers: unknown,
  _context: unknown,
  options: { env?: Record<string, string> } = {},
) => {
  const env: Record<string, string> = { TOOLBOX_TO: '60', ...options.env };
  const names = toolboxTools(Number(env.TOOLBOX_TO))
    .slice(Number(env.TOOLBOX_FROM ?? 0))
    .map(tool => tool.name);
  return makeToolSource(
    { tools: makeToolboxTools(undefined, undefined, { env }), names, left: [] },
    "the simulator's toolbox",
  );
};
harden(make);
