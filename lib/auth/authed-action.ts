import "server-only";
import { headers } from "next/headers";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { runAsActor } from "@/lib/audit/context";
import { getDb } from "@/lib/db/client";
import type { Db } from "@/lib/db/types";
import { env } from "@/lib/env";
import { clientIpOf } from "@/lib/http/client-address";
import type { ErrorCode } from "@/lib/http/error-codes";
import { databaseUnavailability } from "@/lib/db/errors";
import { findBlockchainBySlug } from "@/lib/chains/catalog";
import { merchantErrorMessage, type MerchantWording } from "@/lib/http/error-wording";
import { ApiError, notFound, type FieldErrors } from "@/lib/http/errors";
import { fieldErrors } from "@/lib/http/zod-details";
import { describeError, log } from "@/lib/log";
import { getSessionMerchant, type SessionMerchant } from "./next-auth";
import { consume, rateLimitedError } from "@/lib/rate-limit/fixed-window";
import { roleAllows, type MemberPermission } from "./roles";

/** What every dashboard server action returns: the same codes as the API's error envelope. */
export type ActionResult<T> =
  { ok: true; data: T } | { ok: false; error: { code: ErrorCode; message: string; details?: FieldErrors; fix?: MerchantWording["fix"] } };

export interface ActionContext extends SessionMerchant {
  db: Db;
}

export interface PublicActionContext {
  db: Db;
}

export interface ActionOptions {
  /** Sandbox tools: NOT_FOUND in live mode before anything else runs, like their API routes. */
  sandboxOnly?: boolean;
}

export interface AuthedActionOptions extends ActionOptions {
  /**
   * What the member's role must allow (lib/auth/roles.ts), as the matching API route's access;
   * "login": any member (their own settings). Unsaid: `manage_account` (owners and admins).
   */
  permission?: MemberPermission | "login";
}

export interface PublicActionOptions extends ActionOptions {
  /** A per-client-address limit counted before validation, the same one the matching API route uses (e.g. register). */
  clientLimit?: { name: string; perHour: number };
}

/** FormData → a plain object: repeated names become arrays, empty fields are left out. */
export function formDataObject(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    if (key.startsWith("$ACTION")) continue;
    const values = form.getAll(key).filter((v): v is string => typeof v === "string");
    const nonEmpty = values.filter((v) => v !== "");
    if (nonEmpty.length === 0) continue;
    out[key] = values.length > 1 ? nonEmpty : nonEmpty[0];
  }
  return out;
}

/** The client address of the current server action, by the same rule the API uses. */
export async function actionClientIp(): Promise<string> {
  return clientIpOf(new Request("http://localhost/", { headers: await headers() }));
}

/** Address and browser of the current server action, for the audit log and the sessions page. */
async function requestOrigin(): Promise<{ clientIp: string | null; userAgent: string | null }> {
  // Outside a live request (a test calling the action) there are no headers to read.
  let requestHeaders: Headers;
  try {
    requestHeaders = new Headers(await headers());
  } catch {
    return { clientIp: null, userAgent: null };
  }
  return { clientIp: clientIpOf(new Request("http://localhost/", { headers: requestHeaders })), userAgent: requestHeaders.get("user-agent") };
}

const failure = (code: ErrorCode, message: string, details?: FieldErrors, fix?: MerchantWording["fix"]): ActionResult<never> => ({
  ok: false,
  error: { code, message, ...(details && { details }), ...(fix && { fix }) },
});

/**
 * The network a dashboard form was about, by name, for the merchant's wording: its `blockchain`
 * field, or, for forms of several networks (a link's options), the one the use-case's error names
 * ("… configured for polygon").
 */
function chainNameOf(input: unknown, error: ApiError): string | undefined {
  const field = input instanceof FormData ? input.get("blockchain") : (input as { blockchain?: unknown } | null)?.blockchain;
  const slug = typeof field === "string" ? field : /configured for ([a-z0-9-]+)/.exec(error.message)?.[1];
  return slug ? (findBlockchainBySlug(slug)?.name ?? undefined) : undefined;
}

/** Input (a form or a plain object) parsed with the action's schema, or the VALIDATION_ERROR result. */
function parseInput<S extends z.ZodType>(schema: S, input: unknown): { data: z.output<S> } | { refused: ActionResult<never> } {
  const parsed = schema.safeParse(input instanceof FormData ? formDataObject(input) : input);
  if (parsed.success) return { data: parsed.data };
  return { refused: failure("VALIDATION_ERROR", "Please correct the highlighted fields.", fieldErrors(parsed.error)) };
}

/**
 * Runs an action's body with the one error policy: Next's redirects and notFound() pass through;
 * an ApiError comes back as `{ ok: false, error }` with its code; a lost database as
 * SERVICE_UNAVAILABLE (logged as a warning); anything else is logged and becomes INTERNAL_ERROR
 * with a fixed message.
 */
async function settle<T>(options: ActionOptions, body: () => Promise<ActionResult<T>>, merchantWording?: { input: unknown }): Promise<ActionResult<T>> {
  try {
    if (options.sandboxOnly && env.GATEWAY_MODE !== "sandbox") throw notFound("Endpoint");
    return await body();
  } catch (error) {
    unstable_rethrow(error);
    if (error instanceof ApiError && merchantWording) {
      const { message, fix } = merchantErrorMessage(error.code, { apiMessage: error.message, chainName: chainNameOf(merchantWording.input, error) });
      return failure(error.code, message, error.details, fix);
    }
    if (error instanceof ApiError) return failure(error.code, error.message, error.details);
    const unavailable = databaseUnavailability(error);
    if (unavailable) {
      log.warn("database unavailable; dashboard action refused", unavailable);
      return failure("SERVICE_UNAVAILABLE", "The service is temporarily unavailable. Try again in a few seconds.");
    }
    log.error("dashboard action failed", describeError(error));
    return failure("INTERNAL_ERROR", "An unexpected error occurred.");
  }
}

/**
 * The one wrapper for dashboard mutations (STYLE rule 6): the session's merchant, then zod, then
 * the handler, which calls the same lib/ use-cases as the API with the session's merchant id.
 * Expected failures come back as `{ ok: false, error }` with the API's codes, in the merchant's
 * words from the one wording map (lib/http/error-wording.ts) with a link to the fix; anything else is
 * logged and becomes INTERNAL_ERROR with a fixed message.
 */
export function authedAction<S extends z.ZodType, T>(
  schema: S,
  handler: (input: z.output<S>, ctx: ActionContext) => Promise<T>,
  options: AuthedActionOptions = {},
) {
  const permission = options.permission ?? "manage_account";
  return async function action(input: z.input<S> | FormData): Promise<ActionResult<T>> {
    return settle(
      options,
      async () => {
        const merchant = await getSessionMerchant();
        if (!merchant) return failure("INVALID_TOKEN", "Your session has ended. Sign in again.");
        if (permission !== "login" && !roleAllows(merchant.role, permission)) {
          return failure("INSUFFICIENT_PERMISSIONS", `Your role in this account (${merchant.role}) does not allow this.`);
        }
        const parsed = parseInput(schema, input);
        if ("refused" in parsed) return parsed.refused;
        const actor = { kind: "session" as const, label: merchant.username, ...(await requestOrigin()) };
        return runAsActor(actor, async () => ({ ok: true as const, data: await handler(parsed.data, { ...merchant, db: await getDb() }) }));
      },
      { input },
    );
  };
}

/**
 * authedAction for the signed-out forms (sign-up, sign-in): no session, the same zod parsing and
 * error policy, and optionally the per-address limit of the matching API route. A handler that
 * ends in a redirect (next-auth's signIn) throws it; it passes through to Next.
 */
export function publicAction<S extends z.ZodType, T>(
  schema: S,
  handler: (input: z.output<S>, ctx: PublicActionContext) => Promise<T>,
  options: PublicActionOptions = {},
) {
  return async function action(input: z.input<S> | FormData): Promise<ActionResult<T>> {
    return settle(options, async () => {
      const db = await getDb();
      if (options.clientLimit) {
        const quota = await consume(db, `${options.clientLimit.name}:${await actionClientIp()}`, options.clientLimit.perHour);
        if (quota.exceeded) throw rateLimitedError(quota);
      }
      const parsed = parseInput(schema, input);
      if ("refused" in parsed) return parsed.refused;
      return runAsActor({ kind: "public", label: null, ...(await requestOrigin()) }, async () => ({
        ok: true as const,
        data: await handler(parsed.data, { db }),
      }));
    });
  };
}
