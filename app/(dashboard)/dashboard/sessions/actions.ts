"use server";

import { authedAction } from "@/lib/auth/authed-action";
import { revokeSession, serializeLoginSession } from "@/lib/auth/login-sessions";
import { sessionParams } from "@/lib/auth/schemas";

/** Same use-case as DELETE /api/account/sessions/{id}/: the session ends at once (this one too, if chosen). */
// Personal: a person's own sign-ins, whatever their role in the account shown.
export const revokeSessionAction = authedAction(
  sessionParams,
  async ({ id }, { db, userId, familyId }) => serializeLoginSession(await revokeSession(db, userId, id), familyId ?? null),
  { permission: "login" },
);
