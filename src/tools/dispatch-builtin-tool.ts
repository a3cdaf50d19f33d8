/**
 * Runs one built-in tool: one `switch` from the tool's name to the guest
 * power it stands for, with each argument checked first.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../guest-powers.js';
import type { NameOf } from '../mail/sender-names.js';
import { compactMessage } from '../mail/compact-message.js';
import type { MessageRecord } from '../mail/message-record.js';
import type { Origin, ProposalTracker } from '../proposals/proposal-tracker.js';
import type { RequestTracker } from '../requests/request-tracker.js';
import {
  readMessageNumber,
  readMessageParts,
  readOptionalPath,
  readOptionalString,
  readPassable,
  readPath,
  readPathList,
  readString,
  readStringList,
  type Args,
} from './read-args.js';
import { TOOLS_DIRECTORY, type ToolRegistry } from './fae-tool-registry.js';
import { readMessageHistory } from '../daemon/message-history.js';
import { readScheduleArgs, type WakeUps } from '../schedule/wake-ups.js';
import type { Introspectable } from '../remote-objects.js';

export interface BuiltinContext {
  powers: PowersRef;
  nameOf: NameOf;
  proposals: ProposalTracker;
  requests: RequestTracker;
  tools: ToolRegistry;
  /** The message the current turn is about, if any. */
  origin: Origin | undefined;
  /** Called when the agent answered or wrote to someone during the turn. */
  noteAnswered: (number: bigint | undefined) => void;
  /** Called when the model dismissed a message itself. */
  noteDismissed: (number: bigint) => void;
  /** The `schedule` tool's wake-ups; absent where a host gives none. */
  wakeUps?: WakeUps;
  /** Says the model's reply/send instead of the daemon (the newest daemon's live progress: an edit). */
  speak?: Speak;
}

export interface Speak {
  reply(number: bigint, strings: string[], edgeNames: string[], petNames: (string | string[])[]): Promise<void>;
  send(recipient: string, strings: string[], edgeNames: string[], petNames: (string | string[])[]): Promise<void>;
}

/** Undefined and "#undefined" both mean: no worker name. */
const readWorkerName = (args: Args): string | undefined => {
  const value = args.workerName;
  if (value === undefined || value === null || value === '' || value === 'undefined' || value === '#undefined') {
    return undefined;
  }
  return readString(args, 'workerName');
};

const readPetNamePaths = (args: Args): (string | string[])[] => readPathList(args, 'petNamePaths');

const inspectCapability = async (context: BuiltinContext, path: string[]): Promise<unknown> => {
  const capability = (await E(context.powers).lookup(path)) as Introspectable;
  const [help, methods] = await Promise.all([
    Promise.resolve(E(capability).help()).catch((error: unknown) => `(no help: ${error instanceof Error ? error.message : String(error)})`),
    Promise.resolve(E(capability).__getMethodNames__()).catch(() => []),
  ]);
  return harden({
    help,
    methods: Array.isArray(methods) ? methods.filter(name => typeof name === 'string' && !name.startsWith('__')) : [],
  });
};

/**
 * A mailed tool that cannot be offered leaves tools/ again, and whoever
 * mailed it hears why (the model may not pass it on); the model gets the
 * reason as the call's error.
 */
const refuseAdoption = async (context: BuiltinContext, number: bigint, edgeName: string, toolName: string, reason: string): Promise<never> => {
  await Promise.resolve(E(context.powers).remove(TOOLS_DIRECTORY, toolName)).catch(() => {});
  const told = await Promise.resolve(E(context.powers).reply(number, [`I did not adopt "${edgeName}" as a tool: ${reason}.`], [], []))
    .then(() => true, () => false);
  throw new Error(`not adopted: ${reason}${told ? '; the sender was told' : ''}`);
};

export const dispatchBuiltinTool = async (name: string, args: Args, context: BuiltinContext): Promise<unknown> => {
  const powers = E(context.powers);
  switch (name) {
    case 'help':
      return powers.help(readOptionalString(args, 'methodName'));
    case 'has':
      return powers.has(...readPath(args, 'petNamePath'));
    case 'list':
      return powers.list(...readOptionalPath(args, 'petNamePath'));
    case 'lookup':
      return powers.lookup(readPath(args, 'petNamePath'));
    case 'remove':
      await powers.remove(...readPath(args, 'petNamePath'));
      return harden({ removed: readPath(args, 'petNamePath') });
    case 'move':
      await powers.move(readPath(args, 'fromPath'), readPath(args, 'toPath'));
      return harden({ moved: readPath(args, 'fromPath'), to: readPath(args, 'toPath') });
    case 'copy':
      await powers.copy(readPath(args, 'fromPath'), readPath(args, 'toPath'));
      return harden({ copied: readPath(args, 'fromPath'), to: readPath(args, 'toPath') });
    case 'makeDirectory': {
      const path = readPath(args, 'petNamePath');
      // The daemon's makeDirectory replaces an existing name with a new, empty directory.
      if (await powers.has(...path)) {
        throw new Error(`${path.join('/')} already exists; makeDirectory would replace it with an empty directory`);
      }
      await powers.makeDirectory(path);
      return harden({ made: path });
    }
    case 'listMessages': {
      const messages = (await powers.listMessages()) as MessageRecord[];
      return harden(await Promise.all(messages.map(message => compactMessage(message, context.nameOf))));
    }
    case 'send': {
      const recipient = readString(args, 'recipient');
      const { strings, edgeNames, petNames } = readMessageParts(args);
      await (context.speak ?? powers).send(recipient, strings, edgeNames, petNames);
      context.noteAnswered(undefined);
      return harden({ sent: true, to: recipient });
    }
    case 'reply': {
      const number = readMessageNumber(args);
      const { strings, edgeNames, petNames } = readMessageParts(args);
      await (context.speak ?? powers).reply(number, strings, edgeNames, petNames);
      context.noteAnswered(number);
      return harden({ replied: true, to: number });
    }
    case 'adopt': {
      const number = readMessageNumber(args);
      const petName = readPath(args, 'petName');
      await powers.adopt(number, readString(args, 'edgeName'), petName);
      return harden({ adopted: petName });
    }
    case 'dismiss': {
      const number = readMessageNumber(args);
      await powers.dismiss(number);
      context.noteDismissed(number);
      return harden({ dismissed: number });
    }
    case 'request':
      return context.requests.request({
        recipient: readString(args, 'recipient'),
        description: readString(args, 'description'),
        responseName: readOptionalString(args, 'responseName'),
        origin: context.origin,
      });
    case 'resolve': {
      const number = readMessageNumber(args);
      await powers.resolve(number, readPath(args, 'petNamePath'));
      context.noteAnswered(number);
      return harden({ resolved: number });
    }
    case 'reject': {
      const number = readMessageNumber(args);
      await powers.reject(number, readOptionalString(args, 'reason'));
      context.noteAnswered(number);
      return harden({ rejected: number });
    }
    case 'identify':
      return powers.identify(...readPath(args, 'petNamePath'));
    case 'inspectCapability':
      return inspectCapability(context, readPath(args, 'petNamePath'));
    case 'evaluate': {
      const source = readString(args, 'source');
      const codeNames = readStringList(args, 'codeNames');
      const petNamePaths = readPetNamePaths(args);
      if (codeNames.length !== petNamePaths.length) {
        throw new Error(
          `codeNames and petNamePaths must have the same length, got ${codeNames.length} and ${petNamePaths.length}`,
        );
      }
      return context.proposals.propose({
        source,
        codeNames,
        petNamePaths,
        resultName: readString(args, 'resultName'),
        workerName: readWorkerName(args),
        origin: context.origin,
      });
    }
    case 'messageHistory':
      return readMessageHistory(context.powers, readMessageNumber(args));
    case 'store': {
      const value = readPassable(args, 'value');
      const petName = readPath(args, 'petName');
      await powers.storeValue(harden(value), petName);
      return harden({ stored: petName });
    }
    case 'adoptTool': {
      const number = readMessageNumber(args);
      const toolName = readString(args, 'toolName');
      if (toolName.includes('/')) throw new Error('toolName must be one pet name, without "/"');
      const edgeName = readString(args, 'edgeName');
      await powers.adopt(number, edgeName, [TOOLS_DIRECTORY, toolName]);
      await context.tools.refresh({ force: true });
      const refusal = context.tools.refusal(toolName);
      const adopted = context.tools.schemas().find(schema =>
        context.tools.find(schema.function.name)?.petName === toolName,
      );
      if (adopted === undefined) {
        return refuseAdoption(context, number, edgeName, toolName, refusal ?? 'it is not a usable FaeTool');
      }
      return harden({
        adopted: `${TOOLS_DIRECTORY}/${toolName}`,
        callAs: adopted.function.name,
        description: adopted.function.description,
      });
    }
    case 'schedule':
      if (context.wakeUps === undefined) throw new Error('Wake-ups are not available here');
      return context.wakeUps.schedule(readScheduleArgs(args), context.origin);
    default:
      throw new Error(`Unknown tool "${name}"`);
  }
};
