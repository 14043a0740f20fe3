import type { InputHTMLAttributes, ReactNode } from "react";
import styles from "./ui.module.css";

/**
 * A checkbox inside its label, so the text names it and toggles it. On a line of its own, or
 * `inline` (in a row of options).
 */
export function Checkbox({ label, inline = false, ...input }: { label: ReactNode; inline?: boolean } & Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  return (
    <label className={inline ? styles.checkboxInline : styles.checkbox}>
      <input type="checkbox" {...input} /> {label}
    </label>
  );
}
