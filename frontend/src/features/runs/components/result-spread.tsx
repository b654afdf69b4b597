import { NumCell, NumHeader } from "../../../components/ui/num-cell";
import type { Result } from "../../../lib/api/types";
import { formatBandwidth, formatIops, formatNs } from "../../../lib/format";
import { activeDirections, meanSource } from "../../../lib/latency";

/** How steady a result was: fio's own per-second spread of IOPS and bandwidth, and of latency. */
export function ResultSpread({ result, title }: { result: Result; title: string }) {
  const rows = activeDirections(result);
  const sampled = rows.some(([, d]) => d.iops_spread || d.bw_spread);
  if (!sampled && rows.every(([, d]) => !meanSource(d))) return null;
  return (
    <div className="table-scroll">
      <table className="table table-compact result-table">
        <caption className="small">
          Spread over the run{sampled ? " (fio's samples, about one a second)" : ""}: {title}
        </caption>
        <thead>
          <tr>
            <th scope="col">Direction</th>
            <NumHeader>IOPS min</NumHeader>
            <NumHeader>IOPS max</NumHeader>
            <NumHeader>IOPS stddev</NumHeader>
            <NumHeader>Bandwidth min</NumHeader>
            <NumHeader>Bandwidth max</NumHeader>
            <NumHeader>Latency min</NumHeader>
            <NumHeader>Latency max</NumHeader>
            <NumHeader>Latency stddev</NumHeader>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, direction]) => {
            const iops = direction.iops_spread;
            const bw = direction.bw_spread;
            const lat = meanSource(direction);
            return (
              <tr key={name}>
                <th scope="row">{name}</th>
                <NumCell>{formatIops(iops?.min)}</NumCell>
                <NumCell>{formatIops(iops?.max)}</NumCell>
                <NumCell>{formatIops(iops?.stddev)}</NumCell>
                <NumCell>{formatBandwidth(bw?.min)}</NumCell>
                <NumCell>{formatBandwidth(bw?.max)}</NumCell>
                <NumCell>{formatNs(lat?.min_ns)}</NumCell>
                <NumCell>{formatNs(lat?.max_ns)}</NumCell>
                <NumCell>{formatNs(lat?.stddev_ns)}</NumCell>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
