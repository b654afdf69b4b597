import { PageHeader } from "../../components/ui/page-header";
import { useSession } from "../../features/auth/api/get-session";
import { ChangePasswordForm } from "../../features/auth/components/change-password-form";
import { usePageTitle } from "../../lib/use-page-title";

export function AccountRoute() {
  usePageTitle("Account");
  const session = useSession().data;
  return (
    <>
      <PageHeader title="Account" />
      <div className="layout-main-side">
        <section aria-labelledby="account-heading">
          <h2 id="account-heading">Signed in as</h2>
          <dl className="inline-dl">
            <dt>Email</dt>
            <dd>{session?.email}</dd>
            <dt>Team</dt>
            <dd>{session?.team.name}</dd>
            <dt>Role</dt>
            <dd>{session?.role}</dd>
          </dl>
        </section>
        <ChangePasswordForm />
      </div>
    </>
  );
}
