"use client";

import Link from "next/link";
import { useState } from "react";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import {
  formatCents,
  formatCount,
  formatDateTime,
  formatLatency,
  formatShare,
} from "@/app/(dashboard)/_lib/display-format";
import { errorMessage } from "@/app/(dashboard)/_lib/form-errors";
import { useUsage } from "../_hooks/use-usage";
import {
  describeLedgerEntry,
  fillSpendPerDay,
  operationLabel,
  PERIODS,
  remainingShare,
  totals,
  type Period,
  type Usage,
} from "../_lib/usage-data";
import { FundsNote } from "./funds-note";
import { SpendChart } from "./spend-chart";
import styles from "./usage.module.css";

function PeriodPicker({ value, onChange }: { value: Period; onChange: (days: Period) => void }) {
  return (
    <fieldset className={styles.periods}>
      <legend>Period</legend>
      {PERIODS.map((days) => (
        <label key={days}>
          <input
            type="radio"
            name="usage-period"
            value={days}
            checked={value === days}
            onChange={() => onChange(days)}
          />
          <span>{days} days</span>
        </label>
      ))}
    </fieldset>
  );
}

function Headlines({ usage, days }: { usage: Usage; days: number }) {
  const {
    subscriptionAllowanceCents: allowance,
    subscriptionRemainingCents: remaining,
    purchasedBalanceCents: purchased,
  } = usage.balances;
  const share = remainingShare(remaining, allowance);
  const spent = totals(usage.spendPerDay);
  return (
    <div className={styles.headlines}>
      <section className={ui.card} aria-labelledby="subscription-title">
        <h2 id="subscription-title" className={styles.figureLabel}>
          Subscription remaining
        </h2>
        <p className={styles.figure}>{formatCents(remaining)}</p>
        <p className={styles.figureNote}>
          {allowance > 0
            ? `of ${formatCents(allowance)} this period (${formatShare(remaining, allowance)} left)`
            : "No monthly allowance on this workspace."}
        </p>
        {allowance > 0 ? (
          <div className={`${styles.bar} ${share < 0.2 ? styles.low : ""}`} aria-hidden="true">
            <span style={{ width: `${share * 100}%` }} />
          </div>
        ) : null}
      </section>
      <section className={ui.card} aria-labelledby="purchased-title">
        <h2 id="purchased-title" className={styles.figureLabel}>
          Purchased balance
        </h2>
        <p className={styles.figure}>{formatCents(purchased)}</p>
        <p className={styles.figureNote}>Spent once the subscription allowance runs out.</p>
      </section>
      <section className={ui.card} aria-labelledby="spent-title">
        <h2 id="spent-title" className={styles.figureLabel}>
          Spent in the last {days} days
        </h2>
        <p className={styles.figure}>{formatCents(spent.costCents)}</p>
        <p className={styles.figureNote}>
          {formatCount(spent.calls)} {spent.calls === 1 ? "call" : "calls"}
        </p>
      </section>
    </div>
  );
}

function OperationsTable({ operations, days }: { operations: Usage["operations"]; days: number }) {
  if (operations.length === 0) return <p className={ui.muted}>No enrichment calls in the last {days} days.</p>;
  return (
    <div className={ui.tableWrap} role="region" aria-labelledby="operations-title" tabIndex={0}>
      <table className={ui.table}>
        <thead>
          <tr>
            <th scope="col">Operation</th>
            <th scope="col" className={ui.num}>
              Calls
            </th>
            <th scope="col" className={ui.num}>
              Cost
            </th>
            <th scope="col" className={ui.num}>
              Cache hits
            </th>
            <th scope="col" className={ui.num}>
              Test calls
            </th>
          </tr>
        </thead>
        <tbody>
          {operations.map((operation) => (
            <tr key={operation.operation}>
              <th scope="row">
                {operationLabel(operation.operation)}{" "}
                <span className={`${styles.detail} ${ui.mono}`}>{operation.operation}</span>
              </th>
              <td className={ui.num}>{formatCount(operation.calls)}</td>
              <td className={ui.num}>{formatCents(operation.costCents)}</td>
              <td className={ui.num}>
                {formatShare(operation.cachedCalls, operation.calls)}{" "}
                <span className={ui.muted}>({formatCount(operation.cachedCalls)})</span>
              </td>
              <td className={ui.num}>{formatCount(operation.testCalls)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const LEDGER_PREVIEW = 10;

function LedgerTable({ entries }: { entries: Usage["recent"] }) {
  const [showAll, setShowAll] = useState(false);
  if (entries.length === 0)
    return <p className={ui.muted}>Nothing yet: calls, credits and allowance changes appear here as they happen.</p>;
  const shown = showAll ? entries : entries.slice(0, LEDGER_PREVIEW);
  return (
    <>
      <div className={ui.tableWrap} role="region" aria-labelledby="ledger-title" tabIndex={0}>
        <table className={ui.table}>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Kind</th>
              <th scope="col">Operation</th>
              <th scope="col">Key</th>
              <th scope="col" className={ui.num}>
                Cost / credit
              </th>
              <th scope="col">Cached</th>
              <th scope="col" className={ui.num}>
                Latency
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((entry) => {
              const row = describeLedgerEntry(entry);
              return (
                <tr key={entry.id}>
                  <td>{formatDateTime(entry.createdAt)}</td>
                  <td>
                    {row.kind}
                    {row.detail ? <span className={styles.detail}>{row.detail}</span> : null}
                  </td>
                  <td>{entry.operation ? operationLabel(entry.operation) : "—"}</td>
                  <td>
                    {entry.keyMode ? (
                      <span className={`${ui.badge} ${entry.keyMode === "live" ? ui.badgeLive : ui.badgeTest}`}>
                        {entry.keyMode === "live" ? "Live" : "Test"}
                      </span>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td className={ui.num}>{row.amount}</td>
                  <td>{entry.kind === "usage" ? (entry.cached ? "Yes" : "No") : "—"}</td>
                  <td className={ui.num}>{formatLatency(entry.latencyMs)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {entries.length > LEDGER_PREVIEW ? (
        <p className={styles.more}>
          <button
            type="button"
            className="button button-small"
            aria-expanded={showAll}
            onClick={() => setShowAll(!showAll)}
          >
            {showAll ? `Show the latest ${LEDGER_PREVIEW} only` : `Show all ${entries.length} entries`}
          </button>
        </p>
      ) : null}
    </>
  );
}

function NoUsageYet() {
  return (
    <section className={`${ui.card} ${ui.empty}`} aria-labelledby="usage-empty-title">
      <h2 id="usage-empty-title">No enrichment calls yet</h2>
      <p>
        Enrichment endpoints such as <code>POST /v1/data/svc/companies/domain-emails</code> are priced per call. Calls
        with a live key are charged to the subscription allowance first, then to the purchased balance; calls with a
        test key are free and show up here as test calls.
      </p>
      <p>
        <Link href="/api-keys">Create an API key</Link> and try one from the <Link href="/docs">API reference</Link>.
      </p>
    </section>
  );
}

export function UsageView() {
  const [days, setDays] = useState<Period>(30);
  const usage = useUsage(days);
  const data = usage.data;
  // The chart's days end today by the browser's clock (or the last day the API reported, if later).
  const spend = data ? fillSpendPerDay(data.spendPerDay, data.days, new Date()) : [];

  return (
    <div className={ui.page}>
      <div className={ui.header}>
        <div>
          <h1>Usage and balance</h1>
          <p className={ui.lead}>
            What enrichment calls cost this workspace, and what is left to spend. Days are UTC days.
          </p>
        </div>
        <div className={ui.row}>
          <span className={styles.updating} role="status">
            {usage.isPlaceholderData ? "Updating…" : ""}
          </span>
          <PeriodPicker value={days} onChange={setDays} />
        </div>
      </div>

      {usage.isPending ? (
        <div aria-busy="true" aria-label="Loading usage">
          <div className={ui.skeleton} />
          <div className={ui.skeleton} />
        </div>
      ) : !data ? (
        <div role="alert" className={ui.alert}>
          <p>Could not load the usage: {errorMessage(usage.error)}</p>
          <button type="button" className="button button-small" onClick={() => void usage.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <div aria-busy={usage.isPlaceholderData}>
          {usage.isError ? (
            <p role="alert" className={`${ui.alert} ${ui.spaced}`}>
              Could not refresh the usage: {errorMessage(usage.error)}
            </p>
          ) : null}
          <Headlines usage={data} days={data.days} />
          <FundsNote />
          {data.operations.length === 0 && data.recent.length === 0 ? (
            <NoUsageYet />
          ) : (
            <>
              <section className={ui.card} aria-labelledby="spend-title">
                <SpendChart spend={spend} days={data.days} />
              </section>
              <section className={ui.card} aria-labelledby="operations-title">
                <h2 id="operations-title" className={ui.sectionTitle}>
                  Calls per operation
                </h2>
                <OperationsTable operations={data.operations} days={data.days} />
              </section>
              <section className={ui.card} aria-labelledby="ledger-title">
                <h2 id="ledger-title" className={ui.sectionTitle}>
                  Recent ledger entries
                </h2>
                <LedgerTable entries={data.recent} />
              </section>
            </>
          )}
        </div>
      )}
    </div>
  );
}
