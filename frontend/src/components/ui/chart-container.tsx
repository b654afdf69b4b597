import { lazy, Suspense, useId, type ReactNode } from "react";
import type { ChartSpec } from "./chart-config";

// Recharts is the heaviest dependency: load it only when a chart is on screen.
const ChartCanvas = lazy(() => import("./chart-canvas"));

interface ChartContainerProps extends Omit<ChartSpec, "height"> {
  /** Accessible name and visible caption of the chart. */
  title: string;
  description?: ReactNode;
  height?: number;
}

/** The one wrapper every chart goes through: a captioned figure around a Recharts chart. */
export function ChartContainer({ title, description, height = 260, ...spec }: ChartContainerProps) {
  const captionId = useId();
  return (
    <figure className="chart" aria-labelledby={captionId}>
      <figcaption id={captionId} className="chart-title">
        {title}
      </figcaption>
      {description ? <div className="chart-description">{description}</div> : null}
      <div className="chart-body" style={{ height }}>
        {spec.data.length === 0 ? (
          <p className="muted">No data to plot.</p>
        ) : (
          <Suspense fallback={<p className="muted">Loading chart…</p>}>
            <ChartCanvas {...spec} height={height} />
          </Suspense>
        )}
      </div>
    </figure>
  );
}
