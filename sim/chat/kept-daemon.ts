/**
 * The daemon double's identity, kept in the simulator's state folder
 * between runs as the real daemon keeps its own state: the seed its ids
 * come from (so the HOST and the agent have the same ids on every run, and
 * the agent's records of who it served still name them) and where each
 * inbox's message numbers had got to (so a new message never takes the
 * number of one the agent remembers), and each agent's undismissed text
 * messages (as the daemon keeps an inbox: an answer still pending for one, an
 * eval-proposal's outcome, is told in reply to it) and requests with how their
 * promise stood (a request waiting for the person's answer is still waiting,
 * and answered then, ../mail-host/kept-mail.ts; the HOST's own are its
 * requests and the messages that show the code a request asks to run,
 * ./code-requests.ts), and the newest daemon's channels with their posts,
 * members and the names that reach them (../mail-host/kept-channels.ts). One
 * entry per daemon generation, whose ids differ in length. Written whole to
 * a new file then renamed; a file of an earlier release, without mail or
 * channels, loads as keeping none.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  DaemonProfile,
  KeptChannelNames,
  KeptMessage,
  MailHost,
  SeededIdentity,
} from '../mail-host/index.js';
import { showsCodeToRun } from './code-requests.js';

const FILE = 'daemon.json';
const VERSION = 1;

interface KeptGeneration {
  seed: string;
  /** How many ids, from the first, the daemon had made when its agent started. */
  seeded: number;
  /** Each agent's next message number, by its AGENT id. */
  numbers: Record<string, string>;
  /** Each agent's undismissed text messages and requests, by its AGENT id (absent before this was kept). */
  mail?: Record<string, KeptMessage[]>;
  /** The newest daemon's channels, their posts, members and the names reaching them (absent before this was kept). */
  channels?: KeptChannelNames[];
}

interface KeptDaemonFile {
  version: number;
  generations: Partial<Record<DaemonProfile, KeptGeneration>>;
}

const isGeneration = (value: unknown): value is KeptGeneration => {
  const kept = value as KeptGeneration | null;
  return (
    typeof kept?.seed === 'string' &&
    /^[0-9a-f]+$/.test(kept.seed) &&
    Number.isSafeInteger(kept.seeded) &&
    typeof kept.numbers === 'object' &&
    kept.numbers !== null
  );
};

export const makeKeptDaemon = (folder: string, fresh: boolean) => {
  const path = join(folder, FILE);
  const read = (): KeptDaemonFile => {
    if (fresh || !existsSync(path)) return { version: VERSION, generations: {} };
    const file = JSON.parse(readFileSync(path, 'utf8')) as KeptDaemonFile;
    if (file.version !== VERSION) throw Error(`${path} is not a file this version can read`);
    return file;
  };
  const file = read();
  const started = new Map<DaemonProfile, number>();
  /** Written whole to a new file, then renamed: a run killed midway leaves the last one whole. */
  const write = () => {
    writeFileSync(`${path}.new`, JSON.stringify(file), { mode: 0o600 });
    renameSync(`${path}.new`, path);
  };

  return {
    path,
    /** The identity to make the daemon with: the one kept, else a new seed (every id at start drawn from it). */
    identity(profile: DaemonProfile): SeededIdentity {
      const kept = file.generations[profile];
      if (isGeneration(kept)) return harden({ seed: kept.seed, seeded: kept.seeded });
      const seed = randomBytes(32).toString('hex');
      file.generations[profile] = { seed, seeded: 0, numbers: {} };
      return harden({ seed, seeded: Number.POSITIVE_INFINITY });
    },
    /** Once the agent's guest is there: its numbering goes on, and what was made so far is its identity. */
    started(profile: DaemonProfile, mailHost: MailHost): void {
      const kept = file.generations[profile];
      if (kept !== undefined && isGeneration(kept)) {
        mailHost.continueNumbering(kept.numbers);
        if (typeof kept.mail === 'object' && kept.mail !== null) mailHost.putBackMail(kept.mail);
      }
      started.set(profile, mailHost.mintedIds());
    },
    /** Once the guest's own store is back: the channels kept, made again with their names. */
    async putBackChannels(profile: DaemonProfile, mailHost: MailHost): Promise<void> {
      const kept = file.generations[profile];
      if (isGeneration(kept) && Array.isArray(kept.channels))
        await mailHost.putBackChannels(kept.channels);
    },
    /** Writes the identity and the numbers reached. */
    save(profile: DaemonProfile, mailHost: MailHost): void {
      const kept = file.generations[profile];
      const seeded = started.get(profile);
      if (kept === undefined || seeded === undefined) return;
      file.generations[profile] = {
        seed: kept.seed,
        seeded,
        numbers: mailHost.messageNumbers(),
        mail: mailHost.keptMail(showsCodeToRun),
        channels: mailHost.keptChannels(),
      };
      write();
    },
    /**
     * Writes the numbers reached, the rest as last saved: the mail kept stays in step with the
     * agent's memory, saved with it after a turn (a message kept here that the memory does not
     * know as answered would be answered again).
     */
    saveNumbers(profile: DaemonProfile, mailHost: MailHost): void {
      const kept = file.generations[profile];
      const seeded = started.get(profile);
      if (kept === undefined || seeded === undefined) return;
      file.generations[profile] = { ...kept, seeded, numbers: mailHost.messageNumbers() };
      write();
    },
  };
};
harden(makeKeptDaemon);
