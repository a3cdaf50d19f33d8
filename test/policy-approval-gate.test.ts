/**
 * The approval gate's answers across a restart (src/asks/approval-gate.ts): what the model is
 * told for each way a stored approval ended, which yes leaves an allowance (once, for the call the
 * HOST saw), and what help() lists as pending. The live paths are in agent-tool-policy.test.ts
 * and agent-pending-restart.test.ts; `npm run mutation -- approval-gate` judges these.
 */
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import type { PowersRef } from '../src/daemon/guest-powers.js';
import { makeNoticeQueue } from '../src/serving/notices.js';
import type { Notice } from '../src/mail/origin.js';
import { emptyAskStore, makePendingAsks, type StoredAsk } from '../src/asks/pending-asks.js';
import { makeApprovalGate } from '../src/asks/approval-gate.js';
import { digestOfCall } from '../src/policy/describe-call.js';

const setUp = (approver?: string, kept?: string[][]) => {
  // Each request to the HOST, settled by the test (resolve: yes; reject: no).
  const requests: {
    description: string;
    resolve: (value: unknown) => void;
    reject: (error: Error) => void;
  }[] = [];
  const powers = Far('powers', {
    dismiss: () => {},
    request: (_to: string, description: string) =>
      new Promise((resolve, reject) => requests.push({ description, resolve, reject })),
  }) as unknown as PowersRef;
  const notices: Notice[] = [];
  const queue = makeNoticeQueue(() => notices.push(...queue.take()));
  const asks = makePendingAsks({ store: emptyAskStore(), powers, log: () => {} });
  const gate = makeApprovalGate({
    powers,
    notices: queue,
    asks,
    agentName: 'Lal',
    ...(approver === undefined ? {} : { approver }),
    ...(kept === undefined
      ? {}
      : { keep: (title: string, text: string) => kept.push([title, text]) }),
  });
  return { gate, notices, asks, requests };
};

const action = 'deploy {"to":"prod"}';
const stored = (detail: Record<string, unknown>, origin = true): StoredAsk => ({
  id: 'a7',
  kind: 'approval',
  recipient: 'HOST',
  description: 'Lal asks to call deploy',
  ...(origin ? { origin: { number: '3', sender: 'alice' } } : {}),
  detail,
});

describe('an approval that ended while the agent restarted', () => {
  test('a yes for a whole call: told to call it again, which then runs once without asking', async () => {
    const { gate, notices } = setUp();
    await gate.resume(stored({ action, digest: digestOfCall(action) }), 'fulfilled');
    expect(notices.map(notice => [notice.origin, notice.text])).toEqual([
      [
        { number: 3n, sender: 'alice' },
        `APPROVED: HOST approved the call ${action} (approval a7), but I restarted meanwhile, so it has not run yet.\nNext: call it again now with exactly the same arguments; it runs without asking. Then tell alice, who asked in message #3 (use reply(3, …)).`,
      ],
    ]);
    expect(gate.takeAllowance(digestOfCall(action))).toBe(true);
    expect(gate.takeAllowance(digestOfCall(action))).toBe(false);
  });

  test('a yes for a call kept only in part: it did not run, and no allowance is left', async () => {
    const { gate, notices } = setUp();
    await gate.resume(stored({ action: 'deploy {"to":"pr' }), 'fulfilled');
    expect(notices[0]!.text).toMatch(
      /^APPROVED: HOST approved the call deploy \{"to":"pr \(approval a7\), but I restarted meanwhile and kept only part of the call, so it did not run\./,
    );
    expect(gate.takeAllowance(digestOfCall('deploy {"to":"pr'))).toBe(false);
  });

  test('lost, interrupted or refused: told so, by the approver named, and no allowance is left', async () => {
    const texts: string[] = [];
    for (const settlement of ['lost', 'interrupted', 'rejected'] as const) {
      const { gate, notices } = setUp('boss');
      await gate.resume(stored({ action, digest: digestOfCall(action) }, false), settlement);
      expect(gate.takeAllowance(digestOfCall(action))).toBe(false);
      texts.push(notices[0]!.text);
    }
    expect(texts[0]).toBe(
      `NOT RUN: I restarted while waiting for boss's answer about the call ${action} (approval a7), and the request is no longer in my inbox; it did not run.\nNext: call it again if it is still needed (boss is asked again), and tell whoever asked for it.`,
    );
    expect(texts[1]).toBe(
      `UNKNOWN: boss approved the call ${action} (approval a7) and it was running when I restarted; I cannot tell whether it finished.\nNext: check whether it took effect before calling it again (boss is asked again), and tell whoever asked for it.`,
    );
    expect(texts[2]).toMatch(
      /refused \(the reason did not reach me: I learnt the answer from my copy of the request, which keeps only that it was refused\)/,
    );
  });

  test('cancelled while it ran (Ctrl-C): told CANCELLED with the reason stored, or that none was given; no allowance', async () => {
    const texts: string[] = [];
    for (const cancelReason of ['the host stopped the turn (Ctrl-C)', undefined]) {
      const { gate, notices } = setUp('boss');
      const ask = stored({ action, digest: digestOfCall(action) });
      await gate.resume(cancelReason === undefined ? ask : { ...ask, cancelReason }, 'cancelled');
      expect(gate.takeAllowance(digestOfCall(action))).toBe(false);
      texts.push(notices[0]!.text);
    }
    expect(texts).toEqual([
      `CANCELLED: boss approved the call ${action} (approval a7), and it was running when I was cancelled (the host stopped the turn (Ctrl-C)): the call was stopped before it answered, so it did not finish.\nNext: check what it did before it was stopped before calling it again (boss is asked again), and tell alice, who asked in message #3 (use reply(3, …)).`,
      expect.stringContaining('it was running when I was cancelled (no reason given): '),
    ]);
  });

  test('cancelled while it ran, on the approver’s own message: kept for the next turn, no notice (no model call); on another’s, told', async () => {
    const kept: string[][] = [];
    const own = setUp('boss', kept);
    const ask = stored({ action, digest: digestOfCall(action) });
    const cancelReason = 'the host stopped the turn (Ctrl-C)';
    await own.gate.resume(
      { ...ask, cancelReason, origin: { number: '4', sender: 'boss' } },
      'cancelled',
    );
    expect(own.notices).toEqual([]);
    expect(kept).toEqual([
      [
        'outcome: a7 CANCELLED',
        `CANCELLED: boss approved the call ${action} (approval a7), and it was running when I was cancelled (${cancelReason}): the call was stopped before it answered, so it did not finish.\nNext: boss stopped it and knows; check what it did before calling it again (boss is asked again).`,
      ],
    ]);
    expect(own.gate.pending()).toEqual([]);
    const others = setUp('boss', kept);
    await others.gate.resume({ ...ask, cancelReason }, 'cancelled');
    expect(others.notices.map(notice => notice.origin)).toEqual([{ number: 3n, sender: 'alice' }]);
    expect(kept).toHaveLength(1);
  });

  test('a stored approval without its action is named by its description', async () => {
    const { gate, notices } = setUp();
    await gate.resume(stored({}), 'lost');
    expect(notices[0]!.text).toContain('the call Lal asks to call deploy (approval a7)');
  });
});

describe('an approval asked for in this run', () => {
  const askOnce = (setup: ReturnType<typeof setUp>) => {
    const ran: string[] = [];
    const answer = setup.gate.ask({
      action,
      digest: digestOfCall(action),
      origin: { number: 5n, sender: 'carol' },
      run: async () => {
        ran.push(action);
        return 'ran';
      },
    });
    return { ran, approvalId: String(answer.approvalId) };
  };

  test('the request names the call, and why it asks only when there is a reason', async () => {
    const setup = setUp();
    askOnce(setup);
    setup.gate.ask({
      action,
      digest: digestOfCall(action),
      origin: undefined,
      why: 'you named deploy in LAL_TOOLS_APPROVE',
      run: async () => 'ran',
    });
    await expect.poll(() => setup.requests.length).toBe(2);
    expect(setup.requests.map(request => request.description.split('. Resolve')[0])).toEqual([
      `While serving message #5 from carol, Lal asks to call ${action} (approval a1)`,
      `Lal asks to call ${action}, asked because you named deploy in LAL_TOOLS_APPROVE (approval a2)`,
    ]);
  });

  test('a no that comes after the agent stopped is not told (the next run follows it)', async () => {
    const setup = setUp();
    // What the ask's owner said to do with each answer.
    const effects: string[] = [];
    const { answer } = setup.asks;
    setup.asks.answer = (id, verdict) => {
      const effect = answer(id, verdict);
      effects.push(effect);
      return effect;
    };
    const { ran } = askOnce(setup);
    await expect.poll(() => setup.requests.length).toBe(1);
    setup.asks.stop();
    setup.requests[0]!.reject(Error('not now'));
    await expect.poll(() => effects).toEqual(['ignore']);
    expect(setup.notices).toEqual([]);
    expect(ran).toEqual([]);
    expect(setup.asks.pending().map(ask => ask.state)).toEqual(['sent']);
  });

  test('its own copy saying lost or interrupted never runs the call: told NOT RUN (no answer came) or UNKNOWN (it was running)', async () => {
    for (const [settlement, told] of [
      ['lost', 'NOT RUN'],
      ['interrupted', 'UNKNOWN'],
    ] as const) {
      const setup = setUp();
      const { ran, approvalId } = askOnce(setup);
      const [asked] = setup.asks.pending();
      await setup.gate.resume(asked!, settlement);
      expect(ran).toEqual([]);
      expect(setup.notices.map(notice => notice.text)).toEqual([
        expect.stringMatching(new RegExp(`^${told}: .*\\(approval ${approvalId}\\)`)),
      ]);
    }
  });
});

describe('the agent cancelled (behaviour 6.7): stopRunning', () => {
  test('stores as cancelled, with the reason, only the approved calls still running', async () => {
    const setup = setUp();
    const finish: (() => void)[] = [];
    const askFor = (call: string, run: () => Promise<string>) =>
      String(
        setup.gate.ask({ action: call, digest: digestOfCall(call), origin: undefined, run })
          .approvalId,
      );
    // Approved and running, approved and done, and not answered yet.
    const running = askFor(
      'slow {}',
      () => new Promise<string>(resolve => finish.push(() => resolve('late'))),
    );
    const done = askFor('quick {}', async () => 'done');
    const waiting = askFor('later {}', async () => 'never');
    await expect.poll(() => setup.requests.length).toBe(3);
    setup.requests[0]!.resolve('yes');
    setup.requests[1]!.resolve('yes');
    await expect.poll(() => finish.length).toBe(1);
    await expect.poll(() => setup.notices.length).toBe(1);
    setup.gate.stopRunning('the host stopped the turn (Ctrl-C)');
    const byId = new Map(setup.asks.pending().map(ask => [ask.id, ask]));
    expect(byId.get(running)?.cancelReason).toBe('the host stopped the turn (Ctrl-C)');
    expect(byId.get(waiting)?.cancelReason).toBeUndefined();
    expect(byId.has(done)).toBe(false);
    expect(byId.get(waiting)?.state).toBe('sent');
  });
});

describe('pending approvals', () => {
  test('lists the approvals asked for, with the call and the message they serve, and nothing else', () => {
    const { gate, asks } = setUp();
    asks.make('r', () => ({
      kind: 'request',
      recipient: 'bob',
      description: 'lend me',
      detail: {},
    }));
    const answer = gate.ask({
      action,
      digest: digestOfCall(action),
      origin: { number: 5n, sender: 'carol' },
      run: async () => 'ran',
    });
    expect(answer).toMatchObject({
      status: 'pending',
      note: "This tool needs HOST's approval, which has been asked for. You will get an APPROVED notice with its result, or a REFUSED one; do not wait for it, and do not call it again meanwhile.",
    });
    expect(gate.pending()).toEqual([
      {
        approvalId: answer.approvalId,
        action,
        origin: { number: 5n, sender: 'carol' },
        approved: false,
      },
    ]);
  });

  test("help() names the approver, and says which approval's call is running", async () => {
    const setup = setUp('boss');
    const ran: (() => void)[] = [];
    setup.gate.ask({
      action,
      digest: digestOfCall(action),
      origin: undefined,
      run: () => new Promise<string>(resolve => ran.push(() => resolve('done'))),
    });
    expect(setup.gate.describe()).toEqual([`waiting for boss's approval a1: ${action}`]);
    await expect.poll(() => setup.requests.length).toBe(1);
    setup.requests[0]!.resolve('yes');
    await expect.poll(() => ran.length).toBe(1);
    expect(setup.gate.describe()).toEqual([`approved by boss, running: a1: ${action}`]);
    ran[0]!();
    await expect.poll(() => setup.gate.describe()).toEqual([]);
    expect(setup.notices.map(notice => notice.text)).toEqual([
      expect.stringMatching(/^APPROVED: boss approved the call .*; it ran and returned: done/),
    ]);
  });

  test('an approval stored without its action is named by its description', () => {
    const { gate, asks } = setUp();
    asks.make('a', () => ({
      kind: 'approval',
      recipient: 'HOST',
      description: 'Lal asks to call deploy',
      detail: {},
    }));
    expect(gate.pending()).toEqual([
      { approvalId: 'a1', action: 'Lal asks to call deploy', origin: undefined, approved: false },
    ]);
  });
});
