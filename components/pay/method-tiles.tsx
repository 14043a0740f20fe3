"use client";

import styles from "./pay.module.css";
import linkStyles from "./link-checkout.module.css";
import type { LinkMethod } from "./link-checkout";

/** The customer's choice of chain and token, one tile each: the link and invoice checkouts both ask it. */
export function MethodTiles({
  methods,
  choice,
  onChoose,
  legend,
  onNetwork,
}: {
  methods: LinkMethod[];
  choice: number;
  onChoose: (index: number) => void;
  legend: string;
  onNetwork: (method: LinkMethod) => string;
}) {
  return (
    <fieldset className={linkStyles.fieldset}>
      <legend className={styles.sectionTitle}>{legend}</legend>
      <div className={linkStyles.methods}>
        {methods.map((m, i) => (
          <label key={`${m.blockchain}:${m.currency}`} className={linkStyles.method} data-testid="method">
            <input
              className={linkStyles.methodInput}
              type="radio"
              name="method"
              value={`${m.blockchain}:${m.currency}`}
              checked={choice === i}
              onChange={() => onChoose(i)}
            />
            <span className={linkStyles.badge} aria-hidden="true">
              {m.currency.slice(0, 4)}
            </span>
            <span className={linkStyles.methodText}>
              <strong>{m.currency}</strong>
              <span className={linkStyles.network}>{onNetwork(m)}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
