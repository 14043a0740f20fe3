import Link from "next/link";
import type { ReactNode } from "react";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getMessages, getTranslations } from "next-intl/server";
import "@/components/ui/theme.css";
import styles from "@/components/dashboard/dashboard.module.css";
import { NavDrawer } from "@/components/dashboard/nav-drawer";
import { LanguageSwitch } from "@/components/dashboard/language-switch";
import { navLinks, type NavLabel } from "@/components/dashboard/nav-items";
import { NavLinks } from "@/components/dashboard/nav-links";
import { StoreSwitcher } from "@/components/dashboard/store-switcher";
import { VerifyEmailBanner } from "@/components/dashboard/verify-email-banner";
import { getDb } from "@/lib/db/client";
import { accountsOfUser } from "@/lib/members/members";
import { getSessionMerchant, signOut } from "@/lib/auth/next-auth";
import { isSandbox } from "@/lib/env";
import { checkOrigin } from "@/lib/dashboard/request-origin";
import { defaultCustomerLocale, isCustomerLocale } from "@/lib/i18n/locales";
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
  const [t, locale, messages] = await Promise.all([getTranslations("dashboard.nav"), getLocale(), getMessages()]);
  const labels = Object.fromEntries(navLinks.map((l) => [l.label, t(l.label)])) as Record<NavLabel, string>;
  // The client components' share of the dashboard's texts (the form primitives' own words, and the shared components').
  const dashboardMessages = messages.dashboard as Record<string, unknown>;

  async function signOutAction() {
    "use server";
    await signOut({ redirectTo: "/sign-in" });
  }

  return (
    // data-color-scheme="auto": dark when the system asks for it, like the customer pages (components/ui/theme.css).
    <div className={styles.shell} data-color-scheme="auto">
      <NextIntlClientProvider messages={{ dashboard: { ui: dashboardMessages.ui, shared: dashboardMessages.shared } } as never}>
        <nav className={styles.sidebar} aria-label={t("label")}>
          <p className={styles.brand}>
            <Link href="/dashboard">Payment Gateway</Link>
          </p>
          {isSandbox ? <span className={styles.sandboxTag}>SANDBOX</span> : null}
          <NavDrawer openLabel={t("menu")} closeLabel={t("closeMenu")}>
            <NavLinks sandbox={isSandbox} labels={labels} />
            <div className={styles.sidebarFoot}>
              <div>{t.rich("signedInAs", { user: merchant.username, role: merchant.role, strong: (chunks) => <strong>{chunks}</strong> })}</div>
              <StoreSwitcher accounts={accounts} current={merchant.merchantId} switchAccount={switchAccountAction} />
              <form action={signOutAction}>
                <button type="submit">{t("signOut")}</button>
              </form>
              <LanguageSwitch current={isCustomerLocale(locale) ? locale : defaultCustomerLocale} label={t("language")} />
            </div>
          </NavDrawer>
        </nav>
        <main className={styles.content} id="main">
          <VerifyEmailBanner merchantId={merchant.userId} resend={resendVerificationAction} />
          {mismatch ? (
            <p className={styles.originBanner} role="status" data-testid="app-url-banner">
              {t.rich("appUrlMismatch", { origin, appOrigin, code: (chunks) => <code>{chunks}</code> })}
            </p>
          ) : null}
          {children}
        </main>
      </NextIntlClientProvider>
    </div>
  );
}
