import type { ReactNode } from "react";
import { ApiErrorAlert } from "./api-error-alert";

/** A section still loading: says what, to screen readers too. */
export function LoadingState({ label }: { label: string }) {
  return (
    <p className="state state-loading muted" role="status">
      <span className="spinner" aria-hidden="true" /> Loading {label}…
    </p>
  );
}

/** Nothing to show yet, and what to do about it. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <p className="state-title">{title}</p>
      {children ? <div className="muted small">{children}</div> : null}
    </div>
  );
}

/** The API's error, with its message and per-field reasons. */
export function ErrorState({ error, title }: { error: unknown; title: string }) {
  return <ApiErrorAlert error={error} title={title} />;
}
