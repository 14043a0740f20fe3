import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { getAuthSecret } from "./secret";

/** RFC 6238 defaults every authenticator app understands. */
export const totpPeriodSeconds = 30;
const totpDigits = 6;
/** One step either side: a phone clock 30 s off still works. */
const totpWindow = 1;

function totpFor(secretBase32: string, label = "merchant"): TOTP {
  return new TOTP({
    issuer: "Payment Gateway",
    label,
    algorithm: "SHA1",
    digits: totpDigits,
    period: totpPeriodSeconds,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new 160-bit TOTP secret (RFC 4226's recommended size), base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function otpauthUri(secretBase32: string, username: string): string {
  return totpFor(secretBase32, username).toString();
}

/** The current code, for tests and the sandbox; never sent by the server. */
export function totpCodeAt(secretBase32: string, at: Date): string {
  return totpFor(secretBase32).generate({ timestamp: at.getTime() });
}

/**
 * The time step `code` is valid for at `now` (within one step either side), or null. The caller
 * refuses a step at or before the last one accepted, so a code works once.
 */
export function totpStepOf(secretBase32: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secretBase32).validate({ token: code, timestamp: now.getTime(), window: totpWindow });
  if (delta === null) return null;
  return TOTP.counter({ period: totpPeriodSeconds, timestamp: now.getTime() }) + delta;
}

// ─── the secret at rest ───

/** A key of its own for TOTP secrets, derived from AUTH_SECRET (HKDF), so no other use of AUTH_SECRET can reveal them. */
function secretKey(): Buffer {
  return Buffer.from(hkdfSync("sha256", getAuthSecret(), Buffer.alloc(0), "gateway totp secret v1", 32));
}

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>` (base64url). `aad` binds the ciphertext to its owner, so a row copied to another account does not decrypt. */
export function encryptTotpSecret(secretBase32: string, aad: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secretKey(), iv);
  cipher.setAAD(Buffer.from(aad));
  const ciphertext = Buffer.concat([cipher.update(secretBase32, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

export function decryptTotpSecret(stored: string, aad: string): string {
  const [version, iv, tag, ciphertext] = stored.split(".");
  if (version !== "v1" || !iv || !tag || !ciphertext) throw new Error("Unreadable TOTP secret.");
  const decipher = createDecipheriv("aes-256-gcm", secretKey(), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

// ─── recovery codes ───

const recoveryAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"; // no 0/o, 1/l/i
export const recoveryCodeCount = 10;

/** `xxxxx-xxxxx`: 10 characters of a 31-letter alphabet, about 50 bits. */
export function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => recoveryAlphabet[b % recoveryAlphabet.length]);
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
}

/** How a typed recovery code is compared: case, spaces and the dash do not matter. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "");
}
