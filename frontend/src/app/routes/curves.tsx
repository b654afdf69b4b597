import { useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import { FormField } from "../../components/ui/form-field";
import { PageHeader } from "../../components/ui/page-header";
import { QueryState } from "../../components/ui/query-state";
import { useCurves } from "../../features/curves/api/get-curves";
import { CurveCharts } from "../../features/curves/components/curve-charts";
import { usePageTitle } from "../../lib/use-page-title";
import { AXES, DIRECTIONS, curvesParamsOf } from "./curves-params";

/** Sweeps drawn along their axis, overlaid, with their knees (the selection lives in the address). */
export function CurvesRoute() {
  usePageTitle("Curves");
  const [params, setParams] = useSearchParams();
  const asked = curvesParamsOf(params);
  const curves = useCurves(asked);
  const bandwidth = useCurves(asked ? { ...asked, figure: "bw_bytes" } : null);
  return (
    <>
      <PageHeader title="Curves" />
      <p className="muted">IOPS, bandwidth and latency along a swept option; the knee is the last point before the extra load only waits.</p>
      <CurvesPicker params={params} onChange={setParams} />
      {asked ? (
        <QueryState isPending={curves.isPending} error={curves.error} label="curves" isEmpty={(curves.data?.curves.length ?? 0) === 0}>
          {curves.data ? <CurveCharts curves={curves.data} throughput={bandwidth.data} /> : null}
        </QueryState>
      ) : (
        <p className="muted">Give the runs of one or more sweeps (e.g. 12, 15) to draw and overlay their curves.</p>
      )}
    </>
  );
}

function CurvesPicker({ params, onChange }: { params: URLSearchParams; onChange: (next: URLSearchParams) => void }) {
  const [runIds, setRunIds] = useState(params.get("run_ids") ?? "");
  const [axis, setAxis] = useState(params.get("axis") ?? "iodepth");
  const [direction, setDirection] = useState(params.get("direction") ?? "");
  const [bound, setBound] = useState(params.get("p99_ms") ?? "");
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = new URLSearchParams({ run_ids: runIds.replace(/\s+/g, ""), axis });
    if (direction) next.set("direction", direction);
    if (bound) next.set("p99_ms", bound);
    onChange(next);
  }
  return (
    <form className="form form-inline panel" onSubmit={submit} aria-label="Curves to draw">
      <FormField label="Sweep runs" hint="run ids separated by commas; several overlay">
        {(c) => <input {...c} name="run_ids" value={runIds} onChange={(e) => setRunIds(e.target.value)} placeholder="12, 15" />}
      </FormField>
      <FormField label="Axis">
        {(c) => (
          <select {...c} name="axis" value={axis} onChange={(e) => setAxis(e.target.value)}>
            {AXES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField label="Direction" optional>
        {(c) => (
          <select {...c} name="direction" value={direction} onChange={(e) => setDirection(e.target.value)}>
            <option value="">as measured</option>
            {DIRECTIONS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField label="p99 bound (ms)" optional>
        {(c) => <input {...c} name="p99_ms" type="number" min={0} step="any" value={bound} onChange={(e) => setBound(e.target.value)} />}
      </FormField>
      <button type="submit" className="button button-primary">
        Draw
      </button>
    </form>
  );
}
