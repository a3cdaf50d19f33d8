/**
 * Names listed in the agent's words to the model, each in double quotes: the nearest names of an
 * unknown tool (src/agent-tools/unknown-tool.ts) and of a name a failed call gave
 * (src/builtin-tools/explain-failure.ts), one form for both, so the model reads every such list
 * alike. In the base layer, below the records and the capabilities that both need it
 * (docs/architecture.md, "Layers").
 */
export const quoteNames = (names: readonly string[]): string =>
  names.map(name => `"${name}"`).join(', ');
harden(quoteNames);
