"use server";

import { cookies } from "next/headers";
import { z } from "zod";
import { authedAction, type ActionContext } from "@/lib/auth/authed-action";
import { activeAccountCookie, sessionMaxAgeSeconds } from "@/lib/auth/next-auth";
import { rowId } from "@/lib/http/schemas";
import {
  cancelInvitation,
  changeMemberRole,
  inviteMember,
  removeMember,
  resolveLoginAccount,
  serializeSentInvitation,
  type MemberActor,
} from "@/lib/members/members";
import { changeRoleBody, inviteBody } from "@/lib/members/schemas";

const actorOf = ({ merchantId, userId, role }: ActionContext): MemberActor => ({ merchantId, userId, role });

/** Same use-case and limit as POST /api/account/invitations/. */
export const inviteMemberAction = authedAction(inviteBody, async (input, ctx) => serializeSentInvitation(await inviteMember(ctx.db, actorOf(ctx), input)), {
  permission: "manage_members",
});

/** Same use-case as PUT /api/account/members/{userId}/ (the last owner stays an owner). */
export const changeRoleAction = authedAction(
  z.object({ userId: rowId }).and(changeRoleBody),
  async ({ userId, role }, ctx) => {
    await changeMemberRole(ctx.db, actorOf(ctx), userId, role);
    return { user_id: userId, role };
  },
  { permission: "manage_members" },
);

/** Same use-case as DELETE /api/account/members/{userId}/. */
export const removeMemberAction = authedAction(
  z.object({ userId: rowId }),
  async ({ userId }, ctx) => {
    await removeMember(ctx.db, actorOf(ctx), userId);
    return { user_id: userId };
  },
  { permission: "manage_members" },
);

/** Same use-case as DELETE /api/account/invitations/{id}/. */
export const revokeInvitationAction = authedAction(
  z.object({ id: rowId }),
  async ({ id }, ctx) => {
    await cancelInvitation(ctx.db, actorOf(ctx), id);
    return { id };
  },
  { permission: "manage_members" },
);

/** The store switcher: the dashboard acts in another account of this login (it must be a member; checked again on every request). */
export const switchAccountAction = authedAction(
  z.object({ account: rowId }),
  async ({ account }, { db, userId }) => {
    const chosen = await resolveLoginAccount(db, userId, account);
    (await cookies()).set(activeAccountCookie, String(chosen.merchantId), { httpOnly: true, sameSite: "lax", path: "/", maxAge: sessionMaxAgeSeconds });
    return { account: chosen.merchantId, role: chosen.role };
  },
  { permission: "login" },
);
