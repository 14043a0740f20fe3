import "server-only";
import { createHash, randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/types";
import { ApiError, validationError } from "@/lib/http/errors";
import { maxBodyBytes, readCappedText } from "@/lib/http/read-body";
import { apiKeyPrefixes, webhookSecretPrefix } from "@/lib/ids";
import { log, describeError } from "@/lib/log";
import { claimIdempotencyKey, releaseIdempotencyKey, saveIdempotentResponse } from "./queries";

/** The request header (Stripe's name). */
export const idempotencyHeader = "Idempotency-Key";
/** How long a key and its answer are kept, per merchant. */
export const idempotencyKeyLifetimeMs = 24 * 60 * 60 * 1000;
/** An unanswered claim older than this belongs to a request whose process died; the same request may take it over. */
export const abandonedClaimMs = 2 * 60 * 1000;
/** 255 = Stripe's limit. */
export const maxIdempotencyKeyLength = 255;

/** Headers of the first answer that a replay must not copy (they describe the new request). */
const perRequestHeaders = new Set(["x-request-id", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "content-length"]);

/** The Idempotency-Key of a request (null: none sent); a malformed one is 400 VALIDATION_ERROR. */
export function idempotencyKeyOf(request: Request): string | null {
  const key = request.headers.get(idempotencyHeader);
  if (key === null) return null;
  const problem =
    key.trim() === ""
      ? "Must not be empty."
      : key.length > maxIdempotencyKeyLength
        ? `Must be at most ${maxIdempotencyKeyLength} characters.`
        : /^[\x20-\x7e]+$/.test(key)
          ? null
          : "Must be printable ASCII (e.g. a UUID).";
  if (problem) throw validationError({ [idempotencyHeader]: [problem] });
  return key;
}

/** JSON with object keys sorted, so the same body with its keys in another order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Method, path (trailing slash ignored), query and body: what must match for a replay. */
async function fingerprint(request: Request, url: URL): Promise<string> {
  const text = await readCappedText(request.clone(), maxBodyBytes);
  let body = text;
  try {
    if (text.trim() !== "") body = canonicalJson(JSON.parse(text));
  } catch {
    // Not JSON: the bytes decide (the handler will refuse it, and that answer is replayed).
  }
  const path = url.pathname.replace(/\/+$/, "") || "/";
  return createHash("sha256").update(`${request.method}\n${path}\n${url.search}\n${body}`).digest("hex");
}

export type IdempotencyStart =
  { kind: "run"; merchantId: number; key: string; lockToken: string } | { kind: "replay"; status: number; body: string; headers: Record<string, string> };

/**
 * Claims `key` for this request, or answers from the first request that used it: its stored
 * answer (replay), 409 IDEMPOTENCY_REQUEST_IN_PROGRESS while it still runs, 422
 * IDEMPOTENCY_KEY_REUSED when the key came with a different request.
 */
export async function startIdempotentRequest(
  db: Db,
  merchantId: number,
  key: string,
  request: Request,
  url: URL,
  requestId: string,
  now = new Date(),
): Promise<IdempotencyStart> {
  const requestHash = await fingerprint(request, url);
  const lockToken = randomUUID();
  const row = await claimIdempotencyKey(db, {
    merchantId,
    key,
    requestHash,
    lockToken,
    requestId,
    now,
    expiresAt: new Date(now.getTime() + idempotencyKeyLifetimeMs),
    staleBefore: new Date(now.getTime() - abandonedClaimMs),
  });
  if (row.lockToken === lockToken) return { kind: "run", merchantId, key, lockToken };
  if (row.requestHash !== requestHash) {
    throw new ApiError(
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was already used with a different request (method, path or body); use a new key for a new request.",
    );
  }
  if (row.status === null || row.responseBody === null) {
    throw new ApiError(
      "IDEMPOTENCY_REQUEST_IN_PROGRESS",
      "A request with this Idempotency-Key is still being processed; retry once it has answered.",
      undefined,
      {
        headers: { "Retry-After": "1" },
      },
    );
  }
  // Answers stored before secrets were redacted at write time are redacted on the way out too.
  const { body, paths } = redactSecrets(row.responseBody);
  return {
    kind: "replay",
    status: row.status,
    body,
    headers: {
      ...row.responseHeaders,
      ...(paths.length > 0 && { [redactedSecretsHeader]: paths.join(", ") }),
      "Idempotent-Replayed": "true",
      "Original-Request": row.requestId,
    },
  };
}

/**
 * Whether an answer is kept for replays: every 2xx and 4xx the request's own execution gave,
 * except 409 and 429 (they depend on timing, not on the request). A 5xx is not kept: the key is
 * released and a retry runs again (like Stripe does for errors before execution completed).
 */
export function isReplayable(status: number): boolean {
  return status < 500 && status !== 409 && status !== 429;
}

/**
 * A whole secret as newId makes it: an API key (43 base62 characters) or a webhook secret (base64 of
 * 32 bytes); or an invitation link (its token: base64url of 32 bytes), which is a credential too.
 */
const secretValue = new RegExp(
  `^(?:(?:${apiKeyPrefixes.join("|")})[0-9A-Za-z]{43}|${webhookSecretPrefix}[A-Za-z0-9+/]{43}=|https?://\\S+/invite\\?token=[A-Za-z0-9_-]{43})$`,
);

/** Header on a replay whose stored answer had secrets taken out; lists the JSON paths, e.g. `data.key`. */
export const redactedSecretsHeader = "Idempotent-Redacted";

/**
 * The answer with every secret value (API key, webhook secret) replaced by null, and the paths it
 * was at. Secrets are shown once: an answer that carries one is never stored in clear, so a
 * replay says the operation happened (ids, names) but not the secret (issue 24).
 */
export function redactSecrets(body: string): { body: string; paths: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { body, paths: [] };
  }
  const paths: string[] = [];
  const walk = (value: unknown, path: string): unknown => {
    if (typeof value === "string") {
      if (!secretValue.test(value)) return value;
      paths.push(path);
      return null;
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, `${path}[${i}]`));
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k)]));
    return value;
  };
  const redacted = walk(parsed, "");
  return paths.length === 0 ? { body, paths } : { body: JSON.stringify(redacted), paths };
}

/** Stores the answer for replays (secrets redacted), or releases the key (see isReplayable). Never throws. */
export async function finishIdempotentRequest(db: Db, claim: Extract<IdempotencyStart, { kind: "run" }>, response: Response): Promise<void> {
  try {
    if (!isReplayable(response.status)) {
      await releaseIdempotencyKey(db, claim.merchantId, claim.key, claim.lockToken);
      return;
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!perRequestHeaders.has(name)) headers[name] = value;
    });
    const { body, paths } = redactSecrets(await response.clone().text());
    if (paths.length > 0) headers[redactedSecretsHeader.toLowerCase()] = paths.join(", ");
    await saveIdempotentResponse(db, claim.merchantId, claim.key, claim.lockToken, { status: response.status, body, headers });
  } catch (error) {
    // The claim then stays unanswered and is taken over by the same request after abandonedClaimMs.
    log.error("idempotency: could not store the answer", { merchant_id: claim.merchantId, ...describeError(error) });
  }
}
