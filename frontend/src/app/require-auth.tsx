import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { ApiErrorAlert } from "../components/ui/api-error-alert";
import { useSession } from "../features/auth/api/get-session";

/**
 * Renders its children only within a session (restored from the cookie on page load); otherwise,
 * or once any 401 ends it, goes to /login remembering the page to come back to.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.data) return <>{children}</>;
  if (session.error) {
    return (
      <main className="page page-narrow">
        <ApiErrorAlert error={session.error} title="Could not check your session" />
        <button type="button" className="button" onClick={() => void session.refetch()}>
          Try again
        </button>
      </main>
    );
  }
  if (session.isPending) {
    return (
      <main className="page page-narrow">
        <p className="muted">Loading…</p>
      </main>
    );
  }
  return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
}
