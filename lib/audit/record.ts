import "server-only";
import type { AuditEntry } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import type { AuditAction } from "./actions";
import { currentActor, type AuditActor } from "./context";
import { insertAuditEntry } from "./queries";

export interface AuditRecord {
  merchantId: number;
  action: AuditAction;
  /** e.g. `api_key:12`; what the entry is about. */
  target?: string | null;
  /** Safe values only: never a secret, a password, a code or a token. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** Defaults to the current request's actor (lib/audit/context.ts). */
  actor?: AuditActor;
  /** Defaults to the actor's address. */
  ip?: string | null;
  now?: Date;
}

/**
 * Records one audit entry. Call it from the use-case, with the transaction that makes the change,
 * so every caller (API route, dashboard action, job) is covered and the entry exists exactly when
 * the change does.
 */
export async function recordAudit(db: DbOrTx, record: AuditRecord): Promise<void> {
  const actor = record.actor ?? currentActor();
  await insertAuditEntry(db, {
    merchantId: record.merchantId,
    action: record.action,
    actorKind: actor.kind,
    actor: actor.label,
    target: record.target ?? null,
    clientIp: record.ip !== undefined ? record.ip : actor.clientIp,
    before: record.before ?? null,
    after: record.after ?? null,
    createdAt: record.now ?? new Date(),
  });
}

export function serializeAuditEntry(entry: AuditEntry) {
  return {
    id: entry.id,
    action: entry.action,
    actor: { kind: entry.actorKind as AuditActor["kind"], name: entry.actor },
    target: entry.target,
    client_ip: entry.clientIp,
    before: (entry.before as Record<string, unknown> | null) ?? null,
    after: (entry.after as Record<string, unknown> | null) ?? null,
    created_at: entry.createdAt.toISOString(),
  };
}
