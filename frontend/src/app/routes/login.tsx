import { Navigate, useLocation, useNavigate } from "react-router";
import { LoginForm } from "../../features/auth/components/login-form";
import { useAuthToken } from "../../lib/use-auth-token";

function safeRedirect(from: unknown): string {
  // Only same-app paths: never bounce to another origin after sign-in.
  return typeof from === "string" && from.startsWith("/") && !from.startsWith("//") && from !== "/login" ? from : "/";
}

export function LoginRoute() {
  const token = useAuthToken();
  const navigate = useNavigate();
  const location = useLocation();
  const from = safeRedirect((location.state as { from?: unknown } | null)?.from);
  if (token) return <Navigate to={from} replace />;
  return (
    <main className="page page-narrow login-page">
      <LoginForm onSignedIn={() => navigate(from, { replace: true })} />
    </main>
  );
}
