/** Idempotency-Key answers (lib/idempotency). */
import { index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { merchants } from "./accounts";

/**
 * Idempotency-Key answers (lib/idempotency/): one row per merchant and key, kept 24 h. `status`
 * null = the first request is still running (claimed by `lockToken`); then the stored answer.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** SHA-256 of method, path and canonical body: the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    lockToken: text("lock_token").notNull(),
    /** x-request-id of the first request, sent back as Original-Request on replays. */
    requestId: text("request_id").notNull(),
    status: integer("status"),
    responseBody: text("response_body"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    createdAt: ts("created_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);
export type IdempotencyKey = typeof idempotencyKeys.$inferSelect;
