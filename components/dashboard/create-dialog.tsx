"use client";

import { useId, useRef, type ReactNode } from "react";
import { Button } from "@/components/ui";
import styles from "./dashboard.module.css";

/**
 * A "Create …" button opening its form in a native modal <dialog>: the page's list stays where it
 * is, focus moves into the dialog and back, Escape closes it. The form's own success card stays in
 * the dialog until it is closed.
 */
export function CreateDialog({ openLabel, title, children }: { openLabel: string; title: string; children: ReactNode }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  return (
    <>
      <Button type="button" onClick={() => dialogRef.current?.showModal()} aria-haspopup="dialog">
        {openLabel}
      </Button>
      <dialog ref={dialogRef} className={styles.createDialog} aria-labelledby={titleId}>
        <div className={styles.createDialogHeader}>
          <h2 id={titleId}>{title}</h2>
          <Button type="button" variant="secondary" small onClick={() => dialogRef.current?.close()}>
            Close
          </Button>
        </div>
        {children}
      </dialog>
    </>
  );
}
