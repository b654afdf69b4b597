import type { ReactNode } from "react";
import { ApiErrorAlert } from "./api-error-alert";

interface QueryStateProps {
  isPending: boolean;
  error: unknown;
  label: string;
  children: ReactNode;
}

/** Loading and error states for a query-backed section, so nothing renders blank. */
export function QueryState({ isPending, error, label, children }: QueryStateProps) {
  if (error) return <ApiErrorAlert error={error} title={`Could not load ${label}`} />;
  if (isPending) return <p className="muted" role="status">Loading {label}…</p>;
  return <>{children}</>;
}
