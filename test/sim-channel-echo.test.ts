/**
 * The simulator's echo of a channel (sim/chat/channel-echo.ts; docs/behaviour.md 10.5), on the
 * newest daemon's double through E(): what another member posts is shown once, the person's own
 * posts never, and a post of the person's naming the agent is owed an answer until the agent
 * replies to it or the turn answering it ends (a piped script waits for it).
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { makeChannelEcho } from '../sim/chat/channel-echo.js';
import { makePresenter } from '../sim/chat/presenter.js';
import { makePlainScreen } from '../sim/chat/screen.js';

type Far = any;

/** Resolves once `check` holds, looked at after each line printed. */
const printedUntil = (check: () => boolean, onLine: Set<() => void>) =>
  new Promise<void>(resolve => {
    const look = () => {
      if (!check()) return;
      onLine.delete(look);
      resolve();
    };
    onLine.add(look);
    look();
  });

/** Resolves once `check` holds, looked at each turn of the event loop (the stream reads in between). */
const until = (check: () => boolean) =>
  new Promise<void>(resolve => {
    const look = () => (check() ? resolve() : setImmediate(look));
    look();
  });

const setUp = async () => {
  const mailHost = makeMailHost({ profile: 'newest' });
  const admin = await E(mailHost.host as Far).makeChannel('room', 'you');
  const join = async (name: string) => {
    await E(admin).createInvitation(name);
    return E(admin).join(name) as Promise<Far>;
  };
  const lines: string[] = [];
  const onLine = new Set<() => void>();
  const screen = makePlainScreen(text => {
    lines.push(...text.split('\n').filter(line => line !== ''));
    for (const look of [...onLine]) look();
  });
  const presenter = makePresenter(screen, 'lal');
  const echo = makeChannelEcho({ screen, presenter, agentName: 'lal', report: () => {} });
  return { admin, join, lines, onLine, echo };
};

describe("the simulator's echo of a channel", () => {
  test("shows another member's posts once, never the person's own, and owes a mention its answer", async () => {
    const { admin, join, lines, onLine, echo } = await setUp();
    const bob = await join('bob');
    const lal = await join('lal');
    echo.postsAs('room', await E(admin).getMemberId());
    echo.postsAs('room', await E(bob).getMemberId());
    await echo.follow('room', admin);
    await E(bob).post(['what is 2+2? @LAL'], [], []);
    // Seen on the stream, which the echo reads as it comes: owed once it is.
    await until(() => echo.owesAnswer());
    await E(admin).post(['no mention here'], [], []);
    await E(lal).post(['Four.'], [], [], '0');
    await printedUntil(() => lines.some(line => line.includes('Four.')), onLine);
    expect(echo.owesAnswer()).toBe(false);
    expect(lines).toEqual(['#2 lal in room (re #0) › Four.']);
    echo.stop();
  });

  test('a mention whose turn ended without a reply (the model failed) is owed nothing more', async () => {
    const { admin, join, echo } = await setUp();
    const bob = await join('bob');
    echo.postsAs('room', await E(bob).getMemberId());
    await echo.follow('room', admin);
    await E(bob).post(['hi @lal'], [], []);
    await until(() => echo.owesAnswer());
    // Another post's turn ending leaves it owed; its own ending does not.
    const ended = (title: string) =>
      echo.see({
        kind: 'turn-end',
        title,
        stopReason: 'error',
        modelCalls: 1,
        usage: { inputTokens: 0, outputTokens: 0 },
      });
    ended('in channel "general": #7 from "bob"');
    expect(echo.owesAnswer()).toBe(true);
    ended('in channel "general": #0 from "bob"');
    expect(echo.owesAnswer()).toBe(false);
    echo.stop();
  });
});
