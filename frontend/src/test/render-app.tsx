import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { AppRoutes } from "../app/app-routes";
import { AppProviders } from "../app/providers";
import { createQueryClient } from "../lib/query-client";

/**
 * The whole app (real routes, real providers) at a path. Signed in or not is the fake API's
 * answer to GET /auth/status (shellRoutes / signedOutRoutes), as on a real page load.
 */
export function renderApp(path: string) {
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
