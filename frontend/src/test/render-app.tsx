import type { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { AppProviders } from "../app/providers";
import { createAppRoutes } from "../app/router";
import { createQueryClient } from "../lib/query-client";

// The browser loads each page's module when it is first visited; tests load them all up front, so
// a page's first render does not wait on a module transform (seconds on a busy machine) and the
// lazy routes resolve from the module cache at once.
import.meta.glob(["../app/routes/*.tsx", "!../app/routes/*.test.tsx"], { eager: true });

/** The app's query client, without retries (a test's failure is meant). */
export function createTestQueryClient(): QueryClient {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({
    queries: { ...queryClient.getDefaultOptions().queries, retry: false },
  });
  return queryClient;
}

/**
 * The whole app (real routes with their loaders, real providers) at a path. Signed in or not is
 * the fake API's answer to GET /auth/status (shellRoutes / signedOutRoutes), as on a real page load.
 */
export function renderApp(path: string, queryClient: QueryClient = createTestQueryClient()) {
  const user = userEvent.setup();
  const router = createMemoryRouter(createAppRoutes(queryClient), { initialEntries: [path] });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, user, queryClient, router };
}
