import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { ConfirmAction } from "../../../components/ui/confirm-action";
import { StatusBadge } from "../../../components/ui/status-badge";
import type { ApiToken } from "../../../lib/api/types";
import { credentialStatus } from "../../../lib/credential-status";
import { formatDateTime, formatRelativeTime } from "../../../lib/format";
import { useNow } from "../../../lib/use-now";
import { useRevokeToken } from "../api/revoke-token";

function DateCell({ iso, empty }: { iso: string | null; empty: string }) {
  return <td>{iso ? <time dateTime={iso}>{formatDateTime(iso)}</time> : <span className="muted">{empty}</span>}</td>;
}

export function TokensTable({ tokens }: { tokens: ApiToken[] }) {
  const now = useNow(60_000);
  const revokeMutation = useRevokeToken();
  if (tokens.length === 0) return <p className="muted">No API tokens yet.</p>;
  return (
    <>
      {revokeMutation.error ? <ApiErrorAlert error={revokeMutation.error} title="Could not revoke" /> : null}
      <table className="table">
        <caption className="sr-only">API tokens</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => {
            const status = credentialStatus(token, now);
            const name = token.name ?? `token #${token.id}`;
            return (
              <tr key={token.id}>
                <th scope="row">{name}</th>
                <td>{token.role ?? "—"}</td>
                <DateCell iso={token.created_at} empty="—" />
                <DateCell iso={token.expires_at} empty="never" />
                <td>
                  {token.last_used_at ? (
                    <time dateTime={token.last_used_at} title={formatDateTime(token.last_used_at)}>
                      {formatRelativeTime(token.last_used_at, now)}
                    </time>
                  ) : (
                    <span className="muted">never</span>
                  )}
                </td>
                <td>
                  <StatusBadge status={status} />
                  {token.revoked_at ? (
                    <span className="small muted"> {formatDateTime(token.revoked_at)}</span>
                  ) : null}
                </td>
                <td>
                  {status === "active" ? (
                    <ConfirmAction
                      label="Revoke"
                      name={`Revoke token ${name}`}
                      groupLabel={`Confirm revoking ${name}`}
                      question={
                        <>
                          Revoke <strong>{name}</strong>? Scripts and pipelines using it fail from now on.
                        </>
                      }
                      confirmLabel="Revoke token"
                      disabled={revokeMutation.isPending}
                      onConfirm={() => revokeMutation.mutate(token.id)}
                    />
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
