import "server-only";
import { processSingleton } from "@/lib/process-singleton";
import type { Role } from "./roles";

/**
 * How long this process reuses what the database said about a credential (an API key, or a
 * login family with its merchant). A key revoked, a login family revoked or a plan changed by
 * ANOTHER instance (or by `npm run admin`) takes effect here within this bound; in this process
 * it takes effect at once (the revoking code calls `forgetMerchantCredentials`). Expiry is
 * exact either way: it is checked against the clock on every request. Rejected credentials are
 * never kept, so every request with one asks the database again.
 */
export const credentialCacheTtlMs = 5_000;

/** Bounded: past this, the oldest entry goes first. */
const maxEntries = 10_000;

export interface CachedApiKey {
  kind: "api_key";
  apiKeyId: number;
  merchantId: number;
  username: string;
  permissions: string[];
  expiresAt: Date | null;
  plan: string;
  rateLimitPerHour: number | null;
}

export interface CachedLoginFamily {
  kind: "login_family";
  /** The account the family's tokens act in. */
  merchantId: number;
  /** The login, and its role in that account when the database was asked. */
  userId: number;
  role: Role;
  username: string;
  plan: string;
  rateLimitPerHour: number | null;
}

type Cached = CachedApiKey | CachedLoginFamily;

// One map per process (Next.js may load this module more than once).
const entries = processSingleton("credentialCache", () => new Map<string, { value: Cached; fetchedAt: number }>());

export const apiKeyCacheKey = (keyHash: string) => `key:${keyHash}`;
export const loginFamilyCacheKey = (familyId: string) => `family:${familyId}`;

/** What the database said about this credential less than `credentialCacheTtlMs` ago, if anything. */
export function cachedCredential<K extends Cached["kind"]>(key: string, kind: K, now: Date): Extract<Cached, { kind: K }> | null {
  const entry = entries.get(key);
  if (!entry) return null;
  const age = now.getTime() - entry.fetchedAt;
  if (age < 0 || age >= credentialCacheTtlMs || entry.value.kind !== kind) {
    entries.delete(key);
    return null;
  }
  return entry.value as Extract<Cached, { kind: K }>;
}

export function rememberCredential(key: string, value: Cached, now: Date): void {
  entries.delete(key);
  entries.set(key, { value, fetchedAt: now.getTime() });
  if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
}

/** Drops what is kept about a login family (signed out, or a refresh token reused). */
export function forgetLoginFamily(familyId: string): void {
  entries.delete(loginFamilyCacheKey(familyId));
}

/** Drops everything kept about a merchant's credentials: a key revoked, a plan changed. */
export function forgetMerchantCredentials(merchantId: number): void {
  for (const [key, entry] of entries) if (entry.value.merchantId === merchantId) entries.delete(key);
}
