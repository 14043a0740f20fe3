import { describe, expect, test } from "vitest";
import { isPartiallyPaid } from "@/lib/dashboard/partially-paid";

describe("the dashboard's partially paid mark", () => {
  test("pending with something received; not when nothing arrived or the order has settled", () => {
    expect(isPartiallyPaid({ status: "pending", amount_received: "0.000001" })).toBe(true);
    expect(isPartiallyPaid({ status: "pending", amount_received: "5" })).toBe(true);
    expect(isPartiallyPaid({ status: "pending", amount_received: "0" })).toBe(false);
    expect(isPartiallyPaid({ status: "pending", amount_received: "0.000" })).toBe(false);
    expect(isPartiallyPaid({ status: "failed", amount_received: "5" })).toBe(false);
    expect(isPartiallyPaid({ status: "confirmed", amount_received: "10.5" })).toBe(false);
  });
});
