import { Route, Routes } from "react-router";
import { AppShell } from "./app-shell";
import { RequireAuth } from "./require-auth";
import { DashboardRoute } from "./routes/dashboard";
import { HostsRoute } from "./routes/hosts";
import { LoginRoute } from "./routes/login";
import { NotFoundRoute } from "./routes/not-found";
import { PlansRoute } from "./routes/plans";
import { ResultsRoute } from "./routes/results";
import { RunDetailRoute } from "./routes/run-detail";
import { RunsRoute } from "./routes/runs";
import { TargetsRoute } from "./routes/targets";

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginRoute />} />
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
        <Route path="*" element={<NotFoundRoute />} />
      </Route>
    </Routes>
  );
}
