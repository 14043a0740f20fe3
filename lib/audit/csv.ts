import "server-only";
import type { AuditEntry } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { csvRow } from "@/lib/dashboard/orders-csv";
import { auditExportBatch } from "./queries";
import type { AuditFilter } from "./schemas";

export const auditCsvColumns = ["id", "created_at", "action", "actor_kind", "actor", "target", "client_ip", "before", "after"] as const;
const batchSize = 500;

function entryRow(entry: AuditEntry): string {
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
  return csvRow([entry.id, entry.createdAt.toISOString(), entry.action, entry.actorKind, entry.actor, entry.target, entry.clientIp, json(entry.before), json(entry.after)]);
}

/** The merchant's audit entries matching the filter as a CSV stream (newest first), read in batches as the client consumes it. */
export function auditCsvStream(db: DbOrTx, merchantId: number, filter: AuditFilter): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let beforeId: number | undefined;
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvRow(auditCsvColumns)));
        return;
      }
      const rows = await auditExportBatch(db, merchantId, filter, beforeId, batchSize);
      if (rows.length > 0) {
        controller.enqueue(encoder.encode(rows.map(entryRow).join("")));
        beforeId = rows[rows.length - 1]!.id;
      }
      if (rows.length < batchSize) controller.close();
    },
  });
}
