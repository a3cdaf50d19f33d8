/**
 * Code the agent asks to run on the newest daemon, whose own `evaluate`
 * asks nobody: the agent sends @host the code as a message, then a one-line
 * request about it (src/asks/host-approved-evaluation.ts, which writes both
 * and reads them back). The person sees the two as one, as an eval-proposal
 * is shown at f0a46042a: the code, its endowments and result, what to type.
 */
import { readCodeForHost, readCodeRequest } from '../../src/asks/host-approved-evaluation.js';
import type { Envelope } from '../mail-host/index.js';
import type { Screen } from './screen.js';
import { packageText } from './package-text.js';

/** After the answers: the agent's own id for what waits, which its words use (./agent-ids.ts). */
export const byAgentId = (sender: string, id: string | undefined): string =>
  id === undefined ? '' : ` (or by ${sender}'s id for it, ${id})`;
harden(byAgentId);

/** The answers a proposal or a request to run code takes. */
export const codeAnswers = (n: string): string =>
  `answer with /grant ${n} · /reject ${n} [reason] · /counter ${n} <source>`;
harden(codeAnswers);

/**
 * A message HOST was sent that shows the code of a request to run it: kept
 * across runs with the request (./kept-daemon.ts), so a request still
 * waiting after a restart is shown with its code. (It leaves HOST's inbox
 * once its request is answered: ./answer-waiting.ts.)
 */
export const showsCodeToRun = (envelope: Envelope): boolean =>
  envelope.type === 'package' &&
  readCodeForHost(packageText(envelope.strings, envelope.names)) !== undefined;
harden(showsCodeToRun);

export const makeCodeRequests = (screen: Screen) => {
  /** The code each sender last sent to be read before its request: that message and its code. */
  const sent = new Map<string, { number: bigint; source: string }>();
  /** A request to run code → the message that showed its code. */
  const shownBy = new Map<bigint, bigint>();
  return {
    /** A message from `from`: true when it is code to be read before a request (kept, shown with it). */
    keepCode(from: string | undefined, number: bigint, text: string): boolean {
      const source = readCodeForHost(text);
      if (source === undefined || from === undefined) return false;
      sent.set(from, { number, source });
      return true;
    },
    /** A request from `from` that asks to run code: how it is shown, with the code sent before it. */
    request(
      from: string | undefined,
      number: bigint,
      sender: string,
      description: string,
    ): (() => void) | undefined {
      const request = readCodeRequest(description);
      if (request === undefined) return undefined;
      const code = from === undefined ? undefined : sent.get(from);
      if (from !== undefined) sent.delete(from);
      if (code !== undefined) shownBy.set(number, code.number);
      const n = String(number);
      return () =>
        screen.print(
          'proposal',
          `#${n} ${sender} asks to run code (request #${n}):`,
          [
            code?.source ??
              `(its code did not reach your inbox: /reject ${n}, then ask again to see it)`,
            `endowments: ${request.endowments} · result: ${request.resultName}`,
            `${codeAnswers(n)}${byAgentId(sender, request.proposalId)}`,
          ].join('\n'),
        );
    },
    /** The message that showed the code a request is about (it goes once the request is answered). */
    codeMessage: (number: bigint): bigint | undefined => shownBy.get(number),
    forget: (number: bigint) => {
      shownBy.delete(number);
    },
  };
};
harden(makeCodeRequests);
