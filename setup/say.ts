/** Where setup scripts report progress: one line at a time, stdout by default. */
export type Say = (line: string) => void;

// Looked up at each call, so whoever replaces console.log later still gets the lines.
export const sayToConsole: Say = line => console.log(line);
harden(sayToConsole);

/** Where a setup script says it failed: stderr. */
export const sayToStderr: Say = line => console.error(line);
harden(sayToStderr);
