import { useParams } from "react-router";
import { useRole } from "../../features/auth/api/get-session";
import { canWrite } from "../../lib/roles";
import { NotFoundRoute } from "./not-found";
import { RunDetail } from "../../features/runs/components/run-detail";
import { usePageTitle } from "../../lib/use-page-title";
import { runIdOf } from "../page-params";

export function RunDetailRoute() {
  const { id } = useParams();
  const role = useRole();
  const runId = runIdOf(id);
  usePageTitle(runId !== null ? `Run ${runId}` : "Page not found");
  if (runId === null) return <NotFoundRoute />;
  // key: a new id is a new page, with no state carried over.
  return <RunDetail key={runId} runId={runId} canCancel={canWrite(role)} />;
}
