/**
 * Whether `error` is viem's error of that class (`name` is the name viem gives it). By name as well: the production
 * server bundles viem into several chunks, and an error thrown by one copy is not an instance of another copy's class
 * (a receipt not found yet, taken for a failure, turned a relayed permit into a 503 in the built server only).
 */
export function isViemError(error: unknown, kind: abstract new (...args: never[]) => Error, name: string): boolean {
  return error instanceof kind || (error instanceof Error && error.name === name);
}
