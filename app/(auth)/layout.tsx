import Link from "next/link";
import type { ReactNode } from "react";
import "@/components/ui/theme.css";
import styles from "@/components/dashboard/dashboard.module.css";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className={styles.authMain}>
      <p className={styles.brand}>
        <Link href="/">Payment Gateway</Link>
      </p>
      {children}
    </main>
  );
}
