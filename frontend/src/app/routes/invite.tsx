import { useNavigate, useParams } from "react-router";
import { AcceptInvitationForm } from "../../features/auth/components/accept-invitation-form";

/** The page an invitation link opens (public): join, get a session, land on the dashboard. */
export function InviteRoute() {
  const { token = "" } = useParams();
  const navigate = useNavigate();
  return (
    <main className="page page-narrow login-page">
      <AcceptInvitationForm token={token} onJoined={() => navigate("/", { replace: true })} />
    </main>
  );
}
