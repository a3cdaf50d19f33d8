/**
 * What the agent does once before its first turn: moves tools introduced
 * at provisioning into tools/, and greets its host with what it is and
 * which model it thinks with (or why it cannot think yet).
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';
import type { AgentConfig } from '../config/config.js';
import { greeting } from '../prompt/system-prompt.js';
import { describeModelChoice } from '../../providers/describe-model-choice.js';
import { codeSpans } from '../mail/code-spans.js';
import { saveMemory } from '../memory/agent-memory.js';
import { OWN_NAMES } from '../daemon/own-names.js';
import type { AgentParts } from './agent-parts.js';
import { adoptIntroducedTools } from '../agent-tools/adopt-introduced-tools.js';
import { describeError } from '../../providers/describe-error.js';

export const prepareToolsFolder = async (powers: PowersRef, log: Log): Promise<void> => {
  try {
    const moved = await adoptIntroducedTools({ powers, log, reserved: new Set(OWN_NAMES) });
    if (moved.length > 0) log(`moved introduced tools into tools/: ${moved.join(', ')}`);
  } catch (error) {
    log(`could not prepare tools/: ${describeError(error)}`);
  }
};
harden(prepareToolsFolder);

/**
 * Greets the host with what the agent is and which model it thinks with (or
 * why it cannot think yet), unless this very greeting was the last one sent
 * (kept in memory, and stored at once): a revived agent (a daemon restart, a
 * pin revived) greets again only when its model or settings changed.
 */
export const greetHost = async (options: {
  powers: PowersRef;
  log: Log;
  redact: (text: string) => string;
  config: AgentConfig;
  parts: Pick<AgentParts, 'model' | 'memory' | 'daemon'>;
}): Promise<void> => {
  const { powers, log, redact, config, parts } = options;
  const { model, memory } = parts;
  const hostName = parts.daemon.names.host;
  const hello = [greeting(config.persona), ...config.problems];
  if ('problem' in model) hello.push(`I cannot think yet: ${model.problem}`);
  else hello.push(describeModelChoice(model.provider));
  const text = codeSpans(hello.join(' '));
  if (text === memory.greeting) {
    log(`revived with the same model and settings; ${hostName} is not greeted again`);
    return;
  }
  try {
    await E(powers).send(hostName, [text], [], []);
  } catch (error) {
    log(`could not greet ${hostName}: ${describeError(error)}`);
    return;
  }
  memory.greeting = text;
  await saveMemory(powers, memory, log, redact);
};
harden(greetHost);
