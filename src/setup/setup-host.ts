/**
 * The parts of the host's powers (EndoHost) the setup scripts call through
 * `E()`, and of a guest's powers they use to hand it tools. Written as plain
 * return types, as elsewhere in this package; `E()` makes each a promise.
 */
export interface MakeCapletOptions {
  powersName: string;
  resultName: string;
  env: Readonly<Record<string, string>>;
}

export interface SetupHost {
  has(...path: string[]): boolean;
  identify(...path: string[]): string | undefined;
  lookup(nameOrPath: string | string[]): unknown;
  provideGuest(
    name: string,
    options: { introducedNames?: Readonly<Record<string, string>>; agentName?: string },
  ): unknown;
  makeUnconfined(workerName: string, specifier: string, options: MakeCapletOptions): unknown;
  cancel(nameOrPath: string, reason?: Error): void;
}

export interface SetupGuest {
  has(...path: string[]): boolean;
  write(nameOrPath: string | string[], id: string): void;
}

/** What `endo run --UNCONFINED … --powers AGENT` hands to `main`: the host, or a promise for it. */
export type SetupHostRef = SetupHost | Promise<SetupHost>;

/** The worker the agents and tool caplets run on: the daemon's own. */
export const CAPLET_WORKER = 'MAIN';
