/**
 * The model double's behaviour for people trying the agent (`npm run
 * model-double`, `npm start -- --demo`): no model, but sensible moves chosen
 * by what it was last told, so each part of a session can be seen — a
 * "ping" answered in one call, arithmetic worked out with code (an
 * eval-proposal to grant), a command in backticks run with `runCommand`, a
 * tool the HOST attached adopted, a reminder or a recurring check scheduled
 * and said when it comes ("remind me in 30 seconds to stretch", "every 2
 * minutes check the inbox"), and a long answer streamed word by word.
 * In a channel it answers the message it is asked to (arithmetic worked
 * out itself, saying it runs no code there), and, asked whether
 * to speak unaddressed, says yes to a question. Anything else gets an
 * answer that says what it understands.
 */
import type { NormalizedRequest, ScriptedReply } from './types.js';
import { workOut } from './arithmetic.js';
import { errorOf, helperEndInWords, resultInWords } from './plain-words.js';

/** The model's name, as the daemon guide's sessions show it. */
export const DEMO_MODEL = 'double-model';
harden(DEMO_MODEL);

/** The pause between two streamed words of a long answer: slow enough to see it arrive. */
const WORD_GAP_MS = 25;

const PREVIEW_CHARS = 300;

const DEMO_HELP =
  'I am the scripted model double (no real model): I answer "ping", work out arithmetic such as "6 * 7" with code, run a command given in backticks when I have runCommand, adopt a tool you attach (`/attach`) and use it when asked ("use the math tool to multiply 6 by 7", "greet Bob with the greet tool"), remind you ("remind me in 30 seconds to stretch", "every 2 minutes check the inbox"), hand a task to a helper ("ask a helper to …"), find a tool in a big toolbox (in npm start, `/attach toolbox` gives me one; then "use a tool to plan a meeting called "standup""), and tell a long story when asked for one.';

const LONG_ANSWER = [
  'Here is a long answer, streamed a word at a time as a real model writes it.',
  'Lal and Fae live inside the Endo daemon as guests: each holds only the capabilities it was given — its pet-name directory, its mail, the tools mailed to it — and acts through tool calls alone.',
  'Code it wants to run goes to its host as an eval-proposal, shown whole, and runs only once granted; a command runs in a sandbox with only its folder writable.',
  'The conversation is kept in its own store, so it survives a restart, and every old exchange can be recalled by its words.',
  'That is all this double has to say; a real model would say more, and better.',
].join('\n\n');

const lastOf = (request: NormalizedRequest, role: 'user' | 'tool') =>
  [...request.messages].reverse().find(message => message.role === role)?.text ?? '';

/** The last "#n" of a text: the message a reply answers. */
const lastNumber = (text: string): number | undefined => {
  const found = [...text.matchAll(/#(\d+)/g)].pop()?.[1];
  return found === undefined ? undefined : Number(found);
};

/**
 * The last message the agent was told of, from its "Message #n from X: "
 * on: a notice may come before it (an outcome's label kept from an earlier turn).
 */
const lastMessage = (told: string): string => {
  const at = [...told.matchAll(/(?:^|\n)(Message #\d+ from [^:\n]+: )/g)].pop();
  return at === undefined ? told : told.slice(at.index + at[0].length - at[1]!.length);
};

/**
 * A wake-up's notice, from its "WAKE-UP" line on: the label of an earlier turn's outcome may
 * stand before it (as it may before a message).
 */
const wakeUpOf = (told: string): string | undefined => {
  const at = [...told.matchAll(/(?:^|\n)WAKE-UP /g)].pop();
  return at === undefined ? undefined : told.slice(at.index).trimStart();
};

/** What the sender wrote: the body after the last "Message #n from X: " (a labelled outcome may stand before it). */
const bodyOf = (told: string): string => {
  const found = [...told.matchAll(/(?:^|\n)Message #\d+ from [^:\n]+: /g)].pop();
  return found === undefined ? told : told.slice(found.index + found[0].length);
};

/**
 * A bare "ping" is answered "pong"; a ping with more words, `pong: <the message>`, so a
 * timer can tell its pings apart (bench/real-daemon/ping-words.ts reads `pong: ping-<n>`).
 */
const pongFor = (body: string): string => (/^ping$/i.test(body) ? 'pong' : `pong: ${cut(body)}`);

/** Answers with `text`: a reply to the message when the agent has the tool and a number, else plain text. */
const answer = (request: NormalizedRequest, told: string, text: string): ScriptedReply => {
  const number = lastNumber(told);
  return request.toolNames.includes('reply') && number !== undefined
    ? { toolCalls: [{ name: 'reply', arguments: { messageNumber: number, strings: [text] } }] }
    : { text };
};

const cut = (text: string) =>
  text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;

/** The first required parameter of the first tool a toolbox search found (`title` when it names none). */
const firstParameterOf = (result: string): string => {
  try {
    const parameters = (JSON.parse(result) as { found?: { parameters?: { required?: unknown } }[] })
      .found?.[0]?.parameters;
    const [first] = Array.isArray(parameters?.required) ? parameters.required : [];
    return typeof first === 'string' ? first : 'title';
  } catch {
    // A result that is not JSON names no parameter.
    return 'title';
  }
};

/** After a tool's result: say what came of it. */
const afterTool = (request: NormalizedRequest, told: string, result: string): ScriptedReply => {
  const helper = /"helperId":"([^"]+)"/.exec(result)?.[1];
  if (helper !== undefined)
    return answer(request, told, `Helper ${helper} is on it; I will tell you what it hands back.`);
  const found = /"found":\[\{"name":"([^"]+)"/.exec(result)?.[1];
  const echo = echoWanted(bodyOf(told));
  if (found !== undefined && echo !== undefined)
    return {
      toolCalls: [
        {
          name: 'toolbox',
          arguments: { use: found, arguments: { [firstParameterOf(result)]: echo } },
        },
      ],
    };
  const wanted = TOOL_WANTED.exec(bodyOf(told).trim());
  if (found !== undefined && wanted !== null)
    return {
      toolCalls: [
        {
          name: 'toolbox',
          arguments: {
            use: found,
            arguments: { [firstParameterOf(result)]: wanted[2] ?? wanted[1]! },
          },
        },
      ],
    };
  if (result.includes('"pending"'))
    return { text: 'I have asked my host to run it; I will tell you the result.' };
  const adopted = /"callAs":"([^"]+)"/.exec(result)?.[1];
  if (adopted !== undefined)
    return answer(request, told, `I adopted ${adopted}; ask me to use it.`);
  // A wake-up's turn is over once the note is told.
  if (wakeUpOf(told) !== undefined) return { text: 'Told.' };
  const scheduled = /"scheduled":"([^"]+)"(?:,"at":"([^"]+)")?/.exec(result);
  if (scheduled !== null)
    return answer(
      request,
      told,
      `Scheduled ${scheduled[1]}${scheduled[2] === undefined ? '' : ` for ${scheduled[2]}`}: I will tell you when it comes.`,
    );
  // Said as a model would: a failure's reason, or what the result holds, never its JSON.
  const failed = errorOf(result);
  if (failed !== undefined) return answer(request, told, `That did not work: ${cut(failed)}`);
  return answer(request, told, `The tool answered: ${cut(resultInWords(result))}`);
};

/** The HOST's yes to a call asked before a restart: the call made again, as the notice says (it runs unasked). */
const approvedBeforeRestart = (
  request: NormalizedRequest,
  told: string,
): ScriptedReply | undefined => {
  const again =
    /(?:^|\n)APPROVED: [^\n]*? approved the call ([\w.-]+) (\{[^\n]*\}) \(approval [^)\n]+\), but I restarted meanwhile, so it has not run yet/.exec(
      told,
    );
  if (again === null || !request.toolNames.includes(again[1]!)) return undefined;
  try {
    return {
      toolCalls: [{ name: again[1]!, arguments: JSON.parse(again[2]!) as Record<string, unknown> }],
    };
  } catch {
    // A call cut short in the notice cannot be made again whole.
    return undefined;
  }
};

/**
 * A counter-proposal (src/mail/message-notice.ts): its code is on the lines
 * after its heading, up to "Endowments:". The double takes it as the host's
 * answer: code that is arithmetic it works out and answers with, as a model
 * reads `7 * 6 + 1` without running it, so the person who wrote the code is
 * not asked to grant it back (issue 45); other code it proposes with
 * evaluate, as the notice invites, or without evaluate says whole, not the
 * heading alone.
 */
const counterFor = (request: NormalizedRequest, told: string): ScriptedReply | undefined => {
  const counter =
    /(?:^|\n)COUNTER-PROPOSAL: [^\n]*\n([\s\S]*?)\nEndowments: /.exec(told) ??
    // The newest daemon has no counter-proposal: a refusal whose reason is the code to run instead.
    /(?:^|\n)REJECTED: [^\n]*Reason: [^\n]*\bcode instead:\s*([\s\S]*?)\nNext: /.exec(told) ??
    // The same, told by the simulator to an agent made again since it asked (sim/chat/lost-words.ts).
    /\nI refused it, and would run this code instead:\n([\s\S]*?)\s*$/.exec(told);
  if (counter === null) return undefined;
  const source = counter[1]!.trim();
  const value = workOut(source);
  if (value !== undefined)
    return answer(
      request,
      told,
      `It is ${value} (${source}, the code you gave instead, worked out without running it).`,
    );
  return request.toolNames.includes('evaluate')
    ? { toolCalls: [{ name: 'evaluate', arguments: { source, resultName: 'answer' } }] }
    : answer(request, told, `My host proposes different code: ${cut(source)}`);
};

/**
 * What a notice that is not the host's answer says happened (docs/architecture.md, the outcomes
 * after a restart): NOT RUN is an ask nobody answered before the restart ended it, UNKNOWN one
 * whose outcome is lost. The others are the host's answer.
 */
const NOTICE_SAYS: Readonly<Record<string, string>> = {
  'NOT RUN': 'Nobody answered it, so it did not run —',
  UNKNOWN: 'I cannot tell whether it ran —',
};

/** A notice about an ask: GRANTED, CANCELLED, REJECTED, UNKNOWN, NOT RUN, ANSWERED, DECLINED, a counter-proposal; a helper's end. */
const afterNotice = (request: NormalizedRequest, told: string): ScriptedReply | undefined => {
  const helper = /(?:^|\n)((?:DONE|FAILED|TIMED OUT|STOPPED): helper [^\n]*)/.exec(told);
  if (helper !== null)
    return answer(
      request,
      told,
      cut(helperEndInWords(helper[1]!) ?? `From my helper: ${helper[1]!}`),
    );
  const granted = /(?:^|\n)GRANTED: [\s\S]*?Result[^:]*: ([^\n]*)/.exec(told);
  if (granted !== null) return answer(request, told, `It is ${granted[1]}.`);
  const ran = /(?:^|\n)APPROVED: [^\n]*?it ran and returned: ([^\n]*)/.exec(told);
  if (ran !== null) return answer(request, told, `Done: ${cut(resultInWords(ran[1]!))}`);
  // A call stopped by Ctrl-C (approval-gate's CANCELLED): what was stopped, and why.
  const cancelled =
    /(?:^|\n)CANCELLED: \S+ approved ([\s\S]*?), and it was running when I was cancelled \(([^\n]*)\): the call was stopped/.exec(
      told,
    );
  if (cancelled !== null)
    return answer(
      request,
      told,
      `Stopped: ${cut(cancelled[1]!)} was cancelled before it finished (${cancelled[2]}).`,
    );
  const callAgain = approvedBeforeRestart(request, told);
  if (callAgain !== undefined) return callAgain;
  const counter = counterFor(request, told);
  if (counter !== undefined) return counter;
  const other = /(?:^|\n)((?:REJECTED|REFUSED|UNKNOWN|NOT RUN|ANSWERED|DECLINED)\b[^\n]*)/.exec(
    told,
  );
  if (other === null) return undefined;
  return answer(
    request,
    told,
    `${NOTICE_SAYS[other[1]!.split(':')[0]!] ?? 'My host answered:'} ${cut(other[1]!)}`,
  );
};

const ARITHMETIC = /(?:\d+(?:\.\d+)?|\()[\d\s.+\-*/%()]*[+\-*/%][\d\s.+\-*/%()]*\d\)?/;

/** "remind me in 30 seconds to stretch", "every 2 minutes check the inbox": a schedule. */
const REMIND = /\bremind me in (\d+) (second|minute)s? to (.+)$/i;
const EVERY = /\bevery (\d+) (second|minute)s? (.+)$/i;

const scheduleFor = (body: string): ScriptedReply | undefined => {
  const once = REMIND.exec(body.trim());
  if (once !== null) {
    const seconds = Number(once[1]) * (once[2]!.toLowerCase() === 'minute' ? 60 : 1);
    return {
      toolCalls: [{ name: 'schedule', arguments: { delaySeconds: seconds, note: once[3]! } }],
    };
  }
  const every = EVERY.exec(body.trim());
  if (every !== null) {
    const unit = every[2]!.toLowerCase() === 'minute' ? 'm' : 's';
    return {
      toolCalls: [
        { name: 'schedule', arguments: { every: `${every[1]}${unit}`, note: every[3]! } },
      ],
    };
  }
  return undefined;
};

/** A wake-up's turn: do what the note says (here: say it) to whoever set it. */
const afterWakeUp = (request: NormalizedRequest, told: string): ScriptedReply | undefined => {
  const wake = /^WAKE-UP (\S+):[\s\S]*?Your note: ("(?:[^"\\]|\\.)*")[\s\S]*?send\("([^"]+)"/.exec(
    wakeUpOf(told) ?? '',
  );
  if (wake === null || !request.toolNames.includes('send')) return undefined;
  const note = JSON.parse(wake[2]!) as string;
  return {
    toolCalls: [
      { name: 'send', arguments: { recipient: wake[3]!, strings: [`${wake[1]}: ${note}`] } },
    ],
  };
};

/** "ask a helper to …": a helper made for the task, with a budget and no tools. */
const HELPER_WANTED = /\bask a helper to (.+)$/i;
/** "use a tool to schedule a meeting called "standup"": the toolbox searched, then the tool found called. */
const TOOL_WANTED = /\buse a tool to (.+?)(?: called "([^"]+)")?$/i;

/** Arithmetic answered without evaluate, and why: in a channel's turn, which holds only the channel's powers, or where evaluate was not given. */
const workedOut = (sum: string, value: number, inChannel: boolean): string =>
  `${sum} = ${value} (worked out without running code: ${
    inChannel
      ? "a channel's turn holds only the channel's powers, so I cannot run code here; mail me directly to have code run"
      : 'I was not given evaluate, so I cannot run code'
  })`;

/**
 * The text to echo when a message asks for an echo with a tool ("use a tool to echo hello",
 * "echo hello with the mcp tool", "call the echo tool with hi"): an MCP server's `echo`
 * (docs/mcp.md). Undefined when it names no echo, or no tool nor MCP: docs/mcp.md's one sentence
 * was all that worked (issue 45, trial 12). Quoted text, else what follows "echo tool (with)",
 * else what follows "echo", up to the words naming the tool.
 */
const echoWanted = (body: string): string | undefined => {
  const words = body
    .split('\nAttached: ')[0]!
    .trim()
    .replace(/[.!?]+$/, '');
  if (!/\becho\b/i.test(words) || !/\b(?:tool|mcp)\b/i.test(words)) return undefined;
  const quoted = /"([^"]+)"/.exec(words)?.[1];
  if (quoted !== undefined) return quoted;
  const toolWords = /\becho tool\b(?:\s+(?:with|to say|saying))?\s*:?\s*(.*)$/i.exec(words)?.[1];
  if (toolWords !== undefined && toolWords.trim() !== '') return toolWords.trim();
  const echoed =
    /\becho\s+(?!tool\b)(.+?)(?:\s+(?:with|using|through|via|by|on)\s+(?:the\s+|an?\s+|your\s+)?(?:mcp|tool|echo)\b.*)?$/i.exec(
      words,
    )?.[1];
  return echoed?.trim() === '' ? undefined : echoed?.trim();
};

/** What the double says to "use a tool to …" when the agent offers no toolbox. */
const NO_TOOLBOX =
  'I hold no toolbox to find a tool in (it is offered once my tools are too many to offer each). In npm start, /attach toolbox gives me 120 sample tools to try it with.';

/** A helper's own turn: it hands back what it was asked, having no real work to do. */
const asHelper = (told: string): ScriptedReply => ({
  toolCalls: [
    {
      name: 'handBack',
      arguments: {
        result: `I worked on "${cut(told.trim())}" (a scripted double does no real work).`,
      },
    },
  ],
});

const OPERATIONS: Record<string, string> = {
  '+': 'add',
  '-': 'subtract',
  '*': 'multiply',
  '/': 'divide',
  '%': 'modulo',
  '**': 'power',
};
/** "6 * 7", "multiply 6 by 7", "add 2 and 3": one operation on two numbers, as `math` takes it. */
const mathArguments = (body: string): Record<string, unknown> | undefined => {
  const number = '(-?\\d+(?:\\.\\d+)?)';
  const symbol = new RegExp(`${number}\\s*(\\*\\*|[-+*/%])\\s*${number}`).exec(body);
  if (symbol !== null)
    return { operation: OPERATIONS[symbol[2]!], a: Number(symbol[1]), b: Number(symbol[3]) };
  const worded = new RegExp(
    `\\b(add|subtract|multiply|divide)\\s+${number}\\s+(and|by|from|to)\\s+${number}`,
    'i',
  ).exec(body);
  if (worded === null) return undefined;
  const [first, second] = [Number(worded[2]), Number(worded[4])];
  // "subtract 2 from 5" is 5 - 2.
  const [a, b] = worded[3]!.toLowerCase() === 'from' ? [second, first] : [first, second];
  return { operation: worded[1]!.toLowerCase(), a, b };
};

/**
 * A tool the HOST attached and the agent adopted (`math`, `greet`, `timestamp`), used when the
 * message asks for a tool or names it: the double says "ask me to use it", and then does.
 */
const heldToolFor = (request: NormalizedRequest, body: string): ScriptedReply | undefined => {
  const has = (tool: string) => request.toolNames.includes(tool);
  // The words typed, not the line naming what came attached ("Attached: @greet (keep one …)").
  const words = body.split('\nAttached: ')[0]!;
  const asksForTool = /\b(tool|math|greet|timestamp)\b/i.test(words);
  if (!asksForTool) return undefined;
  const math = has('math') ? mathArguments(words) : undefined;
  if (math !== undefined) return { toolCalls: [{ name: 'math', arguments: math }] };
  // "greet Bob": a name after the verb, not a mention of the tool (@greet) nor punctuation.
  const greet = has('greet') ? /(?<!@)\bgreet\s+([A-Za-z][\w'-]*)/i.exec(words)?.[1] : undefined;
  if (greet !== undefined && greet.toLowerCase() !== 'tool')
    return { toolCalls: [{ name: 'greet', arguments: { name: greet } }] };
  if (has('timestamp') && /\b(time|timestamp|date)\b/i.test(words))
    return { toolCalls: [{ name: 'timestamp', arguments: {} }] };
  return undefined;
};

/**
 * A long answer asked for: a story or an essay, or a long or streamed answer ("tell me a long
 * story", "stream a long answer"), never just "long" ("how long is a piece of string?").
 */
const LONG_WANTED =
  /\b(?:story|essay)\b|\blong (?:answer|reply|text|one)\b|\bstream (?:me )?(?:an? )?(?:answer|reply|text)\b/i;

/** The moves for a message someone sent. */
const forMessage = (
  request: NormalizedRequest,
  toldWhole: string,
  inChannel = false,
): ScriptedReply => {
  const told = lastMessage(toldWhole);
  const body = bodyOf(told);
  const has = (tool: string) => request.toolNames.includes(tool);
  if (has('handBack')) return asHelper(told);
  const task = HELPER_WANTED.exec(body.trim())?.[1];
  if (task !== undefined && has('mail'))
    return {
      toolCalls: [
        { name: 'mail', arguments: { op: 'helper', description: task, grant: ['2 calls'] } },
      ],
    };
  // An MCP server's echo, offered itself or found behind the toolbox (then used: afterTool).
  const echo = echoWanted(body);
  if (echo !== undefined && has('echo'))
    return { toolCalls: [{ name: 'echo', arguments: { message: echo } }] };
  if (echo !== undefined && has('toolbox'))
    return { toolCalls: [{ name: 'toolbox', arguments: { find: 'echo' } }] };
  const held = heldToolFor(request, body);
  if (held !== undefined) return held;
  const wanted = TOOL_WANTED.exec(body.trim());
  if (wanted !== null && has('toolbox'))
    return { toolCalls: [{ name: 'toolbox', arguments: { find: wanted[1]! } }] };
  // Without a toolbox there is nothing to search: say how to get one rather than guess.
  if (wanted !== null) return answer(request, told, NO_TOOLBOX);
  const scheduled = has('schedule') ? scheduleFor(body) : undefined;
  if (scheduled !== undefined) return scheduled;
  const attached = /@([A-Za-z][\w-]*)/.exec(body)?.[1];
  if (attached !== undefined && has('mail') && /^Message #\d+/.test(told))
    return {
      toolCalls: [
        {
          name: 'mail',
          arguments: {
            op: 'adoptTool',
            messageNumber: lastNumber(told.slice(0, told.indexOf(':'))),
            edgeName: attached,
            toolName: attached,
          },
        },
      ],
    };
  const command = /`([^`]+)`/.exec(body)?.[1];
  if (command !== undefined && has('runCommand'))
    return { toolCalls: [{ name: 'runCommand', arguments: { command } }] };
  // Past the schema budget the agent's tools wait behind the toolbox (docs/mcp.md): used through it.
  if (command !== undefined && has('toolbox'))
    return {
      toolCalls: [{ name: 'toolbox', arguments: { use: 'runCommand', arguments: { command } } }],
    };
  // A refusal's reason the simulator tells an agent made again since it asked (sim/chat/lost-words.ts).
  const refused = /^You asked me [^\n]*\nI refused it: ([\s\S]*)$/.exec(body)?.[1];
  if (refused !== undefined)
    return answer(request, told, `Understood: you refused it (${cut(refused.trim())}).`);
  const sum = ARITHMETIC.exec(body)?.[0].trim();
  if (sum !== undefined && has('evaluate'))
    return { toolCalls: [{ name: 'evaluate', arguments: { source: sum, resultName: 'answer' } }] };
  // No evaluate here (a channel's turn holds only the channel's powers): worked out without code, and said so.
  const worked = sum === undefined ? undefined : workOut(sum);
  if (sum !== undefined && worked !== undefined)
    return answer(request, told, workedOut(sum, worked, inChannel));
  if (/\bping\b/i.test(body)) return answer(request, told, pongFor(body.trim()));
  if (LONG_WANTED.test(body)) return { text: LONG_ANSWER, frameGapMs: WORD_GAP_MS };
  if (/^\s*(hello|hi|hey)\b/i.test(body)) return answer(request, told, `Hello! ${DEMO_HELP}`);
  return answer(request, told, `You said "${cut(body.trim())}". ${DEMO_HELP}`);
};

/** A channel turn's request (src/channels/channel-thread.ts): the words of the message to answer. */
const channelMessage = (told: string): string | undefined => {
  // The last of each: a post may quote an earlier request.
  const number = [...told.matchAll(/\nAnswer #(\d+)/g)].pop()?.[1];
  if (number === undefined || !told.startsWith("The channel's recent messages")) return undefined;
  return [...told.matchAll(new RegExp(`^#${number} [^:\n]+: (.*)$`, 'gm'))].pop()?.[1];
};

/** Whether to speak unaddressed in a channel (src/channels/route-message.ts): for a question. */
const isRouting = (request: NormalizedRequest) =>
  request.messages[0]?.text.startsWith('You decide whether') === true;

/** The double's move for one request, from what it was last told (the order of requests is not assumed). */
export const demoModel = (request: NormalizedRequest): ScriptedReply => {
  const told = lastOf(request, 'user');
  if (isRouting(request)) return { text: /\?\s*$/.test(told) ? 'yes' : 'no' };
  const inChannel = channelMessage(told);
  if (inChannel !== undefined) return forMessage(request, inChannel, true);
  const last = request.messages.at(-1);
  if (last?.role === 'tool') return afterTool(request, told, last.text);
  return afterNotice(request, told) ?? afterWakeUp(request, told) ?? forMessage(request, told);
};
harden(demoModel);
