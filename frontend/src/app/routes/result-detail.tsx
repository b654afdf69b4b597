import { useParams } from "react-router";
import { ResultPage } from "../../features/results/components/result-page";
import { ResultSummary } from "../../features/runs/components/result-summary";
import { usePageTitle } from "../../lib/use-page-title";
import { runIdOf } from "../page-params";
import { NotFoundRoute } from "./not-found";

export function ResultDetailRoute() {
  const { id } = useParams();
  const resultId = runIdOf(id);
  usePageTitle(resultId !== null ? `Result ${resultId}` : "Page not found");
  if (resultId === null) return <NotFoundRoute />;
  // The figures, percentiles, histogram and findings are drawn as on a run's page.
  return <ResultPage key={resultId} resultId={resultId} renderFigures={(result) => <ResultSummary result={result} />} />;
}
