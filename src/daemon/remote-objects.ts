/**
 * Small typed views of the remote objects the agent calls through `E()`
 * beyond its guest powers (guest-powers.ts): whatever a pet name holds is
 * only asked what every Endo exo answers.
 */

/** What any exo answers: its method names (the `__getMethodNames__` every exo has) and, often, help. */
export interface Introspectable {
  __getMethodNames__(): string[];
  help(methodName?: string): string;
}
