/**
 * The directories that "change in <dir>" wake-ups watch: each followed by
 * its name changes (the daemon's `followNameChanges`), and a name that
 * appears, changes or goes fires the wake-ups watching it. The names the
 * follower gives first (those already there) fire nothing.
 */
import { E } from '@endo/far';
import { describeError } from '../../providers/describe-error.js';
import type { MailStream } from '../daemon/daemon-adapter.js';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';

export interface DirectoryWatch {
  /** Follows every directory in `paths` not followed yet, and stops those no longer in it. */
  follow(paths: readonly string[]): void;
  stop(): void;
}

export const makeDirectoryWatch = (options: {
  powers: PowersRef;
  followNameChanges: (directory: unknown) => Promise<MailStream>;
  idOf: (value: unknown) => string | undefined;
  log: Log;
  changed: (path: string) => void;
}): DirectoryWatch => {
  const { powers, followNameChanges, idOf, log, changed } = options;
  const streams = new Map<string, MailStream | undefined>();
  let stopped = false;
  const close = (stream: MailStream | undefined) => {
    if (stream !== undefined) Promise.resolve(stream.return(undefined)).catch(() => {});
  };

  const start = async (path: string): Promise<void> => {
    const segments = path.split('/').filter(part => part !== '');
    const directory = await E(powers).lookup(segments);
    const there = new Set(
      ((await (E(directory as never) as { list(): Promise<string[]> }).list()) ?? []).map(String),
    );
    const stream = await followNameChanges(directory);
    if (stopped || !streams.has(path)) {
      close(stream);
      return;
    }
    streams.set(path, stream);
    const seen = new Map<string, string | undefined>();
    for (;;) {
      // eslint-disable-next-line no-await-in-loop -- one change at a time, as the daemon gives them
      const step = await stream.next();
      if (streams.get(path) !== stream) return;
      if (step.done) throw Error('the daemon ended it');
      const change = step.value as { add?: unknown; remove?: unknown; value?: unknown };
      if (typeof change.add === 'string') {
        const id = idOf(change.value);
        const first = !seen.has(change.add);
        seen.set(change.add, id);
        // The first showing of a name already there is the listing, not a change.
        if (first && there.delete(change.add)) continue;
        changed(path);
      } else if (typeof change.remove === 'string') {
        seen.delete(change.remove);
        there.delete(change.remove);
        changed(path);
      }
    }
  };

  return {
    follow(paths) {
      if (stopped) return;
      for (const [path, stream] of streams)
        if (!paths.includes(path)) {
          streams.delete(path);
          close(stream);
        }
      for (const path of paths) {
        if (streams.has(path)) continue;
        streams.set(path, undefined);
        start(path).catch((error: unknown) => {
          if (stopped) return;
          streams.delete(path);
          log(`cannot watch ${path}/ for changes (${describeError(error)}); its wake-ups wait`);
        });
      }
    },
    stop() {
      stopped = true;
      for (const stream of streams.values()) close(stream);
      streams.clear();
    },
  };
};
harden(makeDirectoryWatch);
