import { TOTP, Secret } from "otpauth";
import { vi } from "vitest";
import { POST as beginTotp } from "@/app/api/account/second-factor/totp/route";
import { POST as confirmTotp } from "@/app/api/account/second-factor/totp/confirm/route";
import type { TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

/** The authenticator app: an independent TOTP (RFC 6238 defaults) over the secret the gateway showed. */
export function codeFor(secret: string, at = new Date()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: at.getTime() });
}

/**
 * A code is accepted once per 30-second step (replay protection), so tests that use several codes
 * run on a fake clock (Date only) and move it to the next step. Call vi.useRealTimers() after.
 */
export function useStepClock(start = new Date()): { nextStep: () => Date } {
  let now = start.getTime();
  vi.useFakeTimers({ toFake: ["Date"], now });
  return {
    nextStep: () => {
      now += 30_000;
      vi.setSystemTime(now);
      return new Date(now);
    },
  };
}

/** Enrols TOTP through the real routes; returns the secret and the ten recovery codes. */
export async function enrolTotp(merchant: Pick<TestMerchant, "access" | "password">): Promise<{ secret: string; recoveryCodes: string[] }> {
  const begun = await call(beginTotp, "POST", "/api/account/second-factor/totp/", {
    token: merchant.access,
    body: { reauth: { password: merchant.password } },
  });
  if (begun.status !== 201) throw new Error(`begin failed: ${JSON.stringify(begun.body)}`);
  const secret = begun.body.data.secret as string;
  const confirmed = await call(confirmTotp, "POST", "/api/account/second-factor/totp/confirm/", { token: merchant.access, body: { code: codeFor(secret) } });
  if (confirmed.status !== 200) throw new Error(`confirm failed: ${JSON.stringify(confirmed.body)}`);
  return { secret, recoveryCodes: confirmed.body.data.recovery_codes };
}
