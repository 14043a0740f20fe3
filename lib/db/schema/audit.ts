/** The append-only audit log (lib/audit). */
import { index, integer, jsonb, pgTable, serial, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/**
 * The audit log (issue 28): every security-relevant change of an account, who made it, from where,
 * and the old and new values where they are safe to keep (never a secret). Append-only: the
 * product has no update or delete path and a trigger (migration) refuses both. No foreign key to
 * merchants on purpose: an account's record outlives the account.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id").notNull(),
    /** e.g. `auth.login_succeeded`, `api_key.created` (lib/audit/actions.ts) */
    action: text("action").notNull(),
    /** access_token | api_key | session | public | system */
    actorKind: text("actor_kind").notNull(),
    /** Who, in words: the username, or the API key's name and prefix. */
    actor: text("actor"),
    /** What the change was about, e.g. `api_key:12`, `wallet:3`, `webhook_endpoint:5`. */
    target: text("target"),
    clientIp: text("client_ip"),
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("audit_log_merchant_idx").on(t.merchantId, t.createdAt), index("audit_log_merchant_action_idx").on(t.merchantId, t.action, t.createdAt)],
);
export type AuditEntry = typeof auditLog.$inferSelect;
export type NewAuditEntry = typeof auditLog.$inferInsert;
