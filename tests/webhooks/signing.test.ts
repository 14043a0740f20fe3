import { createHmac } from "node:crypto";
import { describe, expect, test } from "vitest";
import { newId } from "@/lib/ids";
import { signatureHeaders, signPayload, standardSignature, verifySpecSignature, verifyStandardSignature } from "@/lib/webhooks/signing";

describe("signatures", () => {
  test("Standard Webhooks: the reference test vector", () => {
    // From the Standard Webhooks specification's test suite.
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    expect(standardSignature(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}')).toBe(
      "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    );
  });

  test("x-webhook-signature is hex HMAC-SHA256 of the body keyed with the whole secret string", () => {
    const secret = newId("webhookSecret");
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    const body = '{"id":"evt_1","event":"payment.confirmed"}';
    expect(signPayload(body, secret)).toBe(createHmac("sha256", secret).update(body).digest("hex"));
    expect(verifySpecSignature(body, signPayload(body, secret), [secret])).toBe(true);
    expect(verifySpecSignature(body + " ", signPayload(body, secret), [secret])).toBe(false);
    expect(verifySpecSignature(body, "00", [secret])).toBe(false);
    expect(verifySpecSignature(body, undefined, [secret])).toBe(false);
  });

  test("both signatures during a rotation, either one verifies; stale timestamps are refused", () => {
    const [current, previous] = [newId("webhookSecret"), newId("webhookSecret")];
    const now = new Date("2030-01-01T00:00:00Z");
    const ts = Math.floor(now.getTime() / 1000);
    const headers = signatureHeaders("{}", "msg_1", [current, previous], ts);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    const std = { id: headers["webhook-id"]!, timestamp: headers["webhook-timestamp"]!, signature: headers["webhook-signature"] };
    expect(verifyStandardSignature(std, "{}", [current], { now })).toEqual({ valid: true });
    expect(verifyStandardSignature(std, "{}", [previous], { now })).toEqual({ valid: true });
    expect(verifyStandardSignature(std, "{}", [newId("webhookSecret")], { now })).toEqual({ valid: false, reason: "no_matching_signature" });
    expect(verifyStandardSignature(std, "{} ", [current], { now })).toEqual({ valid: false, reason: "no_matching_signature" });
    expect(verifyStandardSignature(std, "{}", [current], { now: new Date(now.getTime() + 6 * 60 * 1000) })).toEqual({
      valid: false,
      reason: "stale_timestamp",
    });
    expect(verifyStandardSignature({ ...std, id: "msg_other" }, "{}", [current], { now })).toEqual({ valid: false, reason: "no_matching_signature" });
    expect(verifyStandardSignature({ ...std, signature: null }, "{}", [current], { now })).toEqual({ valid: false, reason: "missing_headers" });
  });
});
