import { describe, expect, test } from "vitest";
import type { PaymentOrder } from "@/lib/db/schema";
import { serializeOrder, serializeOrderListItem } from "@/lib/orders/serialize";

const row: PaymentOrder = {
  id: 12,
  orderId: "ORD-abcdefghijklmnop",
  merchantId: 3,
  nonce: 99,
  blockchainId: 3,
  currency: "USDC",
  tokenAddress: "0x0000000000000000000000000000000000000001",
  decimals: 6,
  amount: "10500000",
  amountReceived: "11000000",
  status: "confirmed",
  failureReason: null,
  receivingAddress: "0x00000000000000000000000000000000000000aA",
  depositDestination: "0x00000000000000000000000000000000000000bB",
  depositSalt: `0x${"11".repeat(32)}`,
  depositFactory: "0x00000000000000000000000000000000000000cC",
  depositFactoryVersion: 2,
  orderInfo: '{"a": 1}',
  webhookUrl: "https://shop.example/hook",
  redirectUrl: null,
  confirmationThreshold: 3,
  expiresAt: new Date("2030-01-01T00:30:00Z"),
  confirmedAt: new Date("2030-01-01T00:10:00Z"),
  priceAmount: null,
  priceCurrency: null,
  rate: null,
  rateSource: null,
  itemName: null,
  itemQuantity: null,
  paymentToleranceBps: 0,
  refundAddress: null,
  refundAddressAt: null,
  atRiskReason: null,
  atRiskAt: null,
  refundAddressSignedBy: null,
  refundAddressSource: null,
  refundAddressGivenBy: null,
  acceptedMethods: null,
  createdAt: new Date("2030-01-01T00:00:00Z"),
  updatedAt: new Date("2030-01-01T00:10:00Z"),
};

describe("serializeOrder", () => {
  test("turns a row into the spec's order, with an optional transaction summary", () => {
    const json = serializeOrder(
      row,
      { transaction_hash: `0x${"ab".repeat(32)}`, block_number: 1234, confirmations: 5, status: "confirmed" },
      null,
      [],
      undefined,
      { status: "clear", list_date: "2030-01-01" },
    );
    expect(json).toEqual({
      id: 12,
      order_id: "ORD-abcdefghijklmnop",
      amount: "10.5",
      currency: "USDC",
      blockchain: "polygon",
      status: "confirmed",
      receiving_address: row.receivingAddress,
      payment_url: "http://localhost:3000/pay/ORD-abcdefghijklmnop",
      qr_code_url: "/pay/ORD-abcdefghijklmnop/qr.svg",
      order_info: '{"a": 1}',
      nonce: 99,
      webhook_url: "https://shop.example/hook",
      redirect_url: null,
      created_at: "2030-01-01T00:00:00.000Z",
      expires_at: "2030-01-01T00:30:00.000Z",
      confirmed_at: "2030-01-01T00:10:00.000Z",
      transaction: { transaction_hash: `0x${"ab".repeat(32)}`, block_number: 1234, confirmations: 5, status: "confirmed" },
      amount_received: "11",
      failure_reason: null,
      price_amount: null,
      price_currency: null,
      rate: null,
      rate_source: null,
      sweep: null,
      refund_address: null,
      refund_address_payer_signed: false,
      refund_address_signed_by: null,
      refund_address_source: null,
      refund_address_given_by: null,
      refunds: [],
      at_risk: false,
      at_risk_reason: null,
      at_risk_since: null,
      // An order created without accepted_methods accepts its one method; confirmed, so paid by it.
      accepted_methods: [
        { blockchain: "polygon", currency: "USDC", amount: "10.5", rate: null, receiving_address: "0x00000000000000000000000000000000000000aA" },
      ],
      payment_method: { blockchain: "polygon", currency: "USDC" },
      // Without its transfers an order's own columns speak: what counted is what arrived.
      amount_arrived: "11",
      amount_counted: "11",
      not_counted: [],
      payment_reversed: false,
      screening: { status: "clear", list_date: "2030-01-01" },
    });
    // Never leaks internal deposit details.
    expect(JSON.stringify(json)).not.toContain(row.depositSalt);
  });

  test("confirmed_at and transaction are null unless confirmed / detected; failure_reason shows", () => {
    const json = serializeOrder({ ...row, status: "failed", failureReason: "underpaid", amountReceived: "1" }, null, null, [], undefined, {
      status: "clear",
      list_date: null,
    });
    expect(json.confirmed_at).toBeNull();
    expect(json.transaction).toBeNull();
    expect(json.failure_reason).toBe("underpaid");
    expect(json.amount_received).toBe("0.000001");
  });

  test("list items carry exactly six fields", () => {
    expect(serializeOrderListItem(row)).toEqual({
      id: 12,
      order_id: "ORD-abcdefghijklmnop",
      amount: "10.5",
      currency: "USDC",
      status: "confirmed",
      created_at: "2030-01-01T00:00:00.000Z",
    });
  });
});
