/**
 * The status board behind help(): sections are read when help is asked for,
 * an empty section is left out, and a section that throws is shown as
 * unreadable instead of taking help() down.
 */
import { expect, test } from 'vitest';
import { makeStatusBoard } from '../src/status/agent-status.js';

test('sections are read on each describe, empty ones left out, a failing one reported', () => {
  const board = makeStatusBoard();
  let tools = ['echo'];
  board.section('Tools', () => tools);
  board.section('Quiet', () => []);
  board.section('Broken', () => {
    throw Error('store gone');
  });
  board.section('Odd', () => {
    // A section reader that throws a non-Error: the board must still describe it.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw 'not an error';
  });
  expect(board.describe()).toBe(
    'Tools:\n- echo\nBroken:\n- (could not be read: store gone)\nOdd:\n- (could not be read: not an error)',
  );
  tools = ['echo', 'clock'];
  board.section('Broken', () => ['fixed']);
  expect(board.describe()).toBe(
    'Tools:\n- echo\n- clock\nBroken:\n- fixed\nOdd:\n- (could not be read: not an error)',
  );
});
