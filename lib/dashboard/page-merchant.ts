import "server-only";
import { redirect } from "next/navigation";
import { getSessionMerchant, type SessionMerchant } from "@/lib/auth/next-auth";

/**
 * The signed-in merchant for a dashboard page. The layout already redirects, but pages render in
 * parallel with it, so each page checks on its own before reading anything.
 */
export async function requirePageMerchant(): Promise<SessionMerchant> {
  const merchant = await getSessionMerchant();
  if (!merchant) redirect("/sign-in");
  return merchant;
}
