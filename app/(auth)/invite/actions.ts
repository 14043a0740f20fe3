"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { publicAction, actionClientIp } from "@/lib/auth/authed-action";
import { acceptInvitationWithCredentials } from "@/lib/members/members";
import { memberRoutes } from "@/lib/members/routes";
import { acceptInvitationBody } from "@/lib/members/schemas";

/** A form's hidden `create_login=on` → the API body's boolean. */
const fromForm = (o: unknown) => {
  const f = (o ?? {}) as Record<string, unknown>;
  return { ...f, create_login: f.create_login === "on" || f.create_login === true };
};

/**
 * Same use-case and limit as POST /api/auth/invitations/accept/. Then to the page's "joined" state:
 * the spent link itself would only say it was already used.
 */
export const acceptInvitationAction = publicAction(
  z.preprocess(fromForm, acceptInvitationBody),
  async (input, { db }) => {
    const { account } = await acceptInvitationWithCredentials(db, input, await actionClientIp());
    redirect(`/invite?${new URLSearchParams({ joined: account.shop_name, role: account.role })}`);
  },
  { clientLimit: memberRoutes.acceptInvitation.clientLimit },
);
