import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { ConfirmAction } from "../../../components/ui/confirm-action";
import type { Member, Role } from "../../../lib/api/types";
import { formatDateTime } from "../../../lib/format";
import { ROLES } from "../../../lib/roles";
import { useRemoveMember } from "../api/remove-member";
import { useUpdateMember } from "../api/update-member";

interface MembersTableProps {
  members: Member[];
  /** Owners change roles and remove members. */
  canManage: boolean;
  currentUserId: number;
}

/** An owner's choice of a member's role. */
function RoleSelect({ member, disabled, onChange }: { member: Member; disabled: boolean; onChange: (role: Role) => void }) {
  return (
    <select
      aria-label={`Role of ${member.email}`}
      value={member.role}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as Role)}
    >
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {role}
        </option>
      ))}
    </select>
  );
}

/** The team's members; owners change roles and remove members. */
export function MembersTable({ members, canManage, currentUserId }: MembersTableProps) {
  const updateMutation = useUpdateMember();
  const removeMutation = useRemoveMember();
  const busy = updateMutation.isPending || removeMutation.isPending;

  function changeRole(member: Member, role: Role) {
    removeMutation.reset();
    updateMutation.mutate({ userId: member.user_id, changes: { role } });
  }

  function remove(member: Member) {
    updateMutation.reset();
    removeMutation.mutate(member.user_id);
  }

  return (
    <>
      {updateMutation.error ? <ApiErrorAlert error={updateMutation.error} title="Could not change the role" /> : null}
      {removeMutation.error ? <ApiErrorAlert error={removeMutation.error} title="Could not remove the member" /> : null}
      <table className="table">
        <caption className="sr-only">Members</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Joined</th>
            {canManage ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.user_id}>
              <th scope="row">
                {member.email}
                {member.user_id === currentUserId ? <span className="muted small"> (you)</span> : null}
              </th>
              <td>
                {canManage ? (
                  <RoleSelect member={member} disabled={busy} onChange={(role) => changeRole(member, role)} />
                ) : (
                  member.role
                )}
              </td>
              <td>
                <time dateTime={member.joined_at}>{formatDateTime(member.joined_at)}</time>
              </td>
              {canManage ? (
                <td>
                  <ConfirmAction
                    label="Remove"
                    name={`Remove ${member.email}`}
                    groupLabel={`Confirm removing ${member.email}`}
                    question={
                      <>
                        Remove <strong>{member.email}</strong> from the team? They lose access to its hosts, targets and
                        results at once.
                      </>
                    }
                    confirmLabel="Remove member"
                    disabled={busy}
                    onConfirm={() => remove(member)}
                  />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
