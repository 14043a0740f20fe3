import { useTranslations } from "next-intl";
import type { TokenSeries } from "@/lib/dashboard/overview";
import styles from "./dashboard.module.css";

/** Daily confirmed volume (bars) and order count (dots) of one token, as plain inline SVG. */
export function VolumeChart({ series }: { series: TokenSeries }) {
  const width = 600;
  const height = 160;
  const pad = 24;
  const n = series.days.length;
  const barWidth = (width - pad * 2) / n;
  const maxUnits = series.days.reduce((m, d) => (d.confirmedUnits > m ? d.confirmedUnits : m), 0n);
  const maxOrders = Math.max(1, ...series.days.map((d) => d.orders));
  // Heights only: scaling to 1000 steps keeps bigint arithmetic exact enough for pixels.
  const barHeight = (units: bigint) => (maxUnits === 0n ? 0 : (Number((units * 1000n) / maxUnits) / 1000) * (height - pad * 2));
  const titleId = `chart-${series.key.replace(/[^a-z0-9]/gi, "-")}`;
  const t = useTranslations("dashboard.overview.chart");
  return (
    <figure style={{ margin: 0 }}>
      <svg className={styles.chart} viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId}>
        <title id={titleId}>
          {t("title", {
            currency: series.currency,
            blockchain: series.blockchain,
            volume: series.confirmedVolume,
            orders: series.totalOrders,
            days: n,
          })}
        </title>
        <line x1={pad} y1={height - pad} x2={width - pad} y2={height - pad} style={{ stroke: "var(--chart-axis)" }} />
        {series.days.map((d, i) => {
          const h = barHeight(d.confirmedUnits);
          const x = pad + i * barWidth;
          const y = height - pad - h;
          const cy = height - pad - (d.orders / maxOrders) * (height - pad * 2);
          return (
            <g key={d.day}>
              <rect x={x + 1} y={y} width={Math.max(1, barWidth - 2)} height={h} style={{ fill: "var(--chart-bar)" }}>
                <title>{t("bar", { day: d.day, volume: d.confirmedVolume, currency: series.currency, orders: d.orders })}</title>
              </rect>
              {d.orders > 0 ? <circle cx={x + barWidth / 2} cy={cy} r={3} style={{ fill: "var(--chart-dot)" }} /> : null}
            </g>
          );
        })}
      </svg>
      {/* Dates as page text, not SVG text: they keep their size when the chart shrinks on a phone. */}
      <div className={styles.chartAxis} aria-hidden="true">
        <span>{series.days[0]?.day}</span>
        <span>{series.days[n - 1]?.day}</span>
      </div>
      <figcaption style={{ fontSize: "0.85rem", color: "var(--muted)" }}>{t("caption")}</figcaption>
    </figure>
  );
}
