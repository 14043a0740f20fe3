import "server-only";
import { randomBytes } from "node:crypto";
import { findBlockchainById, findToken } from "@/lib/chains/catalog";
import type { PaymentOrder, Refund, WebhookAttempt, WebhookDelivery } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { newId } from "@/lib/ids";
import { serializeOrder, type OrderTransactionSummary } from "@/lib/orders/serialize";
import type { AttemptOptions } from "./attempt-delivery";
import { sendWebhook } from "./deliver";
import { getEndpointOrThrow } from "./get-endpoint-or-throw";
import { eventBody } from "./outbox";
import { insertAttempt, insertDeliveries } from "./queries";
import { describeOutcome, judge } from "./retry-schedule";
import type { InvoiceEventType, OrderEventType, TestableEventType } from "./schemas";
import { endpointSigningSecrets } from "./secrets";

const sampleStatus: Record<OrderEventType, { status: string; failureReason: string | null; received: string; tx: string | null }> = {
  "payment.pending": { status: "processing", failureReason: null, received: "10500000", tx: "pending" },
  "payment.confirmed": { status: "confirmed", failureReason: null, received: "10500000", tx: "confirmed" },
  "payment.failed": { status: "failed", failureReason: "underpaid", received: "5000000", tx: "confirmed" },
  "payment.expired": { status: "expired", failureReason: null, received: "0", tx: null },
  "refund.created": { status: "confirmed", failureReason: null, received: "10500000", tx: "confirmed" },
  "refund.confirmed": { status: "confirmed", failureReason: null, received: "10500000", tx: "confirmed" },
  // A confirmed order whose payment a reorg took away: at risk, no transfer left to show.
  "payment.reorged": { status: "confirmed", failureReason: null, received: "10500000", tx: null },
  // Paid by an address that failed screening: held in processing until released.
  "payment.flagged": { status: "processing", failureReason: null, received: "10500000", tx: "pending" },
};

/** A made-up order in the state the event reports, shaped exactly like a real one (10.5 USDC on base). */
export function sampleOrderData(type: OrderEventType, now: Date) {
  const chain = findBlockchainById(2)!;
  const token = findToken(chain, "USDC")!;
  const sample = sampleStatus[type];
  const createdAt = new Date(now.getTime() - 5 * 60 * 1000);
  const order: PaymentOrder = {
    id: 0,
    orderId: `ORD-TEST${randomBytes(6).toString("hex").toUpperCase()}`,
    merchantId: 0,
    nonce: 0,
    blockchainId: chain.id,
    currency: token.symbol,
    tokenAddress: token.address,
    decimals: token.decimals,
    amount: "10500000",
    amountReceived: sample.received,
    status: sample.status,
    failureReason: sample.failureReason,
    receivingAddress: "0x000000000000000000000000000000000000dEaD",
    depositDestination: "0x000000000000000000000000000000000000dEaD",
    depositSalt: "0x" + "00".repeat(32),
    depositFactory: "0x000000000000000000000000000000000000dEaD",
    depositFactoryVersion: 2,
    orderInfo: '{"test":true}',
    webhookUrl: null,
    redirectUrl: null,
    confirmationThreshold: chain.defaultConfirmations,
    expiresAt: new Date(createdAt.getTime() + 30 * 60 * 1000),
    confirmedAt: sample.status === "confirmed" ? now : null,
    priceAmount: null,
    priceCurrency: null,
    rate: null,
    rateSource: null,
    itemName: null,
    itemQuantity: null,
    paymentToleranceBps: 0,
    refundAddress: null,
    refundAddressAt: null,
    atRiskReason: type === "payment.reorged" ? "payment_reorged" : null,
    atRiskAt: type === "payment.reorged" ? now : null,
    refundAddressSignedBy: null,
    refundAddressSource: null,
    refundAddressGivenBy: null,
    acceptedMethods: null,
    createdAt,
    updatedAt: now,
  };
  const transaction: OrderTransactionSummary | null = sample.tx
    ? {
        transaction_hash: "0x" + randomBytes(32).toString("hex"),
        block_number: 1234567,
        confirmations: sample.tx === "confirmed" ? chain.defaultConfirmations : 1,
        status: sample.tx,
      }
    : null;
  // Refund events carry the order with the refund in `refunds` (a 2.5 USDC partial refund).
  const refunds: Refund[] = type.startsWith("refund.")
    ? [
        {
          id: 0,
          paymentOrderId: 0,
          merchantId: 0,
          blockchainId: chain.id,
          amount: "2500000",
          currency: token.symbol,
          tokenAddress: token.address,
          fromAddress: order.depositDestination,
          toAddress: "0x000000000000000000000000000000000000bEEF",
          reason: "sample",
          status: type === "refund.confirmed" ? "confirmed" : "requested",
          txHash: type === "refund.confirmed" ? "0x" + randomBytes(32).toString("hex") : null,
          logIndex: type === "refund.confirmed" ? 0 : null,
          blockNumber: type === "refund.confirmed" ? 1234600n : null,
          blockHash: null,
          confirmedAt: type === "refund.confirmed" ? now : null,
          createdAt: now,
          updatedAt: now,
        },
      ]
    : [];
  // A sample's screening: a flagged sample is held (the default policy), against a list published today.
  const screening = { status: type === "payment.flagged" ? ("held" as const) : ("clear" as const), list_date: now.toISOString().slice(0, 10) };
  return serializeOrder(order, transaction, null, refunds, undefined, screening);
}

/** A made-up invoice in the state the event reports, shaped like GET /api/invoices/{id}/ (lib/invoices/invoices.ts serializeInvoice). */
export function sampleInvoiceData(type: InvoiceEventType, now: Date) {
  const created = new Date(now.getTime() - 14 * 24 * 60 * 60 * 1000);
  const status = ({ "invoice.sent": "sent", "invoice.paid": "paid", "invoice.overdue": "overdue", "invoice.voided": "void" } as const)[type];
  const paid = status === "paid";
  return {
    id: `INV-TEST${randomBytes(6).toString("hex").toUpperCase()}`,
    number: "2030-0001",
    status,
    client: { name: "Acme GmbH", email: "accounts@acme.example", address: null, tax_id: null },
    items: [{ description: "Logo design", quantity: "1", unit_price: "100.00", amount: "100.00" }],
    taxes: [{ name: "VAT", rate: "19", amount: "19.00" }],
    currency: "EUR",
    subtotal: "100.00",
    tax_total: "19.00",
    total: "119.00",
    amount_paid: paid ? "119.00" : "0.00",
    amount_due: paid ? "0.00" : "119.00",
    due_at: new Date(created.getTime() + 7 * 24 * 60 * 60 * 1000).toISOString(),
    notes: null,
    accepted_methods: [{ blockchain: "base", currency: "USDC" }],
    url: "https://gateway.example/invoice/INV-TEST",
    sent_at: created.toISOString(),
    paid_at: paid ? now.toISOString() : null,
    voided_at: status === "void" ? now.toISOString() : null,
    created_at: created.toISOString(),
    updated_at: now.toISOString(),
  };
}

const isInvoiceEvent = (type: TestableEventType): type is InvoiceEventType => type.startsWith("invoice.");

/**
 * Sends a signed sample of `type` to the endpoint right now, whatever its subscriptions or
 * active flag, and returns the attempt. It is logged like any delivery (with no event behind it)
 * and is not retried: a test answers at once whether the receiver works.
 */
export async function sendTestWebhook(
  db: DbOrTx,
  merchantId: number,
  endpointId: number,
  type: TestableEventType,
  options: AttemptOptions = {},
): Promise<{ delivery: WebhookDelivery; attempt: WebhookAttempt }> {
  const endpoint = await getEndpointOrThrow(db, merchantId, endpointId);
  const now = new Date();
  const values = {
    messageId: newId("webhookMessage"),
    merchantId,
    eventId: null,
    endpointId: endpoint.id,
    eventType: type,
    url: endpoint.url,
    body: isInvoiceEvent(type)
      ? eventBody(newId("event"), type, now, null, sampleInvoiceData(type, now))
      : eventBody(newId("event"), type, now, 1, sampleOrderData(type, now)),
    attempts: 1,
    nextAttemptAt: null,
    createdAt: now,
  };
  const result = await sendWebhook({
    url: endpoint.url,
    body: values.body,
    messageId: values.messageId,
    secrets: endpointSigningSecrets(endpoint, now),
    ...options,
  });
  const succeeded = judge(result).kind === "succeeded";
  const finished = new Date();
  // Sent first, written after: a crash in between leaves no half-made delivery behind.
  return db.transaction(async (tx) => {
    const [delivery] = await insertDeliveries(tx, [
      {
        ...values,
        status: succeeded ? "succeeded" : "failed",
        lastStatusCode: result.statusCode,
        lastError: succeeded ? null : describeOutcome(result),
        completedAt: finished,
        updatedAt: finished,
      },
    ]);
    const attempt = await insertAttempt(tx, {
      deliveryId: delivery!.id,
      attemptedAt: result.attemptedAt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      requestHeaders: result.requestHeaders,
      responseBody: result.responseBody,
      error: result.error,
    });
    return { delivery: delivery!, attempt };
  });
}
