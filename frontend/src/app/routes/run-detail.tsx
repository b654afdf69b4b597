import { useParams } from "react-router";
import { useRole } from "../../features/auth/api/get-session";
import { canWrite } from "../../lib/roles";
import { NotFoundRoute } from "./not-found";
import { RunDetail } from "../../features/runs/components/run-detail";
import { usePageTitle } from "../../lib/use-page-title";

export function RunDetailRoute() {
  const { id } = useParams();
  const role = useRole();
  const runId = Number(id);
  const valid = Number.isInteger(runId) && runId > 0;
  usePageTitle(valid ? `Run ${runId}` : "Page not found");
  if (!valid) return <NotFoundRoute />;
  // key: a new id is a new page, with no state carried over.
  return <RunDetail key={runId} runId={runId} canCancel={canWrite(role)} />;
}
