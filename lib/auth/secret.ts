import "server-only";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "@/lib/env";
import { processSingleton } from "@/lib/process-singleton";

/**
 * The JWT signing key. AUTH_SECRET when set; the production server refuses to start without it
 * (instrumentation.ts). In development one is generated once and kept in .data/auth-secret so
 * sessions survive restarts; tests get a random one per process.
 */
export function getAuthSecret(): Uint8Array {
  return processSingleton("authSecret", () => new TextEncoder().encode(secretText()));
}

function secretText(): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  if (env.NODE_ENV === "production") throw new Error("AUTH_SECRET must be set in production.");
  if (env.NODE_ENV === "test") return randomBytes(32).toString("base64url");
  return readOrCreateDevSecret();
}

function readOrCreateDevSecret(): string {
  const file = path.join(process.cwd(), ".data", "auth-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    const secret = randomBytes(32).toString("base64url");
    mkdirSync(path.dirname(file), { recursive: true });
    // "wx": if another process created it first, keep theirs.
    try {
      writeFileSync(file, secret, { flag: "wx", mode: 0o600 });
      return secret;
    } catch {
      return readFileSync(file, "utf8").trim();
    }
  }
}

/**
 * Why the configured AUTH_SECRET must not sign live tokens, or null. Sandbox and live need
 * different secrets; what can be detected here: the development secret generated into
 * .data/auth-secret (a sandbox run in this folder) and the example values in this repository.
 */
export function sharedSecretReason(): string | null {
  const secret = env.AUTH_SECRET;
  if (!secret) return null;
  if (secret === "bench-secret-bench-secret-bench-secret") return "AUTH_SECRET is the example value from this repository.";
  try {
    const dev = readFileSync(path.join(process.cwd(), ".data", "auth-secret"), "utf8").trim();
    if (dev && dev === secret) return "AUTH_SECRET is the development/sandbox secret of .data/auth-secret.";
  } catch {
    // no development secret here
  }
  return null;
}
