import { CredentialTable, DateTime } from "../../../components/ui/credential-table";
import { StatusBadge } from "../../../components/ui/status-badge";
import type { Invitation } from "../../../lib/api/types";
import { invitationStatus } from "../../../lib/credential-status";
import { useRevokeInvitation } from "../api/revoke-invitation";

export function InvitationsTable({ invitations }: { invitations: Invitation[] }) {
  const revokeMutation = useRevokeInvitation();
  return (
    <CredentialTable
      caption="Invitations"
      empty="No invitations yet."
      items={invitations}
      nameHeader="For"
      name={(invitation) => invitation.email ?? <span className="muted">anyone with link #{invitation.id}</span>}
      columns={[
        { header: "Role", cell: (invitation) => invitation.role },
        { header: "Status", cell: (invitation, now) => <StatusBadge status={invitationStatus(invitation, now)} /> },
        { header: "Expires", cell: (invitation) => <DateTime iso={invitation.expires_at} /> },
      ]}
      revocable={(invitation, now) => invitationStatus(invitation, now) === "pending"}
      revoke={{
        name: (invitation) => `Revoke invitation for ${invitation.email ?? `link #${invitation.id}`}`,
        pending: revokeMutation.isPending,
        error: revokeMutation.error,
        onRevoke: (invitation) => revokeMutation.mutate(invitation.id),
      }}
    />
  );
}
