import { deliveryStatus, STATUS_LABELS } from "../_lib/delivery-status";
import { describeSignature } from "../_lib/format";
import type { Delivery } from "../_lib/types";

export function StatusBadge({ delivery }: { delivery: Pick<Delivery, "acknowledgedAt"> }) {
  const status = deliveryStatus(delivery);
  return <span className={`badge badge-${status}`}>{STATUS_LABELS[status]}</span>;
}

export function SignatureBadge({ signature }: { signature: Delivery["signature"] }) {
  const { tone, label, detail } = describeSignature(signature);
  return (
    <span className={`signature signature-${tone}`} title={detail}>
      {label}
      <span className="visually-hidden">: {detail}</span>
    </span>
  );
}
