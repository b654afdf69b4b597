import { Navigate, useLocation, useNavigate } from "react-router";
import { useSession } from "../../features/auth/api/get-session";
import { LoginForm } from "../../features/auth/components/login-form";
import { usePageTitle } from "../../lib/use-page-title";

function safeRedirect(from: unknown): string {
  // Only same-app paths: never bounce to another origin after sign-in.
  return typeof from === "string" && from.startsWith("/") && !from.startsWith("//") && from !== "/login" ? from : "/";
}

export function LoginRoute() {
  usePageTitle("Sign in");
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const from = safeRedirect((location.state as { from?: unknown } | null)?.from);
  if (session.data) return <Navigate to={from} replace />;
  return (
    <main className="page page-narrow login-page">
      <LoginForm onSignedIn={() => navigate(from, { replace: true })} />
    </main>
  );
}
