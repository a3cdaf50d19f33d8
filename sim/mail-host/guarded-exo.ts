/**
 * Guarded exos made cheaply. `makeExo` defines a new class (and checks its
 * guard) on every call — hundreds of microseconds — while the mail host makes
 * an exo per message (its dismisser). So each (tag, guard) gets one class,
 * defined on first use, whose methods forward to the record passed in.
 * The method types are left to the caller: @endo/exo's typing wants each
 * signature to mirror its guard exactly, which readonly arrays and optional
 * arguments defeat. The guard still checks every call.
 */
import { defineExoClass } from '@endo/exo';
import { getInterfaceMethodKeys } from '@endo/patterns';
import type { InterfaceGuard } from '@endo/patterns';

type Implementation = Record<PropertyKey, (...args: unknown[]) => unknown>;
type LooseDefineExoClass = (
  tag: string,
  guard: InterfaceGuard,
  init: (implementation: Implementation) => { implementation: Implementation },
  methods: Record<
    PropertyKey,
    (this: { state: { implementation: Implementation } }, ...args: unknown[]) => unknown
  >,
) => (implementation: Implementation) => object;

const makersByGuard = new WeakMap<
  InterfaceGuard,
  Map<string, (implementation: Implementation) => object>
>();

const defineForwardingClass = (tag: string, guard: InterfaceGuard) => {
  const methods: Record<
    PropertyKey,
    (this: { state: { implementation: Implementation } }, ...args: unknown[]) => unknown
  > = {};
  for (const key of getInterfaceMethodKeys(guard)) {
    methods[key] = function forward(...args) {
      const method = this.state.implementation[key];
      if (typeof method !== 'function') throw Error(`${tag} has no method ${String(key)}`);
      return method(...args);
    };
  }
  return (defineExoClass as unknown as LooseDefineExoClass)(
    tag,
    guard,
    implementation => ({ implementation }),
    methods,
  );
};

export const makeGuardedExo = <T extends object>(
  tag: string,
  guard: InterfaceGuard,
  methods: object,
): T => {
  let makers = makersByGuard.get(guard);
  if (!makers) {
    makers = new Map();
    makersByGuard.set(guard, makers);
  }
  let make = makers.get(tag);
  if (!make) {
    make = defineForwardingClass(tag, guard);
    makers.set(tag, make);
  }
  return make(methods as Implementation) as T;
};
harden(makeGuardedExo);
