/**
 * The real-daemon ping timer and its echo floors (docs/benchmark.md,
 * "Measuring both ratios in a real daemon"), run in the daemon double on
 * both daemon generations as `endo run` and `endo make` would: the timer as
 * the host, the floors as caplets on guests' powers, the agent through
 * make(). What is checked is what the figures rest on, never a time: every
 * ping is answered and timed, the agent makes one model call per ping, the
 * model-calling floor one and the model-free floor none, the host's inbox
 * is left as it was, and a guest that cannot answer stops the run naming it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { E, Far } from '@endo/far';
import { makeLoopback } from '@endo/captp';
import type { Introspectable } from '../src/daemon/remote-objects.js';
import { DAEMON_PROFILES, makeMailHost } from '../sim/mail-host/index.js';
import type { DaemonProfile, MailHost } from '../sim/mail-host/index.js';
import { startModelServer, type ModelServer } from '../sim/model-server/index.js';
import { pingReport, runPingTimer, timePings } from '../bench/real-daemon/ping-timer.js';
import { readPingTimerSettings } from '../bench/bench-settings.js';
import { parseRunRecords } from '../bench/real-daemon/speed-record.js';
import { ms } from '../bench/stats.js';
import { textOf } from './support/setup-harness.js';
import { useAgents } from './support/use-agents.js';
import { noticeNumber, useWireAgents, wireEnv } from './support/wire-agents.js';

const floorSource = new URL('../bench/real-daemon/echo-floor.ts', import.meta.url).href;
const FLOOR_NOTICE = 'Message #1 from HOST: ping';

const { start } = useAgents();
const { keepServer } = useWireAgents();
let floors: { host: MailHost; names: string[] }[] = [];
afterEach(async () => {
  for (const { host, names } of floors)
    await Promise.all(
      names.map(name =>
        E(host.host)
          .cancel(name)
          .catch(() => {}),
      ),
    );
  floors = [];
});

/** An OpenAI-wire model: an agent's ping is answered `pong: ping-<n>` with reply(); the floor's request with a word. */
const startPingModel = async (): Promise<ModelServer> => {
  const server = await startModelServer({
    protocol: 'openai',
    reply: request => {
      const notice = request.messages.filter(message => message.role === 'user').at(-1)?.text;
      const ping = /ping-\d+/.exec(notice ?? '')?.[0];
      if (notice === FLOOR_NOTICE || ping === undefined) return { text: 'ok' };
      return {
        toolCalls: [
          {
            name: 'reply',
            arguments: { messageNumber: noticeNumber(request), strings: [`pong: ${ping}`] },
          },
        ],
      };
    },
  });
  keepServer(server);
  return server;
};

/** `endo mkguest <guest> profile-for-<guest>` then `endo make --UNCONFINED echo-floor.js -p profile-for-<guest>`. */
const makeFloor = async (host: MailHost, guest: string, env: Record<string, string> = {}) => {
  await E(host.host).provideGuest(guest, { agentName: `profile-for-${guest}` });
  await E(host.host).makeUnconfined(`worker-${guest}`, floorSource, {
    powersName: `profile-for-${guest}`,
    resultName: `${guest}-floor`,
    env,
  });
  floors.push({ host, names: [`${guest}-floor`] });
};

const quick = { pings: 3, warmup: 2, gapMs: 0, timeoutMs: 10_000 };

describe.each(DAEMON_PROFILES)('on the %s daemon', (profile: DaemonProfile) => {
  test('times the agent against both floors: every ping answered, one model call each for the agent and the model-calling floor, none for the other', async () => {
    const host = makeMailHost({ profile });
    const server = await startPingModel();
    await start({ host, realProvider: true, env: wireEnv('openai', server.url) });
    await makeFloor(host, 'echollm', { LAL_HOST: server.url, LAL_MODEL: 'test-model' });
    await makeFloor(host, 'echo');

    const times = await timePings(host.host, ['lal', 'echollm', 'echo'], quick);

    expect(times.map(each => [each.guest, each.samples.length])).toEqual([
      ['lal', 3],
      ['echollm', 3],
      ['echo', 3],
    ]);
    for (const { samples } of times) for (const took of samples) expect(took).toBeGreaterThan(0);
    // Two warm-up rounds and three counted: five pings each.
    const chats = server.requests.filter(request => request.normalized !== undefined);
    const floorCalls = chats.filter(
      request => request.normalized?.messages.at(-1)?.text === FLOOR_NOTICE,
    );
    expect(floorCalls).toHaveLength(5);
    expect(chats.length - floorCalls.length).toBe(5);
    // The host's copies of the pings and every answer were dismissed.
    const left = (await E(host.host).listMessages()).map(textOf);
    expect(left.filter(text => /ping-\d+/.test(text))).toEqual([]);

    const report = pingReport(times, quick);
    expect(report).toHaveLength(5);
    expect(report[1]).toMatch(/^ {2}CPU not read/);
    expect(report[2]).toMatch(/^ {2}lal {6}median \d+\.\d+ ms, p90 \d+\.\d+ ms, \d+\.\d\d× echo$/);
    expect(report[4]).toMatch(/echo .*1\.00× echo$/);
  });

  test('run as endo run runs it (in the CLI, over CapTP): no rejected call to print raw, and its dismissals one at a time', async () => {
    // The CLI's CapTP prints every rejected answer ("Formula does not exist for pet name"), and a
    // burst of calls fills its socket, each write then waiting on 'drain' (MaxListenersExceededWarning).
    const host = makeMailHost({ profile });
    const server = await startPingModel();
    await start({ host, realProvider: true, env: wireEnv('openai', server.url) });
    await makeFloor(host, 'echo');
    const names = await E(host.host as unknown as Introspectable).__getMethodNames__();
    let inFlight = 0;
    let most = 0;
    const dismissed: unknown[] = [];
    const dismiss = async (...args: unknown[]) => {
      dismissed.push(args[0]);
      inFlight += 1;
      most = Math.max(most, inFlight);
      try {
        return await (E(host.host).dismiss as (...a: unknown[]) => Promise<unknown>)(...args);
      } finally {
        inFlight -= 1;
      }
    };
    const counted = Far(
      'HostPowers',
      Object.fromEntries(
        names
          .filter(name => name !== '__getMethodNames__')
          .map(name => [
            name,
            name === 'dismiss'
              ? dismiss
              : (...args: unknown[]) =>
                  (E(host.host) as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(
                    ...args,
                  ),
          ]),
      ),
    );
    const rejections: unknown[] = [];
    const { makeFar } = makeLoopback(
      'cli',
      { onReject: (reason: unknown) => rejections.push(reason) },
      { onReject: () => {} },
    );
    const powers = await makeFar(counted);

    const times = await timePings(powers as unknown as typeof host.host, ['lal', 'echo'], quick);

    expect(times.map(each => each.samples.length)).toEqual([3, 3]);
    expect(most).toBe(1);
    // Each once: a second dismissal of a number is refused (f0a46042a: "Invalid request number").
    expect(new Set(dismissed).size).toBe(dismissed.length);
    expect(rejections).toEqual([]);
    const left = (await E(host.host).listMessages()).map(textOf);
    expect(left.filter(text => /ping-\d+/.test(text))).toEqual([]);
  });

  test('after a daemon restart the floors answer at the first run: the timer wakes each <guest>-floor the daemon did not revive', async () => {
    const host = makeMailHost({ profile });
    await makeFloor(host, 'echo');
    await host.restart();

    const times = await timePings(host.host, ['echo'], { ...quick, timeoutMs: 5_000 });

    expect(times.map(each => each.samples.length)).toEqual([3]);
  });

  test('a floor whose model fails stops the run, naming the floor and why', async () => {
    const host = makeMailHost({ profile });
    const gone = await startPingModel();
    const { url } = gone;
    await gone.close();
    await makeFloor(host, 'echollm', { LAL_HOST: url, LAL_MODEL: 'test-model' });

    await expect(timePings(host.host, ['echollm'], quick)).rejects.toThrow(
      /^echollm could not answer ping-\d+: fetch failed$/,
    );
  });
});

test('each round pings the guests in an order of its own, so no guest always follows the same one', async () => {
  const host = makeMailHost();
  await makeFloor(host, 'one');
  await makeFloor(host, 'two');
  await makeFloor(host, 'three');
  const sent: string[] = [];
  // The host's powers, each method passed on; each send's recipient noted.
  const names = await E(host.host as unknown as Introspectable).__getMethodNames__();
  const methods = Object.fromEntries(
    names
      .filter(name => !name.startsWith('__'))
      .map(name => [
        name,
        (...args: unknown[]) => {
          if (name === 'send') sent.push(args[0] as string);
          return (E(host.host) as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(
            ...args,
          );
        },
      ]),
  );
  const powers = Far('host powers that note each send', methods);
  const guests = ['one', 'two', 'three'];
  const times = await timePings(powers as unknown as Parameters<typeof timePings>[0], guests, {
    ...quick,
    pings: 6,
  });
  expect(times.map(each => [each.guest, each.samples.length])).toEqual(
    guests.map(guest => [guest, 6]),
  );
  // Eight rounds, each guest once in each.
  expect(sent).toHaveLength(24);
  for (let round = 0; round < 8; round += 1)
    expect([...sent.slice(round * 3, round * 3 + 3)].sort()).toEqual([...guests].sort());
  for (const guest of guests) {
    const before = new Set(
      sent.flatMap((each, at) => (each === guest && at > 0 ? [sent[at - 1]] : [])),
    );
    before.delete(guest);
    // Every other guest came just before it at some round.
    expect([...before].sort(), `the guests before ${guest}`).toEqual(
      guests.filter(other => other !== guest).sort(),
    );
  }
});

test('a guest that never answers stops the run, naming it and the time it had', async () => {
  const host = makeMailHost();
  await E(host.host).provideGuest('nobody', { agentName: 'profile-for-nobody' });
  await expect(
    timePings(host.host, ['nobody'], { pings: 1, warmup: 2, gapMs: 0, timeoutMs: 50 }),
  ).rejects.toThrow(/^nobody did not answer ping-\d+ within 50 ms$/);
});

test('a floor for a server that is not OpenAI-compatible is refused when it is made', async () => {
  const host = makeMailHost();
  await E(host.host).provideGuest('echollm', { agentName: 'profile-for-echollm' });
  await expect(
    E(host.host).makeUnconfined('worker-echollm', floorSource, {
      powersName: 'profile-for-echollm',
      resultName: 'echollm-caplet',
      env: { LAL_HOST: 'http://127.0.0.1:11434', LAL_MODEL: 'qwen3' },
    }),
  ).rejects.toThrow(
    /FLOOR_ASK=fetch calls OpenAI-compatible servers only; LAL_HOST http:\/\/127\.0\.0\.1:11434 is ollama \(FLOOR_ASK=provider asks any\)/,
  );
});

test('a floor with FLOOR_ASK=provider asks as the agent would: its persona, the built-in tools, the message', async () => {
  const host = makeMailHost();
  const server = await startPingModel();
  await makeFloor(host, 'echosdk', {
    LAL_HOST: server.url,
    LAL_MODEL: 'test-model',
    LAL_PERSONA: 'fae',
    FLOOR_ASK: 'provider',
  });

  await timePings(host.host, ['echosdk'], { pings: 1, warmup: 2, gapMs: 0, timeoutMs: 10_000 });

  const asked = server.requests.flatMap(request => request.normalized ?? []);
  expect(asked).toHaveLength(3);
  for (const request of asked) {
    expect(request.messages[0]?.role).toBe('system');
    expect(request.messages[0]?.text).toMatch(/\bFae\b/);
    expect(request.toolNames).toContain('reply');
    expect(request.messages.at(-1)?.text).toMatch(/ping-\d+/);
  }
});

test('a floor refuses settings it cannot follow, naming them', async () => {
  const host = makeMailHost();
  const refused = async (guest: string, env: Record<string, string>) => {
    await E(host.host).provideGuest(guest, { agentName: `profile-for-${guest}` });
    return E(host.host).makeUnconfined(`worker-${guest}`, floorSource, {
      powersName: `profile-for-${guest}`,
      resultName: `${guest}-floor`,
      env,
    });
  };
  const url = 'http://127.0.0.1:9/v1';
  await expect(refused('a', { LAL_HOST: url, FLOOR_ASK: 'sdk' })).rejects.toThrow(
    /FLOOR_ASK is fetch or provider, got "sdk"/,
  );
  await expect(refused('b', { FLOOR_ASK: 'provider' })).rejects.toThrow(
    /needs LAL_HOST for FLOOR_ASK/,
  );
  await expect(
    refused('c', { LAL_HOST: url, FLOOR_ASK: 'provider', LAL_PERSONA: 'bob' }),
  ).rejects.toThrow(/LAL_PERSONA is lal or fae, got "bob"/);
});

test('the run endo run starts reads its settings and says one line per guest', async () => {
  const host = makeMailHost();
  await makeFloor(host, 'echo');
  const lines: string[] = [];
  await runPingTimer(host.host, ['echo'], { BENCH_PINGS: '2', BENCH_PING_GAP_MS: '0' }, line => {
    lines.push(line);
  });
  expect(lines[0]).toMatch(/^2 pings to each guest after 2 warm-up rounds, 0 ms apart/);
  // No daemon pid in what it reads (no BENCH_DAEMON_PID, no XDG_RUNTIME_DIR): wall time alone.
  expect(lines.slice(1)).toEqual([
    '  CPU not read (no daemon pid: set BENCH_DAEMON_PID or XDG_RUNTIME_DIR)',
    expect.stringMatching(/^ {2}echo {2}median .*, 1\.00× echo$/),
  ]);
});

test("with the CPU read, each counted ping's is kept for its guest, read before the send, at the answer and after the gap", async () => {
  const host = makeMailHost();
  await makeFloor(host, 'one');
  await makeFloor(host, 'two');
  // A tree whose worker has used one more ms at each reading: a ping spans one reading to the
  // answer and two to the next send.
  let readings = 0;
  const readCpu = () => {
    readings += 1;
    return {
      root: 1,
      processes: new Map([
        [1, { runNs: 0, waitNs: 0 }],
        [2, { runNs: readings * 1e6, waitNs: 0 }],
      ]),
    };
  };

  const times = await timePings(host.host, ['one', 'two'], quick, readCpu);

  // Three counted rounds of two guests, three readings each; none in the two warm-up rounds.
  expect(readings).toBe(3 * 2 * 3);
  for (const { cpu } of times) {
    expect(cpu).toHaveLength(3);
    for (const ping of cpu)
      expect(ping).toMatchObject({
        toAnswer: 1,
        workerToAnswer: 1,
        whole: 2,
        daemon: 0,
        worker: 2,
      });
  }
  const report = pingReport(times, quick);
  expect(report).toHaveLength(5);
  expect(report[2]).toMatch(
    /^ {7}CPU a ping: to the answer 1\.00 ms \(p25–p75 1\.00 ms–1\.00 ms\), 1\.00× two, daemon 0\.00 ms, its worker 1\.00 ms; whole 2\.00 ms .*, 1\.00× two, daemon 0\.00 ms, its worker 2\.00 ms, other workers 0\.00 ms; waited for a core 0\.00 ms before the answer$/,
  );
});

test('run as endo run with the daemon found: the CPU line under each guest, and the run appended to BENCH_PING_RECORD', async () => {
  const host = makeMailHost();
  await makeFloor(host, 'echo');
  const folder = mkdtempSync(join(tmpdir(), 'lal-fae-ping-record-'));
  try {
    const record = join(folder, 'runs.jsonl');
    const lines: string[] = [];
    const env = {
      BENCH_PINGS: '2',
      BENCH_PING_GAP_MS: '0',
      BENCH_PING_RECORD: record,
      // The double's daemon is this process.
      BENCH_DAEMON_PID: String(process.pid),
    };
    await runPingTimer(host.host, ['echo'], env, line => {
      lines.push(line);
    });
    await runPingTimer(host.host, ['echo'], env, () => {});
    // The floor against itself: 1.00×, or no ratio where this machine's clock read its ping as 0 ms.
    expect(lines[2]).toMatch(
      /^ {8}CPU a ping: to the answer \d+\.\d+ ms .*(1\.00× echo|no ratio \(echo read 0 ms: below the clock's step\))/,
    );
    const runs = parseRunRecords(readFileSync(record, 'utf8'), record);
    expect(runs).toHaveLength(2);
    expect(runs[0]!.guests.map(each => each.guest)).toEqual(['echo']);
    // The record holds the CPU the line printed (0 ms where CI's clock steps coarser than a ping).
    const printedWhole = /; whole (\d+\.\d+ ms)/.exec(lines[2]!)?.[1];
    expect(printedWhole).toBeDefined();
    expect(ms(runs[0]!.guests[0]!.cpu!.whole.median)).toBe(printedWhole);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('the settings: defaults, and a wrong value refused naming the variable', () => {
  expect(readPingTimerSettings({})).toEqual({
    pings: 20,
    warmup: 2,
    gapMs: 300,
    timeoutMs: 30_000,
  });
  expect(
    readPingTimerSettings({ BENCH_PINGS: '5', BENCH_PING_GAP_MS: '0', BENCH_PING_WARMUP: '0' }),
  ).toMatchObject({ pings: 5, gapMs: 0, warmup: 0 });
  expect(readPingTimerSettings({ BENCH_PING_WARMUP: '20' })).toMatchObject({ warmup: 20 });
  expect(() => readPingTimerSettings({ BENCH_PINGS: '0' })).toThrow(
    /"BENCH_PINGS" must be a whole number ≥ 1, got "0"/,
  );
  expect(() => readPingTimerSettings({ BENCH_PING_TIMEOUT_MS: 'soon' })).toThrow(
    /"BENCH_PING_TIMEOUT_MS" must be a whole number ≥ 1, got "soon"/,
  );
});

test('a floor whose CPU reads 0 ms (a clock coarser than its ping) gives no ratio, and says why', async () => {
  const host = makeMailHost();
  await makeFloor(host, 'one');
  await makeFloor(host, 'two');
  // A clock that never moves: every reading the same, as where schedstat counts whole ticks.
  const readCpu = () => ({
    root: 1,
    processes: new Map([[1, { runNs: 0, waitNs: 0 }]]),
  });

  const report = pingReport(await timePings(host.host, ['one', 'two'], quick, readCpu), quick);

  expect(report.join('\n')).not.toMatch(/NaN|Infinity/);
  expect(report[2]).toMatch(
    /^ {7}CPU a ping: to the answer 0\.00 ms .*, no ratio \(two read 0 ms: below the clock's step\), daemon .*; whole 0\.00 ms .*, no ratio \(two read 0 ms: below the clock's step\), daemon /,
  );
});
