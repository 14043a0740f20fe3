import "server-only";
import { hash, verify } from "@node-rs/argon2";

/** Algorithm.Argon2id (a const enum, which isolatedModules cannot import). */
const argon2id = 2;

interface HashCost {
  memoryCost: number;
  timeCost: number;
}

let testCost: HashCost | undefined;

/**
 * The test suite only (tests/helpers/setup.ts): hash at a lower cost, since its thousands of sign-ups
 * otherwise spend minutes of CPU in argon2id. `undefined` restores the production cost; the test of the
 * stored hash's parameters runs on it. Every hash carries its own parameters, so verifying never depends on it.
 */
export function setPasswordHashCostForTests(cost: HashCost | undefined): void {
  testCost = cost;
}

// argon2id with the library's defaults (m=19456 KiB, t=2, p=1: OWASP's minimum recommendation).
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: argon2id, ...testCost });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spend the same time as a real check when the username is unknown, so timing does not reveal accounts. */
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummyHash ??= hashPassword("not-a-real-password");
  await verifyPassword(await dummyHash, password);
}
