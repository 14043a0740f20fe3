import type { Role } from "@/lib/auth/roles";

/** Who acts on a batch: the credential's login and role (null for an API key). */
export interface PayoutActor {
  merchantId: number;
  kind: "access_token" | "api_key" | "session";
  username: string;
  userId: number | null;
  role: Role | null;
  apiKeyId?: number;
}

/** How the batch records its maker or approver: the username, or the API key. */
export const actorLabel = (actor: PayoutActor) => (actor.apiKeyId !== undefined ? `${actor.username} (API key #${actor.apiKeyId})` : actor.username);
