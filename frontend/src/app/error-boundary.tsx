import { Component, type ErrorInfo, type ReactNode } from "react";
import { useRouteError } from "react-router";

/** What the user sees instead of a page that failed: the reason and a way out. */
function ErrorMessage({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div role="alert" className="alert alert-error">
      <h1>Something went wrong</h1>
      <p>{message}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        Reload
      </button>
    </div>
  );
}

interface State {
  error: Error | null;
}

/** Last line of defence outside the router: a rendering bug shows a message, never a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("storbench UI error", error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <main className="page page-narrow">
        <ErrorMessage error={this.state.error} />
      </main>
    );
  }
}

/**
 * The router's error element: a page that throws while rendering, or whose code cannot be loaded
 * (a new version deployed meanwhile), shows the reason; inside the app shell, its navigation stays.
 */
export function RouteError({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  console.error("storbench UI error", error);
  if (!standalone) return <ErrorMessage error={error} />;
  return (
    <main className="page page-narrow">
      <ErrorMessage error={error} />
    </main>
  );
}
