import type { Delivery } from "../api/list-deliveries";

const TONES: Record<Delivery["status"], string> = { pending: "info", delivered: "ok", failed: "bad" };

/** pending / delivered / failed, in the shared badge colours. */
export function DeliveryBadge({ status }: { status: Delivery["status"] }) {
  return <span className={`badge badge-${TONES[status]}`}>{status}</span>;
}
