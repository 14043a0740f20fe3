import "server-only";
import type { AuditEntry } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { csvRowsPerChunk, csvStream, type CsvValue } from "@/lib/csv/writer";
import { auditExportBatch } from "./queries";
import type { AuditFilter } from "./schemas";

export const auditCsvColumns = ["id", "created_at", "action", "actor_kind", "actor", "target", "client_ip", "before", "after"] as const;
/** Entries read per round trip while streaming: one chunk of the stream. */
const batchSize = csvRowsPerChunk;

function entryRow(entry: AuditEntry): CsvValue[] {
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
  return [
    entry.id,
    entry.createdAt.toISOString(),
    entry.action,
    entry.actorKind,
    entry.actor,
    entry.target,
    entry.clientIp,
    json(entry.before),
    json(entry.after),
  ];
}

/** The merchant's audit entries matching the filter, newest first, read in batches as they are consumed. */
async function* entryRows(db: DbOrTx, merchantId: number, filter: AuditFilter): AsyncGenerator<CsvValue[]> {
  let beforeId: number | undefined;
  for (;;) {
    const rows = await auditExportBatch(db, merchantId, filter, beforeId, batchSize);
    for (const entry of rows) yield entryRow(entry);
    if (rows.length < batchSize) return;
    beforeId = rows[rows.length - 1]!.id;
  }
}

/** The merchant's audit entries matching the filter as a CSV stream (newest first), read in batches as the client consumes it. */
export function auditCsvStream(db: DbOrTx, merchantId: number, filter: AuditFilter): ReadableStream<Uint8Array> {
  return csvStream(auditCsvColumns, entryRows(db, merchantId, filter));
}
