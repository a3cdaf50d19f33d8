/** `math`: one arithmetic operation on two finite numbers. */
import type { Env } from '../providers/types.js';
import { makeFaeTool } from './lib/make-fae-tool.js';
import { describeType, requireString, toNumber } from './lib/tool-args.js';
import type { ToolArgs } from './lib/tool-args.js';

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

function isOperation(name: string): name is Operation {
  return (operationNames as string[]).includes(name);
}

/** A finite number from a number, a bigint or a numeric string. */
function requireFinite(args: ToolArgs, key: string): number {
  const value = args[key];
  if (value === undefined || value === null) throw Error(`${toolName}: ${key} is required`);
  const number = toNumber(value);
  if (number === undefined) {
    throw Error(`${toolName}: ${key} must be a number, got ${describeType(value)}`);
  }
  if (!Number.isFinite(number)) {
    throw Error(`${toolName}: ${key} must be a finite number, got ${String(number)}`);
  }
  if (typeof value === 'bigint' && !Number.isSafeInteger(number)) {
    throw Error(`${toolName}: ${key} is too large to compute exactly`);
  }
  return number;
}

function run(args: ToolArgs) {
  const operation = requireString(toolName, args, 'operation').trim().toLowerCase();
  if (!isOperation(operation)) {
    throw Error(
      `${toolName}: unknown operation ${JSON.stringify(operation)}; use one of ${operationNames.join(', ')}`,
    );
  }
  const a = requireFinite(args, 'a');
  const b = requireFinite(args, 'b');
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
    parameters: {
      type: 'object',
      properties: {
        operation: { type: 'string', enum: operationNames, description: 'What to compute.' },
        a: { type: 'number', description: 'The first operand.' },
        b: { type: 'number', description: 'The second operand.' },
      },
      required: ['operation', 'a', 'b'],
      additionalProperties: false,
    },
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
