import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { StatusBadge } from "../../../components/ui/status-badge";
import type { Invitation } from "../../../lib/api/types";
import { invitationStatus } from "../../../lib/credential-status";
import { formatDateTime } from "../../../lib/format";
import { useNow } from "../../../lib/use-now";
import { useRevokeInvitation } from "../api/revoke-invitation";

export function InvitationsTable({ invitations }: { invitations: Invitation[] }) {
  const now = useNow(60_000);
  const revokeMutation = useRevokeInvitation();
  if (invitations.length === 0) return <p className="muted">No invitations yet.</p>;
  return (
    <>
      {revokeMutation.error ? <ApiErrorAlert error={revokeMutation.error} title="Could not revoke" /> : null}
      <table className="table">
        <caption className="sr-only">Invitations</caption>
        <thead>
          <tr>
            <th scope="col">For</th>
            <th scope="col">Role</th>
            <th scope="col">Status</th>
            <th scope="col">Expires</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {invitations.map((invitation) => {
            const status = invitationStatus(invitation, now);
            const who = invitation.email ?? `link #${invitation.id}`;
            return (
              <tr key={invitation.id}>
                <th scope="row">{invitation.email ?? <span className="muted">anyone with link #{invitation.id}</span>}</th>
                <td>{invitation.role}</td>
                <td>
                  <StatusBadge status={status} />
                </td>
                <td>
                  <time dateTime={invitation.expires_at}>{formatDateTime(invitation.expires_at)}</time>
                </td>
                <td>
                  {status === "pending" ? (
                    <button
                      type="button"
                      className="button button-small"
                      aria-label={`Revoke invitation for ${who}`}
                      disabled={revokeMutation.isPending}
                      onClick={() => revokeMutation.mutate(invitation.id)}
                    >
                      Revoke
                    </button>
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
