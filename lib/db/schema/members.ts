/** Who acts in a store (lib/members): memberships and invitations. */
import { index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts, timestamps } from "./columns";
import { merchants } from "./accounts";

/**
 * Who may act in a merchant account (issue 28). `user_id` names the person's login, which is still a
 * `merchants` row (username, email, password, second factors, sessions): every login is also its own
 * account, owned by itself; memberships give it roles in other accounts (docs/adr/0008).
 * `role`: owner | admin | developer | viewer (lib/auth/roles.ts).
 */
export const memberships = pgTable(
  "memberships",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("memberships_account_user_key").on(t.merchantId, t.userId), index("memberships_user_idx").on(t.userId)],
);
export type Membership = typeof memberships.$inferSelect;

/** An emailed invitation to join an account with a role: single use, expiring; only the token's SHA-256 is kept. */
export const invitations = pgTable(
  "invitations",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role").notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: integer("invited_by").references(() => merchants.id, { onDelete: "set null" }),
    expiresAt: ts("expires_at").notNull(),
    acceptedAt: ts("accepted_at"),
    acceptedBy: integer("accepted_by").references(() => merchants.id, { onDelete: "set null" }),
    revokedAt: ts("revoked_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("invitations_token_hash_key").on(t.tokenHash), index("invitations_account_idx").on(t.merchantId, t.createdAt)],
);
export type Invitation = typeof invitations.$inferSelect;
