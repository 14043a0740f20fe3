import { vi } from "vitest";
import type { SessionMerchant } from "@/lib/auth/next-auth";

/**
 * The dashboard's session, controlled by the test. next-auth reads the cookie through
 * `next/headers`, which needs a live request; everything after it (authedAction, the export
 * route, the use-cases, the database) runs for real. Use with
 * `vi.mock("@/lib/auth/next-auth", () => sessionModuleMock)` at the top of the test file.
 */
export const session = { current: null as SessionMerchant | null };

export const sessionModuleMock = {
  getSessionMerchant: vi.fn(async () => session.current),
};

export function signInAs(merchant: { id: number; username: string } | null): void {
  session.current = merchant ? { merchantId: merchant.id, username: merchant.username } : null;
}
