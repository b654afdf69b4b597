import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { useAuthToken } from "../lib/use-auth-token";

/** Renders its children only with a token; otherwise (or once a 401 drops it) goes to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useAuthToken();
  const location = useLocation();
  if (!token) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return <>{children}</>;
}
