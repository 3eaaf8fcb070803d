// The few declarations of node's test runner and strict assert that the tests use: enough to
// type-check them without adding @types/node to the frontend's dependencies.

declare module "node:test" {
  export function test(name: string, fn: () => void | Promise<void>): Promise<void>;
  export function beforeEach(fn: () => void): void;
}

declare module "node:assert/strict" {
  interface Assert {
    equal(actual: unknown, expected: unknown, message?: string): void;
    notEqual(actual: unknown, expected: unknown, message?: string): void;
    deepEqual(actual: unknown, expected: unknown, message?: string): void;
    ok(value: unknown, message?: string): asserts value;
    throws(fn: () => unknown, expected?: RegExp, message?: string): void;
  }
  const assert: Assert;
  export default assert;
}
