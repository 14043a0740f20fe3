"use server";

import { z } from "zod";
import { createApiKeyBody } from "@/lib/auth/api-key-schemas";
import { createApiKey, revokeApiKey, serializeApiKey } from "@/lib/auth/api-keys";
import { authedAction } from "@/lib/auth/authed-action";
import { rowId } from "@/lib/http/schemas";

/** The form's expiry is a date: the key works through the end of that UTC day. */
const fromForm = (o: unknown) => {
  const f = (o ?? {}) as Record<string, unknown>;
  const day = typeof f.expires_at === "string" && /^\d{4}-\d{2}-\d{2}$/.test(f.expires_at) ? `${f.expires_at}T23:59:59Z` : f.expires_at;
  const code = typeof f.code === "string" && f.code.trim() !== "" ? f.code : undefined;
  return { name: f.name, preset: f.preset, expires_at: day ?? null, ...(code ? { reauth: { code } } : {}) };
};

/** Same use-case as POST /api/api-keys/: the secret is in this result only; `code` is the fresh second factor when 2FA is on. */
export const createApiKeyAction = authedAction(
  z.preprocess(fromForm, createApiKeyBody),
  async (input, { db, merchantId, userId, role }) => {
    const { key, record } = await createApiKey(db, { merchantId, userId, role }, input, new Date(), { codeField: "code" });
    return { ...serializeApiKey(record), key };
  },
  { permission: "manage_api_keys" },
);

/** Same use-case as DELETE /api/api-keys/{id}/. */
export const revokeApiKeyAction = authedAction(
  z.object({ id: rowId }),
  async ({ id }, { db, merchantId }) => serializeApiKey(await revokeApiKey(db, merchantId, id)),
  { permission: "manage_api_keys" },
);
