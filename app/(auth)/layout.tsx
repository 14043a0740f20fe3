import Link from "next/link";
import type { ReactNode } from "react";
import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";
import "@/components/ui/theme.css";
import styles from "@/components/dashboard/dashboard.module.css";

export default async function AuthLayout({ children }: { children: ReactNode }) {
  // In the browser's language (proxy.ts negotiates it: no login is known here); the client parts get the form
  // primitives' words (dashboard.ui) and the sign-in form's (dashboard.auth.form).
  const dashboard = (await getMessages()).dashboard as Record<string, unknown>;
  // data-color-scheme="auto": dark when the system asks for it, like the dashboard and the customer pages.
  return (
    <main className={styles.authMain} data-color-scheme="auto">
      <p className={styles.brand}>
        <Link href="/">Payment Gateway</Link>
      </p>
      <NextIntlClientProvider messages={{ dashboard: { ui: dashboard.ui, auth: { form: (dashboard.auth as Record<string, unknown>).form } } } as never}>
        {children}
      </NextIntlClientProvider>
    </main>
  );
}
