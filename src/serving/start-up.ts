/**
 * What the agent does once before its first turn: moves tools introduced
 * at provisioning into tools/, and greets its host with what it is and
 * which model it thinks with (or why it cannot think yet).
 */
import { E } from '@endo/far';
import type { PowersRef } from '../guest-powers.js';
import type { Log } from '../log.js';
import type { AgentConfig } from '../config.js';
import { greeting } from '../system-prompt.js';
import { describeModelChoice } from '../../providers/describe-model-choice.js';
import { codeSpans } from '../mail/code-spans.js';
import { MEMORY_NAME } from '../memory/agent-memory.js';
import { adoptIntroducedTools } from '../tools/adopt-introduced-tools.js';
import type { ModelChoice } from './load-model.js';
import { describeError } from '../../providers/describe-error.js';

export const prepareToolsFolder = async (powers: PowersRef, log: Log): Promise<void> => {
  try {
    const moved = await adoptIntroducedTools({ powers, log, reserved: new Set([MEMORY_NAME]) });
    if (moved.length > 0) log(`moved introduced tools into tools/: ${moved.join(', ')}`);
  } catch (error) {
    log(`could not prepare tools/: ${describeError(error)}`);
  }
};

export const greetHost = async (options: {
  powers: PowersRef;
  log: Log;
  config: AgentConfig;
  model: ModelChoice;
  hostName: string;
}) => {
  const { powers, log, config, model, hostName } = options;
  const hello = [greeting(config.persona), ...config.problems];
  if ('problem' in model) hello.push(`I cannot think yet: ${model.problem}`);
  else hello.push(describeModelChoice(model.provider));
  await Promise.resolve(E(powers).send(hostName, [codeSpans(hello.join(' '))], [], [])).catch(
    (error: unknown) => log(`could not greet ${hostName}: ${describeError(error)}`),
  );
};
