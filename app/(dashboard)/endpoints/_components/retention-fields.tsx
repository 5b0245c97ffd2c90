"use client";

import { TextField } from "@/app/(dashboard)/_components/text-field";
import type { RetentionField, RetentionFormValues } from "../_lib/retention";

/** The two day counts of a retention policy; empty keeps forever. */
export function RetentionFields({
  idPrefix,
  values,
  onChange,
  errors,
}: {
  idPrefix: string;
  values: RetentionFormValues;
  onChange: (values: RetentionFormValues) => void;
  errors: Partial<Record<RetentionField, string>>;
}) {
  return (
    <>
      <TextField
        id={`${idPrefix}-all`}
        label="Delete every delivery after (days)"
        optional
        inputMode="numeric"
        maxLength={4}
        value={values.allDays}
        onChange={(allDays) => onChange({ ...values, allDays })}
        hint="Pending ones too. Empty: keep them forever."
        error={errors.allDays}
      />
      <TextField
        id={`${idPrefix}-acknowledged`}
        label="Delete acknowledged deliveries after (days)"
        optional
        inputMode="numeric"
        maxLength={4}
        value={values.acknowledgedDays}
        onChange={(acknowledgedDays) => onChange({ ...values, acknowledgedDays })}
        hint="Counted from receipt, like the first. Empty: as long as every delivery is kept."
        error={errors.acknowledgedDays}
      />
    </>
  );
}
