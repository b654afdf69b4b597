import { useNavigate, useParams } from "react-router";
import { AcceptInvitationForm } from "../../features/auth/components/accept-invitation-form";
import { usePageTitle } from "../../lib/use-page-title";

/** The page an invitation link opens (public): join, get a session, land on the dashboard. */
export function InviteRoute() {
  usePageTitle("Join a team");
  const { token = "" } = useParams();
  const navigate = useNavigate();
  return (
    <main className="page page-narrow login-page">
      <AcceptInvitationForm token={token} onJoined={() => navigate("/", { replace: true })} />
    </main>
  );
}
