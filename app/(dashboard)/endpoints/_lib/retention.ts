import { formErrors } from "@/app/(dashboard)/_lib/form-errors";
import { retentionPolicyInput, type EffectiveRetention, type RetentionPolicy } from "@/lib/contracts/retention";

const days = (count: number) => `${count} ${count === 1 ? "day" : "days"}`;

/** One line for a policy: "Keeps acknowledged 7 days, all 30 days", "Keeps everything". */
export function describeRetention(policy: RetentionPolicy | null): string {
  const { acknowledgedDays, allDays } = policy ?? { acknowledgedDays: null, allDays: null };
  if (acknowledgedDays === null && allDays === null) return "Keeps everything";
  if (allDays === null) return `Keeps acknowledged ${days(acknowledgedDays!)}, pending forever`;
  if (acknowledgedDays === null) return `Keeps all ${days(allDays)}`;
  return `Keeps acknowledged ${days(acknowledgedDays)}, all ${days(allDays)}`;
}

/** The endpoint card's line: the policy that applies, and whether it is the workspace's. */
export function describeEffectiveRetention(effective: EffectiveRetention): string {
  const line = describeRetention(effective);
  return effective.source === "workspace" ? `${line} (workspace default)` : line;
}

/** The form as typed: days stay text until submitted; empty means forever. */
export interface RetentionFormValues {
  acknowledgedDays: string;
  allDays: string;
}

export const RETENTION_FIELDS = ["acknowledgedDays", "allDays"] as const;
export type RetentionField = (typeof RETENTION_FIELDS)[number];

export function retentionFormValues(policy: RetentionPolicy | null): RetentionFormValues {
  return {
    acknowledgedDays: policy?.acknowledgedDays?.toString() ?? "",
    allDays: policy?.allDays?.toString() ?? "",
  };
}

/**
 * The policy the form sends, or the problems to show under its fields: text that is not a whole number here, the
 * ranges and their order with the contract's own messages (what the API would answer).
 */
export function toRetentionPolicy(
  values: RetentionFormValues,
): { ok: true; policy: RetentionPolicy } | { ok: false; fields: Partial<Record<RetentionField, string>> } {
  const fields: Partial<Record<RetentionField, string>> = {};
  const policy: Record<RetentionField, number | null> = { acknowledgedDays: null, allDays: null };
  for (const field of RETENTION_FIELDS) {
    const text = values[field].trim();
    if (text === "") continue;
    if (/^\d+$/.test(text)) policy[field] = Number(text);
    else fields[field] = "must be a whole number of days, or empty to keep forever";
  }
  const parsed = retentionPolicyInput.safeParse(policy);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as RetentionField;
      fields[field] ??= issue.message;
    }
  return Object.keys(fields).length === 0 && parsed.success ? { ok: true, policy: parsed.data } : { ok: false, fields };
}

/**
 * What a retention form shows: the problems found before sending, else the API's for the policy at `path`
 * (`retention`, `deliveryRetention`) under the two fields, and anything else as the form's message.
 */
export function retentionFormErrors(
  problems: Partial<Record<RetentionField, string>>,
  error: unknown,
  path: string,
): { form: string | null; fields: Partial<Record<RetentionField, string>> } {
  if (!error) return { form: null, fields: problems };
  const api = formErrors(
    error,
    RETENTION_FIELDS.map((field) => `${path}.${field}`),
  );
  const fields: Partial<Record<RetentionField, string>> = {};
  for (const field of RETENTION_FIELDS) {
    const message = api.fields[`${path}.${field}`];
    if (message) fields[field] = message;
  }
  return { form: api.form, fields };
}
