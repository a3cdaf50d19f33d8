/**
 * The HOST's hand on the schedules, through the agent's controller
 * (`schedules(action, id)`) and the simulator's /schedules: list them, or
 * pause, resume or revoke one. A wrong action or id is an error saying what
 * would do.
 */
import type { WakeUps } from './wake-ups.js';

const ACTIONS = ['list', 'pause', 'resume', 'revoke'] as const;

export const controlSchedules = (
  wakeUps: WakeUps,
  action: string,
  id: string | undefined,
): string => {
  const verb = action.trim().toLowerCase() || 'list';
  if (verb === 'list') {
    const lines = wakeUps.describe();
    return lines.length === 0 ? 'No schedules.' : lines.map(line => `- ${line}`).join('\n');
  }
  if (!(ACTIONS as readonly string[]).includes(verb))
    throw new Error(
      `schedules: the action is one of ${ACTIONS.join(', ')}; got ${JSON.stringify(action)}`,
    );
  if (id === undefined || id.trim() === '')
    throw new Error(
      `schedules: ${verb} needs the id of a schedule (e.g. "w2"; list them with schedules())`,
    );
  const which = id.trim();
  if (verb === 'pause') return wakeUps.pause(which);
  if (verb === 'resume') return wakeUps.resume(which);
  return wakeUps.revoke(which);
};
harden(controlSchedules);
