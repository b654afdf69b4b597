import type { ReactNode } from "react";
import { EmptyState, ErrorState, LoadingState } from "./states";

interface QueryStateProps {
  isPending: boolean;
  error: unknown;
  label: string;
  children: ReactNode;
  /** When the loaded data holds nothing: shown instead of the children. */
  isEmpty?: boolean;
  empty?: ReactNode;
}

/** Loading, error and empty states for a query-backed section, so nothing renders blank. */
export function QueryState({ isPending, error, label, children, isEmpty = false, empty }: QueryStateProps) {
  if (error) return <ErrorState error={error} title={`Could not load ${label}`} />;
  if (isPending) return <LoadingState label={label} />;
  if (isEmpty) return <>{empty ?? <EmptyState title={`No ${label} yet.`} />}</>;
  return <>{children}</>;
}
