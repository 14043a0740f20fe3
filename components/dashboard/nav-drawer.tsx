"use client";

import { useId, useState, type ReactNode } from "react";
import styles from "./dashboard.module.css";

/**
 * The navigation's links and account box: always shown in the sidebar from 768 px up; below that a
 * "Menu" button (`openLabel`, then `closeLabel`, in the dashboard's language) opens them as a drawer under the top bar (every link loads a new page, closing it).
 */
export function NavDrawer({ children, openLabel, closeLabel }: { children: ReactNode; openLabel: string; closeLabel: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <>
      <button type="button" className={styles.menuButton} aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
        {open ? closeLabel : openLabel}
      </button>
      <div id={id} className={styles.drawer} data-open={open}>
        {children}
      </div>
    </>
  );
}
