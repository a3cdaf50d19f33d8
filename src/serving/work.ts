/**
 * What the agent's single serving loop does next: a message, the outcomes
 * that arrived (notices), a wake-up that fell due, or a forget() between turns.
 */
import type { MessageRecord } from '../mail/message-record.js';

export type Work =
  | { kind: 'mail'; message: MessageRecord }
  | { kind: 'notices' }
  | { kind: 'wake'; id: string }
  | { kind: 'forget'; done: (said: string) => void };

export const describeError = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
