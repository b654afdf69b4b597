import { Route, Routes } from "react-router";
import { AppShell } from "./app-shell";
import { RequireAuth } from "./require-auth";
import { AccountRoute } from "./routes/account";
import { AuditRoute } from "./routes/audit";
import { CompareRoute } from "./routes/compare";
import { DashboardRoute } from "./routes/dashboard";
import { HistoryRoute } from "./routes/history";
import { HostsRoute } from "./routes/hosts";
import { InviteRoute } from "./routes/invite";
import { LoginRoute } from "./routes/login";
import { NotFoundRoute } from "./routes/not-found";
import { PlansRoute } from "./routes/plans";
import { RegressionsRoute } from "./routes/regressions";
import { ResultsRoute } from "./routes/results";
import { RunDetailRoute } from "./routes/run-detail";
import { RunsRoute } from "./routes/runs";
import { SchedulesRoute } from "./routes/schedules";
import { TargetsRoute } from "./routes/targets";
import { TeamRoute } from "./routes/team";
import { TokensRoute } from "./routes/tokens";
import { WebhooksRoute } from "./routes/webhooks";

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginRoute />} />
      <Route path="/invite/:token" element={<InviteRoute />} />
      <Route
        element={
          <RequireAuth>
            <AppShell />
          </RequireAuth>
        }
      >
        <Route index element={<DashboardRoute />} />
        <Route path="hosts" element={<HostsRoute />} />
        <Route path="targets" element={<TargetsRoute />} />
        <Route path="plans" element={<PlansRoute />} />
        <Route path="runs" element={<RunsRoute />} />
        <Route path="runs/:id" element={<RunDetailRoute />} />
        <Route path="results" element={<ResultsRoute />} />
        <Route path="compare" element={<CompareRoute />} />
        <Route path="history" element={<HistoryRoute />} />
        <Route path="regressions" element={<RegressionsRoute />} />
        <Route path="schedules" element={<SchedulesRoute />} />
        <Route path="team" element={<TeamRoute />} />
        <Route path="audit" element={<AuditRoute />} />
        <Route path="settings/tokens" element={<TokensRoute />} />
        <Route path="settings/webhooks" element={<WebhooksRoute />} />
        <Route path="settings/account" element={<AccountRoute />} />
        <Route path="*" element={<NotFoundRoute />} />
      </Route>
    </Routes>
  );
}
