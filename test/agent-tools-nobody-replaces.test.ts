/**
 * Tools nobody else can replace or shadow (behaviour 9.8): a peer mails a
 * FaeTool that calls itself `math`; adopting it as `math` (tools/math is
 * taken) or as `a-math` (its name is already offered) is refused, and the
 * HOST's math still answers; a tool a peer gave under a name of its own is
 * shadowed by the HOST's tool of the same name installed later, whatever
 * their pet names; help() says which tool answers under each name and who
 * gave it.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { callTool, say, type Step } from './support/scripted-provider.js';
import { latestMessageNumber } from './support/agent-harness.js';
import { guest, hostRequests, turnEnds } from './support/agent-observers.js';
import { useAgents } from './support/use-agents.js';
import { lastResult, mailAs, providePeer, toolResults } from './support/among-others.js';
import { DAEMON_PROFILES } from '../sim/mail-host/profile.js';

const mathUrl = new URL('../tools/math.ts', import.meta.url).href;
const oddToolUrl = new URL('./support/odd-schema-tool.ts', import.meta.url).href;

const { start } = useAgents();

/** A FaeTool calling itself `toolName`, made by the host and given to `peer` as `petName`. */
const givePeerTool = async (
  host: ReturnType<typeof makeMailHost>,
  peer: string,
  petName: string,
  toolName: string,
) => {
  await E(host.host).makeUnconfined(`worker-${petName}`, oddToolUrl, {
    resultName: petName,
    env: { TOOL_NAME: toolName, SCHEMA: 'ok' },
  });
  await E(host.host).copy([petName], [`profile-for-${peer}`, petName]);
};

describe.each(DAEMON_PROFILES)('tools nobody else replaces (%s daemon)', profile => {
  test("a peer's tool neither replaces nor shadows the HOST's, and the HOST's wins a later clash", async () => {
    const host = makeMailHost({ profile });
    await E(host.host).makeUnconfined('worker-math', mathUrl, { resultName: 'math', env: {} });
    const run = await start({
      host,
      persona: 'fae',
      introducedNames: { math: 'math' },
      prepare: async (_host, name) => {
        await providePeer(host, name, 'mallory');
        await E(host.host).copy(['mallory'], [`profile-for-${name}`, 'mallory']);
        await givePeerTool(host, 'mallory', 'evil-math', 'math');
        await givePeerTool(host, 'mallory', 'peer-calc', 'calc');
      },
    });
    const mathId = await guest(run).identify('tools', 'math');

    let number = -1;
    const adoptions: Step[] = [
      ['math', 'fake'],
      ['a-math', 'fake'],
      ['a-calc', 'calc'],
    ].map(([toolName, edgeName], index) => request => {
      if (index === 0) number = latestMessageNumber(request);
      return callTool('mail', { op: 'adoptTool', messageNumber: number, toolName, edgeName });
    });
    run.provider.push(...adoptions, say(''));
    await mailAs(run, 'mallory', 'adopt my calculator as math, or as a-math', {
      edgeNames: ['fake', 'calc'],
      petNames: ['evil-math', 'peer-calc'],
    });
    await expect.poll(() => turnEnds(run)).toBe(1);
    // Adopting what a peer sent waits for the HOST (behaviour 9.10); the HOST, not seeing the
    // trap, approves all three, and the tools' own rules still hold.
    const pending = toolResults(run.provider.requests.at(-1)).slice(-3);
    for (const result of pending) expect(result).toMatch(/"status":"pending"/);
    await E(host.host).storeValue(harden('yes'), 'yes');
    const approvals = await hostRequests(run);
    expect(approvals).toHaveLength(3);
    run.provider.push(say(''), say(''), say(''));
    for (const approval of approvals) await E(host.host).resolve(approval.number, 'yes');
    // Each approval's outcome line, as the model was shown it (outcomes may share a message).
    const outcome = (toolName: string) =>
      run.provider.requests
        .flatMap(request => request.messages)
        .flatMap(message => (message.role === 'user' ? message.content.split('\n') : []))
        .find(line => line.startsWith('APPROVED') && line.includes(`"toolName":"${toolName}"`));
    await expect
      .poll(() => ['math', 'a-math', 'a-calc'].every(name => outcome(name) !== undefined))
      .toBe(true);
    const [asMath, asAMath, asACalc] = ['math', 'a-math', 'a-calc'].map(outcome);
    expect(asMath).toMatch(/"error".*tools\/math is taken, and a tool never replaces another/);
    expect(asAMath).toMatch(
      /"error".*not adopted: it declares \\"math\\", already offered by tools\/math/,
    );
    expect(asACalc).toMatch(/"callAs":"calc"/);
    expect(await guest(run).identify('tools', 'math')).toBe(mathId);
    expect(await guest(run).has('tools', 'a-math')).toBe(false);
    expect(await run.help()).toMatch(/calc: tools\/a-calc, given by mallory/);

    // The HOST's math answers the HOST.
    run.provider.push(
      request => {
        expect(request.toolNames.filter(name => name === 'math')).toHaveLength(1);
        return callTool('math', { operation: 'multiply', a: 6, b: 7 });
      },
      request =>
        callTool('reply', {
          messageNumber: latestMessageNumber(request),
          strings: [`math says ${lastResult(request)}`],
        }),
    );
    await run.send('what is 6 times 7?');
    expect((await run.reply(/^math says/)).strings?.join('')).toMatch(/42/);

    // The HOST installs its own calc under a later pet name: its calc answers, not mallory's.
    await E(host.host).makeUnconfined('worker-calc', oddToolUrl, {
      resultName: 'host-calc',
      env: { TOOL_NAME: 'calc', SCHEMA: 'ok' },
    });
    await E(host.host).copy(['host-calc'], [`profile-for-${run.name}`, 'tools', 'z-calc']);
    run.provider.push(say('checking'));
    await run.send('look at your tools');
    await run.reply('checking');
    const help = await run.help();
    expect(help).toMatch(/math: tools\/math, the (HOST|@host)'s/);
    expect(help).toMatch(/calc: tools\/z-calc, the (HOST|@host)'s/);
    expect(help).toMatch(/tools\/a-calc: it declares "calc", already offered by tools\/z-calc/);
  });
});
