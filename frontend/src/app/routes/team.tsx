import { PageHeader } from "../../components/ui/page-header";
import { QueryState } from "../../components/ui/query-state";
import { useSession } from "../../features/auth/api/get-session";
import { useInvitations } from "../../features/teams/api/list-invitations";
import { useMembers } from "../../features/teams/api/list-members";
import { useRetention } from "../../features/teams/api/team-retention";
import { InvitationsTable } from "../../features/teams/components/invitations-table";
import { InviteForm } from "../../features/teams/components/invite-form";
import { MembersTable } from "../../features/teams/components/members-table";
import { RetentionForm } from "../../features/teams/components/retention-form";
import { isOwner } from "../../lib/roles";
import { usePageTitle } from "../../lib/use-page-title";

/** Members of the current team; owners also manage roles and invitations. */
export function TeamRoute() {
  usePageTitle("Team");
  const session = useSession().data;
  const owner = isOwner(session?.role);
  const members = useMembers();
  const invitations = useInvitations({ enabled: owner });
  const retention = useRetention();
  return (
    <>
      <PageHeader title="Team">
        <span className="team">{session?.team.name}</span>
      </PageHeader>
      <div className="layout-main-side">
        <div>
          <section aria-labelledby="members-heading">
            <h2 id="members-heading">Members</h2>
            <QueryState isPending={members.isPending} error={members.error} label="members">
              <MembersTable members={members.data?.items ?? []} canManage={owner} currentUserId={session?.id ?? 0} />
            </QueryState>
          </section>
          {owner ? (
            <section aria-labelledby="invitations-heading">
              <h2 id="invitations-heading">Invitations</h2>
              <QueryState isPending={invitations.isPending} error={invitations.error} label="invitations">
                <InvitationsTable invitations={invitations.data?.items ?? []} />
              </QueryState>
            </section>
          ) : null}
          <section aria-labelledby="retention-heading">
            <h2 id="retention-heading">Retention</h2>
            <QueryState isPending={retention.isPending} error={retention.error} label="retention settings">
              {retention.data ? <RetentionForm retention={retention.data} canManage={owner} /> : null}
            </QueryState>
          </section>
        </div>
        {owner ? <InviteForm /> : <p className="note muted small">Team owners invite people and change roles.</p>}
      </div>
    </>
  );
}
