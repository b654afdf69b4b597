import { useParams } from "react-router";
import { NotFoundRoute } from "./not-found";
import { RunDetail } from "../../features/runs/components/run-detail";

export function RunDetailRoute() {
  const { id } = useParams();
  const runId = Number(id);
  if (!Number.isInteger(runId) || runId <= 0) return <NotFoundRoute />;
  // key: a new id is a new page, with no state carried over.
  return <RunDetail key={runId} runId={runId} />;
}
