/**
 * The guest powers the agent calls through `E()` (docs/daemon-api.md, "Guest
 * powers"). Paths are arrays of names; message numbers are bigints.
 */
type NameOrPath = string | string[];

interface GuestPowers {
  help(methodName?: string): string;
  has(...path: string[]): boolean;
  identify(...path: string[]): string | undefined;
  list(...path: string[]): string[];
  /** The distinct formula ids in a directory, sorted. */
  listIdentifiers(...path: string[]): string[];
  lookup(nameOrPath: NameOrPath): unknown;
  reverseIdentify(id: string): string[];
  remove(...path: string[]): void;
  move(fromPath: string[], toPath: string[]): void;
  copy(fromPath: string[], toPath: string[]): void;
  makeDirectory(nameOrPath: NameOrPath): unknown;
  storeValue(value: unknown, nameOrPath: NameOrPath): void;
  listMessages(): unknown[];
  followMessages(): AsyncIterator<unknown>;
  send(recipient: NameOrPath, strings: string[], edgeNames: string[], petNames: NameOrPath[]): void;
  reply(number: bigint, strings: string[], edgeNames: string[], petNames: NameOrPath[]): void;
  /** Newest daemon only: the sender revises its own package; `done: false` while still being written. */
  editMessage?(
    number: bigint,
    strings: string[],
    edgeNames: string[],
    petNames: NameOrPath[],
    options?: { done?: boolean },
  ): void;
  dismiss(number: bigint): void;
  adopt(number: bigint, edgeName: string, petName: NameOrPath): void;
  request(recipient: NameOrPath, description: string, responseName?: NameOrPath): unknown;
  resolve(number: bigint, nameOrPath: NameOrPath): void;
  reject(number: bigint, reason?: string): void;
  evaluate(
    workerName: string | undefined,
    source: string,
    codeNames: string[],
    petNamesOrPaths: NameOrPath[],
    resultName?: string,
  ): unknown;
}

/** What the agent holds: a promise for, or a presence of, the guest powers. */
export type PowersRef = GuestPowers | Promise<GuestPowers>;
