import type { AuditEvent } from "../../../lib/api/types";
import { formatDateTime } from "../../../lib/format";

function detailText(value: unknown): string {
  if (value === null || value === undefined) return "—";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

export function AuditTable({ events }: { events: AuditEvent[] }) {
  if (events.length === 0) return <p className="muted">No events.</p>;
  return (
    <div className="table-scroll">
      <table className="table">
        <caption className="sr-only">Audit log</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Resource</th>
            <th scope="col">Hosts</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.id}>
              <td className="nowrap">
                <time dateTime={event.created_at}>{formatDateTime(event.created_at)}</time>
              </td>
              <td>{event.actor}</td>
              <th scope="row" className="mono">
                {event.action}
              </th>
              <td>
                {event.resource_type}
                {event.resource_id !== null ? ` #${event.resource_id}` : null}
              </td>
              <td>{event.hosts.length ? event.hosts.join(", ") : "—"}</td>
              <td>
                <ul className="option-list">
                  {Object.entries(event.details).map(([key, value]) => (
                    <li key={key}>
                      <code>
                        {key}={detailText(value)}
                      </code>
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
