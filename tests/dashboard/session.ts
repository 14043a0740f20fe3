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

/** Signed in to the merchant's own account as its owner, or (`as`) to another account with a role. */
export function signInAs(merchant: { id: number; username: string } | null, as?: { accountId: number; role: SessionMerchant["role"] }): void {
  session.current = merchant
    ? { merchantId: as?.accountId ?? merchant.id, username: merchant.username, userId: merchant.id, role: as?.role ?? "owner" }
    : null;
}
