/** `math`: one arithmetic operation on two finite numbers. */
import type { Env } from '../providers/types.js';
import { makeFaeTool } from './lib/make-fae-tool.js';
import { choice, finiteNumber, parameters, type ValuesOf } from './lib/fae-parameters.js';

const toolName = 'math';

const operations = {
  add: (a: number, b: number) => a + b,
  subtract: (a: number, b: number) => a - b,
  multiply: (a: number, b: number) => a * b,
  divide: (a: number, b: number) => a / b,
  // JavaScript's remainder: the result takes the sign of `a`.
  modulo: (a: number, b: number) => a % b,
  power: (a: number, b: number) => a ** b,
} as const;
type Operation = keyof typeof operations;
const operationNames = Object.keys(operations) as Operation[];

const mathParameters = {
  operation: choice('What to compute.', operationNames),
  a: finiteNumber('The first operand.'),
  b: finiteNumber('The second operand.'),
};

function run({ operation, a, b }: ValuesOf<typeof mathParameters>) {
  if ((operation === 'divide' || operation === 'modulo') && b === 0) {
    throw Error(`${toolName}: ${operation === 'divide' ? 'division' : 'modulo'} by zero`);
  }
  const result = operations[operation](a, b);
  if (!Number.isFinite(result)) {
    throw Error(`${toolName}: ${operation}(${a}, ${b}) has no finite result (${String(result)})`);
  }
  // -0 is a distinct passable; nobody asking for arithmetic wants it.
  return { operation, a, b, result: Object.is(result, -0) ? 0 : result };
}

export const make = (_powers?: unknown, _context?: unknown, _options?: { env?: Env }) => {
  return makeFaeTool({
    name: toolName,
    description:
      'Arithmetic on two numbers: add, subtract, multiply, divide, modulo (remainder) or power.',
    parameters: parameters(mathParameters),
    returns: '{ operation, a, b, result }',
    help: [
      `operation: ${operationNames.join(', ')}. a and b are finite numbers.`,
      'Division or modulo by zero, and results that are not finite, are errors.',
      'modulo is the remainder with the sign of a (-7 modulo 3 is -1).',
    ].join('\n'),
    run,
  });
};
harden(make);
