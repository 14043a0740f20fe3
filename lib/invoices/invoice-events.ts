import "server-only";
import type { Invoice } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { newId } from "@/lib/ids";
import { eventBody } from "@/lib/webhooks/outbox";
import { insertAccountEvent, insertDeliveries, subscribedEndpoints } from "@/lib/webhooks/queries";
import { serializeInvoice } from "./invoices";

export type InvoiceEventType = "invoice.sent" | "invoice.paid" | "invoice.overdue" | "invoice.voided";

/**
 * Records an invoice event (kept with the account's events: an invoice is no order) and queues one
 * delivery per active endpoint subscribed to it, in the caller's transaction; `data` is the invoice
 * as GET /api/invoices/{id}/ answers after the change. The caller kicks delivery after the commit.
 */
export async function recordInvoiceEvent(tx: DbOrTx, invoice: Invoice, type: InvoiceEventType, actor: string, now: Date): Promise<void> {
  const id = newId("event");
  const data = serializeInvoice(invoice);
  await insertAccountEvent(tx, { id, merchantId: invoice.merchantId, type, data, actor, clientIp: null, createdAt: now });
  const endpoints = await subscribedEndpoints(tx, invoice.merchantId, type);
  const body = eventBody(id, type, now, null, data);
  await insertDeliveries(
    tx,
    endpoints.map((endpoint) => ({
      messageId: newId("webhookMessage"),
      merchantId: invoice.merchantId,
      eventId: null,
      endpointId: endpoint.id,
      eventType: type,
      url: endpoint.url,
      body,
      status: "pending",
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })),
  );
}
