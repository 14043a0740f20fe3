import "server-only";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { getDb } from "@/lib/db/client";
import type { Db } from "@/lib/db/types";
import type { ErrorCode } from "@/lib/http/error-codes";
import { ApiError, type FieldErrors } from "@/lib/http/errors";
import { fieldErrors } from "@/lib/http/zod-details";
import { describeError, log } from "@/lib/log";
import { getSessionMerchant, type SessionMerchant } from "./next-auth";

/** What every dashboard server action returns: the same codes as the API's error envelope. */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: { code: ErrorCode; message: string; details?: FieldErrors } };

export interface ActionContext extends SessionMerchant {
  db: Db;
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

/**
 * The one wrapper for dashboard mutations (STYLE rule 6): the session's merchant, then zod, then
 * the handler, which calls the same lib/ use-cases as the API with the session's merchant id.
 * Expected failures come back as `{ ok: false, error }` with the API's codes; anything else is
 * logged and becomes INTERNAL_ERROR with a fixed message.
 */
export function authedAction<S extends z.ZodType, T>(schema: S, handler: (input: z.output<S>, ctx: ActionContext) => Promise<T>) {
  return async function action(input: z.input<S> | FormData): Promise<ActionResult<T>> {
    try {
      const merchant = await getSessionMerchant();
      if (!merchant) return { ok: false, error: { code: "INVALID_TOKEN", message: "Your session has ended. Sign in again." } };
      const parsed = schema.safeParse(input instanceof FormData ? formDataObject(input) : input);
      if (!parsed.success) {
        return { ok: false, error: { code: "VALIDATION_ERROR", message: "Please correct the highlighted fields.", details: fieldErrors(parsed.error) } };
      }
      const data = await handler(parsed.data, { ...merchant, db: await getDb() });
      return { ok: true, data };
    } catch (error) {
      unstable_rethrow(error);
      if (error instanceof ApiError) return { ok: false, error: { code: error.code, message: error.message, ...(error.details && { details: error.details }) } };
      log.error("dashboard action failed", describeError(error));
      return { ok: false, error: { code: "INTERNAL_ERROR", message: "An unexpected error occurred." } };
    }
  };
}
