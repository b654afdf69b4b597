import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { QueryState } from "../../../components/ui/query-state";
import { formatDateTime } from "../../../lib/format";
import { useDeliveries, type Delivery } from "../api/list-deliveries";
import { useRetryDelivery } from "../api/retry-delivery";
import { DeliveryBadge } from "./delivery-badge";

/** The receiver's last answer, and when the delivery was made, delivered and is tried again. */
function DeliveryOutcomeCells({ delivery }: { delivery: Delivery }) {
  return (
    <>
      <td>
        {delivery.last_status_code !== null ? <strong>HTTP {delivery.last_status_code}</strong> : null}
        {delivery.last_error ? <div className="small">{delivery.last_error}</div> : null}
        {delivery.response_excerpt ? (
          <div className="small muted mono" title="first bytes of the answer">
            {delivery.response_excerpt.slice(0, 120)}
          </div>
        ) : null}
      </td>
      <td className="small">
        <div>
          created <time dateTime={delivery.created_at}>{formatDateTime(delivery.created_at)}</time>
        </div>
        {delivery.delivered_at ? (
          <div>
            delivered <time dateTime={delivery.delivered_at}>{formatDateTime(delivery.delivered_at)}</time>
          </div>
        ) : null}
        {delivery.next_attempt_at ? (
          <div>
            next attempt <time dateTime={delivery.next_attempt_at}>{formatDateTime(delivery.next_attempt_at)}</time>
          </div>
        ) : null}
      </td>
    </>
  );
}

/** A webhook's deliveries: status, attempts, the receiver's last answer, and when it is tried again. */
export function DeliveryLog({ webhookId, url }: { webhookId: number; url: string }) {
  const deliveries = useDeliveries(webhookId);
  const retryMutation = useRetryDelivery();
  const items = deliveries.data?.items ?? [];
  return (
    <QueryState
      isPending={deliveries.isPending}
      error={deliveries.error}
      label="deliveries"
      isEmpty={items.length === 0}
      empty={<p className="muted small">Nothing sent yet. Send a test event to try the receiver.</p>}
    >
      {retryMutation.error ? <ApiErrorAlert error={retryMutation.error} title="Could not send again" /> : null}
      <div className="table-scroll">
        <table className="table table-compact">
          <caption className="sr-only">Deliveries to {url}</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last answer</th>
              <th scope="col">When</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {items.map((delivery) => (
              <tr key={delivery.id}>
                <th scope="row">
                  {delivery.event}
                  <div className="small muted mono">{delivery.delivery_uid}</div>
                </th>
                <td>
                  <DeliveryBadge status={delivery.status} />
                </td>
                <td>
                  {delivery.attempts} of {delivery.max_attempts}
                </td>
                <DeliveryOutcomeCells delivery={delivery} />
                <td>
                  {delivery.status === "failed" ? (
                    <button
                      type="button"
                      className="button button-small"
                      aria-label={`Send delivery ${delivery.id} again`}
                      disabled={retryMutation.isPending}
                      onClick={() => retryMutation.mutate({ webhookId, deliveryId: delivery.id })}
                    >
                      Send again
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </QueryState>
  );
}
