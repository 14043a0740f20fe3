import styles from "./ui.module.css";

/** "← Previous · Page n of m · Next →" under a list; `href(page)` keeps the list's filters in the link. */
export function Pager({ page, lastPage, href }: { page: number; lastPage: number; href: (page: number) => string }) {
  return (
    <nav className={styles.pager} aria-label="Pages">
      {page > 1 ? <a href={href(page - 1)}>← Previous</a> : null}
      <span>
        Page {Math.min(page, lastPage)} of {lastPage}
      </span>
      {page < lastPage ? <a href={href(page + 1)}>Next →</a> : null}
    </nav>
  );
}
