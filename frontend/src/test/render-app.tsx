import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { AppRoutes } from "../app/app-routes";
import { AppProviders } from "../app/providers";
import { setToken } from "../lib/auth-token";
import { createQueryClient } from "../lib/query-client";

/** The whole app (real routes, real providers) at a path, optionally signed in. */
export function renderApp(path: string, { signedIn = true }: { signedIn?: boolean } = {}) {
  if (signedIn) setToken("test-token", new Date(Date.now() + 3_600_000).toISOString());
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({
    queries: { ...queryClient.getDefaultOptions().queries, retry: false },
  });
  const user = userEvent.setup();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...view, user, queryClient };
}
