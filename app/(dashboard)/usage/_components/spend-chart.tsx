"use client";

import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { formatCents, formatCount, formatDay } from "@/app/(dashboard)/_lib/display-format";
import { busiestDay, totals, type DaySpend } from "../_lib/usage-data";
import styles from "./usage.module.css";

function SpendTooltip({ active, payload }: TooltipContentProps) {
  const entry = payload?.[0]?.payload as DaySpend | undefined;
  if (!active || !entry) return null;
  return (
    <div className={styles.tooltip}>
      <p>
        <strong>{formatDay(entry.day, { withYear: true })}</strong>
      </p>
      <p>
        {formatCents(entry.costCents)} · {formatCount(entry.calls)} {entry.calls === 1 ? "call" : "calls"}
      </p>
    </div>
  );
}

/**
 * Spend per UTC day as bars. The SVG is one image with a title and a summary for its description; the numbers
 * themselves are in a table that only screen readers see, which is easier to browse than a chart's data points.
 */
export function SpendChart({ spend, days }: { spend: DaySpend[]; days: number }) {
  const total = totals(spend);
  const busiest = busiestDay(spend);
  const summary =
    total.calls === 0
      ? `No calls in the last ${days} days.`
      : `${formatCents(total.costCents)} over ${formatCount(total.calls)} ${total.calls === 1 ? "call" : "calls"} in the last ${days} days` +
        (busiest
          ? `; the most on ${formatDay(busiest.day)} (${formatCents(busiest.costCents)}).`
          : "; nothing was charged.");
  // Long periods get fewer, evenly spaced day labels so they do not overlap on narrow screens.
  const tickGap = days > 30 ? 24 : 12;

  return (
    <figure className={styles.chartFigure}>
      <figcaption>
        <h2 id="spend-title" className={ui.sectionTitle}>
          Spend per day
        </h2>
        <p className={styles.chartSummary}>{summary}</p>
      </figcaption>
      <div className={styles.chart}>
        <BarChart
          responsive
          data={spend}
          role="img"
          title={`Spend per day, last ${days} days`}
          desc={summary}
          accessibilityLayer={false}
          margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          style={{ width: "100%", height: "100%" }}
        >
          <CartesianGrid vertical={false} stroke="#e4e4e7" />
          <XAxis
            dataKey="day"
            tickFormatter={(day: string) => formatDay(day)}
            minTickGap={tickGap}
            tick={{ fontSize: 12, fill: "#52525b" }}
            tickLine={false}
            axisLine={{ stroke: "#d4d4d8" }}
          />
          <YAxis
            tickFormatter={(cents: number) => formatCents(cents)}
            allowDecimals={false}
            width={64}
            tick={{ fontSize: 12, fill: "#52525b" }}
            tickLine={false}
            axisLine={false}
          />
          <Tooltip content={SpendTooltip} cursor={{ fill: "rgb(37 99 235 / 0.08)" }} />
          <Bar
            dataKey="costCents"
            name="Spend"
            fill="#2563eb"
            radius={[3, 3, 0, 0]}
            maxBarSize={28}
            isAnimationActive={false}
          />
        </BarChart>
      </div>
      <table className="visually-hidden">
        <caption>Spend per day, last {days} days</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Spend</th>
            <th scope="col">Calls</th>
          </tr>
        </thead>
        <tbody>
          {spend.map((entry) => (
            <tr key={entry.day}>
              <th scope="row">{formatDay(entry.day, { withYear: true })}</th>
              <td>{formatCents(entry.costCents)}</td>
              <td>{formatCount(entry.calls)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
