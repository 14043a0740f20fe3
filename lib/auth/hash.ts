import { createHash } from "node:crypto";

/** SHA-256 hex: for high-entropy secrets (API keys, refresh tokens) that are looked up by hash. */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}
