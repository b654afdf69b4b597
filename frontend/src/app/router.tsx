// The app's routes: each page's code is loaded when it is visited (lazy), and its loader starts
// the page's queries at the same moment, so the data and the code arrive together. Loaders never
// wait for the answers: the page renders as soon as its code is here and shows what has arrived
// (TanStack Query is the only cache; the page's own hooks take the answers from it).

import type { QueryClient } from "@tanstack/react-query";
import type { ComponentType } from "react";
import { createBrowserRouter, type LoaderFunction, type LoaderFunctionArgs, type RouteObject } from "react-router";
import { attentionQueryOptions } from "../features/attention/api/get-attention";
import { listAuditEventsQueryOptions } from "../features/audit/api/list-audit-events";
import { sessionQueryOptions } from "../features/auth/api/get-session";
import { comparisonQueryOptions } from "../features/compare/api/get-comparison";
import { GROUP_DEFAULTS, groupsQueryOptions } from "../features/compare/api/get-groups";
import { previousComparisonQueryOptions } from "../features/compare/api/get-previous-comparison";
import { savedViewQueryOptions } from "../features/compare/api/get-saved-view";
import { curvesQueryOptions } from "../features/curves/api/get-curves";
import { regressionsQueryOptions } from "../features/history/api/list-regressions";
import { seriesQueryOptions } from "../features/history/api/list-series";
import { listEnrollmentTokensQueryOptions } from "../features/hosts/api/list-enrollment-tokens";
import { listHostsQueryOptions } from "../features/hosts/api/list-hosts";
import { listPlansQueryOptions } from "../features/plans/api/list-plans";
import { listPresetsQueryOptions } from "../features/plans/api/list-presets";
import { resultQueryOptions } from "../features/results/api/get-result";
import { resultVerdictQueryOptions } from "../features/results/api/get-result-verdict";
import { listResultsQueryOptions } from "../features/results/api/list-results";
import { runQueryOptions } from "../features/runs/api/get-run";
import { listRunsQueryOptions } from "../features/runs/api/list-runs";
import { listSchedulesQueryOptions } from "../features/schedules/api/list-schedules";
import { healthQueryOptions } from "../features/system/api/get-health";
import { listTargetsQueryOptions } from "../features/targets/api/list-targets";
import { listInvitationsQueryOptions } from "../features/teams/api/list-invitations";
import { listMembersQueryOptions } from "../features/teams/api/list-members";
import { listTokensQueryOptions } from "../features/tokens/api/list-tokens";
import { listWebhooksQueryOptions } from "../features/webhooks/api/list-webhooks";
import type { Role, Session } from "../lib/api/types";
import { isOwner } from "../lib/roles";
import { SESSION_QUERY_KEY, hasSessionCookie } from "../lib/session";
import { AppShell } from "./app-shell";
import { RouteError } from "./error-boundary";
import {
  RESULTS_CHART_LIMIT,
  RESULTS_PAGE_SIZE,
  auditQuery,
  comparisonOf,
  groupsFilter,
  readIdParam,
  readResultFilters,
  regressionsQuery,
  resultsQuery,
  runIdOf,
  runsListParams,
} from "./page-params";
import { RequireAuth } from "./require-auth";
import { curvesParamsOf } from "./routes/curves-params";

/** Starts a query into the cache (never throws: a failure is the page's to show when it asks). */
type Start = QueryClient["prefetchQuery"];

interface PageData {
  start: Start;
  /** The page's address. */
  params: URLSearchParams;
  /** The route's path parameters (/runs/:id). */
  path: LoaderFunctionArgs["params"];
  /** The signed-in user's role; undefined while only guessed from the cookie (page load). */
  role: Role | undefined;
}

/**
 * Who the queries are started for: the session when known; on a page load, before the server has
 * answered, a session guessed from its cookie; nobody when signed out (the guard sends the visitor
 * to sign in, and nothing is asked that would answer 401).
 */
function signedIn(queryClient: QueryClient): { role: Role | undefined } | null {
  const session = queryClient.getQueryData<Session | null>(SESSION_QUERY_KEY);
  if (session === undefined) return hasSessionCookie() ? { role: undefined } : null;
  return session ? { role: session.role } : null;
}

/** A loader that starts the queries `startPage` names and returns at once. */
function pageLoader(queryClient: QueryClient, startPage: (page: PageData) => void): LoaderFunction {
  const start: Start = queryClient.prefetchQuery.bind(queryClient);
  return ({ request, params }: LoaderFunctionArgs) => {
    const who = signedIn(queryClient);
    if (who) startPage({ start, params: new URL(request.url).searchParams, path: params, role: who.role });
    return null;
  };
}

/** A page's component, loaded from its module when the page is first visited. */
function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => ({ Component: pick(await load()) });
}

function startCompare({ start, params }: PageData): void {
  const viewId = readIdParam(params, "view");
  if (viewId !== null) start(savedViewQueryOptions(viewId));
  const { ids, baseline, pool } = comparisonOf(params);
  if (ids.length === 0) {
    const previousRun = readIdParam(params, "previous_run");
    if (previousRun !== null) start(previousComparisonQueryOptions(previousRun));
    return;
  }
  if (viewId !== null) return;
  start(comparisonQueryOptions({ ids, baseline, pool }));
  start(groupsQueryOptions({ ...groupsFilter(ids), ...GROUP_DEFAULTS }));
}

function startResults({ start, params }: PageData): void {
  const query = resultsQuery(readResultFilters(params));
  start(listResultsQueryOptions({ ...query, limit: RESULTS_PAGE_SIZE, cursor: params.get("cursor") || undefined }));
  start(listResultsQueryOptions({ ...query, limit: RESULTS_CHART_LIMIT }));
  start(listTargetsQueryOptions());
}

function startCurves({ start, params }: PageData): void {
  const asked = curvesParamsOf(params);
  if (asked) start(curvesQueryOptions(asked));
}

function startHistory({ start, params }: PageData): void {
  start(listTargetsQueryOptions());
  start(regressionsQueryOptions({ acknowledged: false, kind: "regression", limit: 1 }));
  const targetId = params.get("target_id");
  if (targetId && /^\d+$/.test(targetId)) start(seriesQueryOptions(Number(targetId)));
}

type StartPage = (page: PageData) => void;

/** Where benchmarks are set up and run: dashboard, hosts, targets, plans, runs, schedules. */
function benchPages(load: (startPage: StartPage) => LoaderFunction): RouteObject[] {
  return [
    {
      index: true,
      lazy: lazyPage(() => import("./routes/dashboard"), (m) => m.DashboardRoute),
      loader: load(({ start }) => {
        start(attentionQueryOptions());
        start(listHostsQueryOptions());
        start(listTargetsQueryOptions());
        start(listPresetsQueryOptions());
        start(listRunsQueryOptions({ limit: 10 }));
        start(listRunsQueryOptions({ status: "running", limit: 1 }));
        start(listRunsQueryOptions({ status: "queued", limit: 1 }));
      }),
    },
    {
      path: "hosts",
      lazy: lazyPage(() => import("./routes/hosts"), (m) => m.HostsRoute),
      loader: load((page) => {
        page.start(listHostsQueryOptions());
        if (isOwner(page.role)) page.start(listEnrollmentTokensQueryOptions());
      }),
    },
    {
      path: "targets",
      lazy: lazyPage(() => import("./routes/targets"), (m) => m.TargetsRoute),
      loader: load(({ start }) => {
        start(listTargetsQueryOptions());
        start(listHostsQueryOptions());
      }),
    },
    {
      path: "plans",
      lazy: lazyPage(() => import("./routes/plans"), (m) => m.PlansRoute),
      loader: load(({ start }) => {
        start(listPlansQueryOptions());
        start(listPresetsQueryOptions());
        start(listTargetsQueryOptions());
      }),
    },
    {
      path: "runs",
      lazy: lazyPage(() => import("./routes/runs"), (m) => m.RunsRoute),
      loader: load(({ start, params }) => start(listRunsQueryOptions(runsListParams(params)))),
    },
    {
      path: "runs/:id",
      lazy: lazyPage(() => import("./routes/run-detail"), (m) => m.RunDetailRoute),
      loader: load(({ start, path }) => {
        const runId = runIdOf(path.id);
        if (runId !== null) start(runQueryOptions(runId));
      }),
    },
    {
      path: "schedules",
      lazy: lazyPage(() => import("./routes/schedules"), (m) => m.SchedulesRoute),
      loader: load(({ start }) => {
        start(listSchedulesQueryOptions());
        start(listPlansQueryOptions());
        start(listTargetsQueryOptions());
      }),
    },
  ];
}

/** Where results are read: results, compare, history, regressions. */
function resultPages(load: (startPage: StartPage) => LoaderFunction): RouteObject[] {
  return [
    { path: "planner", lazy: lazyPage(() => import("./routes/planner"), (m) => m.PlannerRoute) },
    { path: "results", lazy: lazyPage(() => import("./routes/results"), (m) => m.ResultsRoute), loader: load(startResults) },
    {
      path: "results/:id",
      lazy: lazyPage(() => import("./routes/result-detail"), (m) => m.ResultDetailRoute),
      loader: load(({ start, path }) => {
        const resultId = runIdOf(path.id);
        if (resultId === null) return;
        start(resultQueryOptions(resultId));
        start(resultVerdictQueryOptions(resultId));
      }),
    },
    { path: "compare", lazy: lazyPage(() => import("./routes/compare"), (m) => m.CompareRoute), loader: load(startCompare) },
    { path: "curves", lazy: lazyPage(() => import("./routes/curves"), (m) => m.CurvesRoute), loader: load(startCurves) },
    { path: "history", lazy: lazyPage(() => import("./routes/history"), (m) => m.HistoryRoute), loader: load(startHistory) },
    {
      path: "regressions",
      lazy: lazyPage(() => import("./routes/regressions"), (m) => m.RegressionsRoute),
      loader: load(({ start, params }) => {
        start(regressionsQueryOptions(regressionsQuery(params)));
        start(listTargetsQueryOptions());
      }),
    },
  ];
}

/** The team and its settings; audit, tokens and webhooks are the owners' (others get no queries). */
function teamPages(load: (startPage: StartPage) => LoaderFunction): RouteObject[] {
  const owners = (startPage: StartPage) => load((page) => (isOwner(page.role) ? startPage(page) : undefined));
  return [
    {
      path: "team",
      lazy: lazyPage(() => import("./routes/team"), (m) => m.TeamRoute),
      loader: load((page) => {
        page.start(listMembersQueryOptions());
        if (isOwner(page.role)) page.start(listInvitationsQueryOptions());
      }),
    },
    {
      path: "audit",
      lazy: lazyPage(() => import("./routes/audit"), (m) => m.AuditRoute),
      loader: owners(({ start, params }) => start(listAuditEventsQueryOptions(auditQuery(params)))),
    },
    {
      path: "settings/tokens",
      lazy: lazyPage(() => import("./routes/tokens"), (m) => m.TokensRoute),
      loader: owners(({ start }) => start(listTokensQueryOptions())),
    },
    {
      path: "settings/webhooks",
      lazy: lazyPage(() => import("./routes/webhooks"), (m) => m.WebhooksRoute),
      loader: owners(({ start }) => start(listWebhooksQueryOptions())),
    },
    { path: "settings/account", lazy: lazyPage(() => import("./routes/account"), (m) => m.AccountRoute) },
  ];
}

/** The pages behind sign-in, each with the queries its loader starts. */
function appPages(queryClient: QueryClient): RouteObject[] {
  const load = (startPage: StartPage) => pageLoader(queryClient, startPage);
  return [
    ...benchPages(load),
    ...resultPages(load),
    ...teamPages(load),
    { path: "*", lazy: lazyPage(() => import("./routes/not-found"), (m) => m.NotFoundRoute) },
  ];
}

/** Every route of the app; the query client is the one the loaders start queries into. */
export function createAppRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      errorElement: <RouteError standalone />,
      hydrateFallbackElement: (
        <main className="page page-narrow">
          <p className="muted">Loading…</p>
        </main>
      ),
      children: [
        { path: "/login", lazy: lazyPage(() => import("./routes/login"), (m) => m.LoginRoute) },
        { path: "/invite/:token", lazy: lazyPage(() => import("./routes/invite"), (m) => m.InviteRoute) },
        {
          element: (
            <RequireAuth>
              <AppShell />
            </RequireAuth>
          ),
          // The session check starts with the page's own queries, not before them.
          loader: () => {
            void queryClient.prefetchQuery(sessionQueryOptions());
            void queryClient.prefetchQuery(healthQueryOptions());
            return null;
          },
          // A page that fails shows why inside the shell: the navigation stays usable.
          children: [{ errorElement: <RouteError />, children: appPages(queryClient) }],
        },
      ],
    },
  ];
}

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(createAppRoutes(queryClient));
}
