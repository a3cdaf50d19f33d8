/**
 * The parts of the host's powers (EndoHost) the setup scripts call through
 * `E()`, and of a guest's powers they use to hand it tools. A method may
 * answer at once or with a promise (the daemon's do the latter); `E()`
 * makes every call a promise either way.
 */
type Awaitable<T> = T | Promise<T>;

interface MakeCapletOptions {
  powersName: string;
  resultName: string;
  env: Readonly<Record<string, string>>;
}

interface SetupHost {
  has(...path: string[]): Awaitable<boolean>;
  identify(...path: string[]): Awaitable<string | undefined>;
  lookup(nameOrPath: string | string[]): Awaitable<unknown>;
  provideGuest(
    name: string,
    options: { introducedNames?: Readonly<Record<string, string>>; agentName?: string },
  ): Awaitable<unknown>;
  makeUnconfined(
    workerName: string,
    specifier: string,
    options: MakeCapletOptions,
  ): Awaitable<unknown>;
  cancel(nameOrPath: string, reason?: Error): Awaitable<void>;
  makeDirectory(nameOrPath: string | string[]): Awaitable<unknown>;
  /** f0a46042a; the newest daemon has storeIdentifier instead (see setup-daemon.ts). */
  write?(nameOrPath: string | string[], id: string): Awaitable<void>;
  storeIdentifier?(nameOrPath: string | string[], id: string): Awaitable<void>;
  remove(...path: string[]): Awaitable<void>;
  storeValue(value: unknown, nameOrPath: string | string[]): Awaitable<void>;
}

export interface SetupGuest {
  has(...path: string[]): Awaitable<boolean>;
  identify(...path: string[]): Awaitable<string | undefined>;
  write?(nameOrPath: string | string[], id: string): Awaitable<void>;
  storeIdentifier?(nameOrPath: string | string[], id: string): Awaitable<void>;
}

/** What `endo run --UNCONFINED … --powers AGENT` (or `@agent`) hands to `main`: the host, or a promise for it. */
export type SetupHostRef = SetupHost | Promise<SetupHost>;
