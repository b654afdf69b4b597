import { Link } from "react-router";
import { QueryState } from "../../../components/ui/query-state";
import { formatDateTime } from "../../../lib/format";
import { useAttention, type AttentionItem } from "../api/get-attention";

/** What each kind is called on its badge, and the badge's colour. */
const KINDS: Record<AttentionItem["kind"], { word: string; badge: string; action: string }> = {
  regression: { word: "regression", badge: "badge-bad", action: "Review" },
  failed_run: { word: "run failed", badge: "badge-bad", action: "Open the run" },
  failed_slot: { word: "schedule", badge: "badge-warn", action: "Open schedules" },
  host_revoked: { word: "host revoked", badge: "badge-bad", action: "Open hosts" },
  host_offline: { word: "host offline", badge: "badge-warn", action: "Open hosts" },
  below_spec: { word: "below spec", badge: "badge-warn", action: "Open the result" },
};

/** The dashboard's "Needs attention" list: each item in a sentence, with the page that resolves it. */
export function AttentionPanel() {
  const attention = useAttention();
  const items = attention.data?.items ?? [];
  return (
    <section className="panel attention" aria-labelledby="attention-heading">
      <h2 id="attention-heading">Needs attention</h2>
      <QueryState
        isPending={attention.isPending}
        error={attention.error}
        label="what needs attention"
        isEmpty={items.length === 0}
        empty={
          <p className="attention-clear" role="status">
            <span className="badge badge-ok">all is well</span> No unacknowledged regressions, failed runs or
            schedule slots, hosts offline, or results below spec.
          </p>
        }
      >
        <ul className="attention-list" aria-label="Needs attention">
          {items.map((item) => (
            <AttentionRow key={`${item.kind}-${item.id}`} item={item} />
          ))}
        </ul>
        {attention.data?.truncated ? (
          <p className="small muted">Only the {attention.data.limit} newest of each kind are listed.</p>
        ) : null}
      </QueryState>
    </section>
  );
}

function AttentionRow({ item }: { item: AttentionItem }) {
  const kind = KINDS[item.kind];
  return (
    <li className="attention-item">
      <span className={`badge ${kind?.badge ?? "badge-muted"}`}>{kind?.word ?? item.kind}</span>{" "}
      <span className="attention-sentence">{item.sentence}</span>{" "}
      <span className="small muted nowrap">
        <time dateTime={item.at}>{formatDateTime(item.at)}</time>
      </span>{" "}
      <Link to={item.link} className="attention-link">
        {kind?.action ?? "Open"}
        <span className="sr-only">: {item.sentence}</span>
      </Link>
    </li>
  );
}
