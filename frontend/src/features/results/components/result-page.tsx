import type { ReactNode } from "react";
import { Link } from "react-router";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { PageHeader } from "../../../components/ui/page-header";
import { VerdictStrip } from "../../../components/ui/verdict-strip";
import type { Result } from "../../../lib/api/types";
import { formatDateTime } from "../../../lib/format";
import { useResult } from "../api/get-result";
import { useResultVerdict } from "../api/get-result-verdict";
import { hasJobFile, jobFileUrl, rawOutputUrl } from "../api/result-files";

interface ResultPageProps {
  resultId: number;
  /** The result's figures, percentiles, histogram and findings (composed by the app: they are the runs'). */
  renderFigures: (result: Result) => ReactNode;
}

/** Where it came from: the run or the import, when fio measured it, the target or the host it names. */
function ResultFacts({ result }: { result: Result }) {
  return (
    <dl className="facts">
      <div>
        <dt>Source</dt>
        <dd>
          {result.run_id !== null ? (
            <Link to={`/runs/${result.run_id}`}>run #{result.run_id}</Link>
          ) : (
            <>imported fio output</>
          )}
        </dd>
      </div>
      <div>
        <dt>Measured</dt>
        <dd>{formatDateTime(result.measured_at)}</dd>
      </div>
      <div>
        <dt>Host</dt>
        <dd>{result.host_name}</dd>
      </div>
      <div>
        <dt>Target</dt>
        <dd>
          {result.target_id !== null ? (
            <Link to={`/history?target_id=${result.target_id}`}>target #{result.target_id}</Link>
          ) : (
            <span className="muted">not filed under a target</span>
          )}
        </dd>
      </div>
      <div>
        <dt>fio</dt>
        <dd>{result.fio_version ?? "—"}</dd>
      </div>
    </dl>
  );
}

function RawOutputLinks({ result }: { result: Result }) {
  return (
    <section aria-labelledby="result-raw-heading">
      <h2 id="result-raw-heading">Raw output</h2>
      <p className="row-actions">
        <a className="button button-small" href={rawOutputUrl(result.id)} download>
          Download fio&apos;s raw output
        </a>
        {hasJobFile(result) ? (
          <a className="button button-small" href={jobFileUrl(result.id)} download>
            Download the job file
          </a>
        ) : null}
      </p>
    </section>
  );
}

/** One result, measured or imported: the verdict first, then its figures, where it came from, its raw output. */
export function ResultPage({ resultId, renderFigures }: ResultPageProps) {
  const resultQuery = useResult(resultId);
  const verdictQuery = useResultVerdict(resultId);
  const result = resultQuery.data;
  if (!result) {
    return (
      <>
        <PageHeader title={`Result #${resultId}`} />
        {resultQuery.error ? (
          <ApiErrorAlert error={resultQuery.error} title="Could not load this result" />
        ) : (
          <p className="muted">Loading result…</p>
        )}
      </>
    );
  }
  return (
    <>
      <PageHeader title={`Result #${result.id}: ${result.job_name}`}>
        {result.imported ? <span className="badge badge-muted">imported</span> : null}
      </PageHeader>
      {verdictQuery.data ? <VerdictStrip verdict={verdictQuery.data} /> : null}
      {verdictQuery.error ? <ApiErrorAlert error={verdictQuery.error} title="Could not load the verdict" /> : null}
      {renderFigures(result)}
      <ResultFacts result={result} />
      <RawOutputLinks result={result} />
    </>
  );
}
