import type { ReactNode } from "react";
import styles from "./ui.module.css";

/** The fields of a row that render as plain text (strings, numbers, bigints); anything else needs a renderer. */
type TextField<T> = { [K in keyof T]-?: T[K] extends string | number | bigint | null | undefined ? K : never }[keyof T];

/** One column, described once: its header and what each row shows in it. */
export interface Column<T> {
  /** Header text; also the column's React key, so unique within a table. */
  header: string;
  /** Keeps the header for screen readers only (a column of row actions). */
  hideHeader?: boolean;
  /** A text field of the row, or a renderer for anything richer (links, badges, forms). */
  cell: TextField<T> | ((row: T, index: number) => ReactNode);
  /** `end` right-aligns the column (numbers). */
  align?: "start" | "end";
  /** Monospace cells (hashes, addresses). */
  mono?: boolean;
}

/** `data-*` attributes for a row's `<tr>` (the Playwright specs find rows by them). */
export type RowData = { [name: `data-${string}`]: string | number | undefined };

function asText(value: unknown): ReactNode {
  if (typeof value === "string" || typeof value === "number") return value;
  return typeof value === "bigint" ? value.toString() : null;
}

/**
 * A table of plain, already serialized rows (no data fetching, no client code, so it renders in
 * server components): `<th scope="col">` headers, a caption for screen readers, and `empty`
 * instead of an empty table. Below 768 px each row shows as a card, each cell under its header.
 */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  rowData,
  empty,
}: {
  /** The table's accessible name (visually hidden; the page's heading shows it). */
  caption: string;
  columns: ReadonlyArray<Column<T>>;
  rows: readonly T[];
  rowKey: (row: T, index: number) => string | number;
  rowData?: (row: T) => RowData;
  /** Shown, in a paragraph, when there are no rows. */
  empty: ReactNode;
}) {
  if (rows.length === 0) return <p>{empty}</p>;
  const cellClass = (column: Column<T>) => [column.align === "end" && styles.end, column.mono && "mono"].filter(Boolean).join(" ") || undefined;
  return (
    // Focusable, so a keyboard can scroll a table wider than the screen (axe: scrollable-region-focusable).
    <div className={styles.tableWrap} tabIndex={0} role="region" aria-label={caption}>
      <table className={styles.cardTable}>
        <caption className={styles.visuallyHidden}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={column.align === "end" ? styles.end : undefined}>
                {column.hideHeader ? <span className={styles.visuallyHidden}>{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={rowKey(row, index)} {...rowData?.(row)}>
              {columns.map((column) => (
                <td key={column.header} className={cellClass(column)} data-label={column.hideHeader ? undefined : column.header}>
                  {typeof column.cell === "function" ? column.cell(row, index) : asText(row[column.cell])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
