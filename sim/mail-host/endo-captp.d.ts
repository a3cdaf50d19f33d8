// @endo/captp ships JavaScript without declarations; this is the part the mail host uses.
declare module '@endo/captp' {
  export interface Loopback {
    /** Exports `value` from the far side; resolves to the presence the near side sees. */
    makeFar<T>(value: T | Promise<T>): Promise<T>;
    /** Exports `value` from the near side; resolves to the presence the far side sees. */
    makeNear<T>(value: T | Promise<T>): Promise<T>;
    isOnlyNear(value: unknown): boolean;
    isOnlyFar(value: unknown): boolean;
  }
  export interface CapTPOptions {
    onReject?: (reason: unknown) => void;
    /** Called with each value this side exports, as it is first sent. */
    exportHook?: (value: unknown, slot: string) => void;
  }
  export function makeLoopback(
    ourId: string,
    nearOptions?: CapTPOptions,
    farOptions?: CapTPOptions,
  ): Loopback;
}
