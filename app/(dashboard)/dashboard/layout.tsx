import Link from "next/link";
import type { ReactNode } from "react";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import "@/components/ui/theme.css";
import styles from "@/components/dashboard/dashboard.module.css";
import { NavDrawer } from "@/components/dashboard/nav-drawer";
import { NavLinks } from "@/components/dashboard/nav-links";
import { StoreSwitcher } from "@/components/dashboard/store-switcher";
import { VerifyEmailBanner } from "@/components/dashboard/verify-email-banner";
import { getDb } from "@/lib/db/client";
import { accountsOfUser } from "@/lib/members/members";
import { getSessionMerchant, signOut } from "@/lib/auth/next-auth";
import { isSandbox } from "@/lib/env";
import { checkOrigin } from "@/lib/dashboard/request-origin";
import { requestPathHeader, signInPathFor } from "@/lib/http/safe-redirect";
import { resendVerificationAction } from "./outbox/actions";
import { switchAccountAction } from "./team/actions";

// Sessions are per request: never prerender.
export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const merchant = await getSessionMerchant();
  if (!merchant) redirect(signInPathFor((await headers()).get(requestPathHeader)));

  const accounts = await accountsOfUser(await getDb(), merchant.userId);
  const { origin, appOrigin, mismatch } = checkOrigin(await headers());

  async function signOutAction() {
    "use server";
    await signOut({ redirectTo: "/sign-in" });
  }

  return (
    <div className={styles.shell}>
      <nav className={styles.sidebar} aria-label="Dashboard">
        <p className={styles.brand}>
          <Link href="/dashboard">Payment Gateway</Link>
        </p>
        {isSandbox ? <span className={styles.sandboxTag}>SANDBOX</span> : null}
        <NavDrawer>
          <NavLinks sandbox={isSandbox} />
          <div className={styles.sidebarFoot}>
            <div>
              Signed in as <strong>{merchant.username}</strong> ({merchant.role})
            </div>
            <StoreSwitcher accounts={accounts} current={merchant.merchantId} switchAccount={switchAccountAction} />
            <form action={signOutAction}>
              <button type="submit">Sign out</button>
            </form>
          </div>
        </NavDrawer>
      </nav>
      <main className={styles.content} id="main">
        <VerifyEmailBanner merchantId={merchant.userId} resend={resendVerificationAction} />
        {mismatch ? (
          <p className={styles.originBanner} role="status" data-testid="app-url-banner">
            This dashboard is open at <code>{origin}</code> but <code>APP_URL</code> is <code>{appOrigin}</code>: payment and link URLs given to customers point
            there. Set <code>APP_URL</code> to the address customers use.
          </p>
        ) : null}
        {children}
      </main>
    </div>
  );
}
