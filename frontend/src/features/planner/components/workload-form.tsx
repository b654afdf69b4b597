import { useState, type Dispatch, type FormEvent, type SetStateAction } from "react";
import type { Demand, PlannerRequest } from "../api/plan-capacity";
import { WORKLOAD_PRESETS } from "./workload-presets";

interface DemandDraft {
  figure: Demand["figure"];
  value: string;
  rw: Demand["rw"];
  bs: string;
  latencyMs: string;
}

interface Draft {
  demands: DemandDraft[];
  protocol: string;
  maxHosts: string;
  budget: string;
  dataGib: string;
}

const EMPTY_DEMAND: DemandDraft = { figure: "iops", value: "", rw: "randread", bs: "8k", latencyMs: "" };
const RWS: Demand["rw"][] = ["randread", "randwrite", "read", "write"];

function draftOf(request: PlannerRequest): Draft {
  const constraints = request.constraints ?? {};
  return {
    demands: request.demands.map((d) => ({
      figure: d.figure,
      value: String(d.value),
      rw: d.rw,
      bs: String(d.bs ?? "4k"),
      latencyMs: d.latency_ms == null ? "" : String(d.latency_ms),
    })),
    protocol: constraints.protocol ?? "",
    maxHosts: constraints.max_hosts == null ? "" : String(constraints.max_hosts),
    budget: constraints.budget == null ? "" : String(constraints.budget),
    dataGib: constraints.data_gib == null ? "" : String(constraints.data_gib),
  };
}

function requestOf(draft: Draft): PlannerRequest {
  const number = (text: string) => (text.trim() === "" ? undefined : Number(text));
  return {
    demands: draft.demands.map((d) => {
      const latency = number(d.latencyMs);
      return {
        figure: d.figure,
        value: Number(d.value),
        rw: d.rw,
        bs: d.bs,
        ...(latency === undefined ? {} : { latency_percentile: 99, latency_ms: latency }),
      };
    }),
    constraints: {
      ...(draft.protocol ? { protocol: draft.protocol as NonNullable<PlannerRequest["constraints"]>["protocol"] } : {}),
      ...(number(draft.maxHosts) === undefined ? {} : { max_hosts: number(draft.maxHosts) }),
      ...(number(draft.budget) === undefined ? {} : { budget: number(draft.budget) }),
      ...(number(draft.dataGib) === undefined ? {} : { data_gib: number(draft.dataGib) }),
    },
  };
}

interface DemandFieldsProps {
  index: number;
  demand: DemandDraft;
  onChange: (change: Partial<DemandDraft>) => void;
  onRemove: (() => void) | undefined;
}

/** One demand: figure, value, kind of I/O, block size, p99 bound. */
function DemandFields({ index, demand, onChange, onRemove }: DemandFieldsProps) {
  const n = index + 1;
  return (
    <fieldset>
      <legend>Demand {n}</legend>
      <label>
        Figure {n}
        <select value={demand.figure} onChange={(e) => onChange({ figure: e.target.value as Demand["figure"] })}>
          <option value="iops">IOPS</option>
          <option value="mbps">MB/s</option>
        </select>
      </label>
      <label>
        Value {n}
        <input type="number" min="0" step="any" required value={demand.value} onChange={(e) => onChange({ value: e.target.value })} />
      </label>
      <label>
        I/O {n}
        <select value={demand.rw} onChange={(e) => onChange({ rw: e.target.value as Demand["rw"] })}>
          {RWS.map((rw) => (
            <option key={rw} value={rw}>
              {rw}
            </option>
          ))}
        </select>
      </label>
      <label>
        Block size {n}
        <input value={demand.bs} required onChange={(e) => onChange({ bs: e.target.value })} />
      </label>
      <label>
        p99 under ms {n}
        <input type="number" min="0" step="any" value={demand.latencyMs} onChange={(e) => onChange({ latencyMs: e.target.value })} />
      </label>
      {onRemove ? (
        <button type="button" onClick={onRemove}>
          Remove demand {n}
        </button>
      ) : null}
    </fieldset>
  );
}

/** Protocol, most hosts, budget and data size. */
function ConstraintFields({ draft, setDraft }: { draft: Draft; setDraft: Dispatch<SetStateAction<Draft>> }) {
  return (
        <fieldset>
          <legend>Constraints</legend>
          <label>
            Protocol
            <select value={draft.protocol} onChange={(e) => setDraft((d) => ({ ...d, protocol: e.target.value }))}>
              <option value="">any</option>
              <option value="block">block</option>
              <option value="nfs">nfs</option>
              <option value="smb">smb</option>
              <option value="cfs">cfs</option>
            </select>
          </label>
          <label>
            Most hosts
            <input type="number" min="1" value={draft.maxHosts} onChange={(e) => setDraft((d) => ({ ...d, maxHosts: e.target.value }))} />
          </label>
          <label>
            Budget per month
            <input type="number" min="0" step="any" value={draft.budget} onChange={(e) => setDraft((d) => ({ ...d, budget: e.target.value }))} />
          </label>
          <label>
            Data GiB
            <input type="number" min="0" step="any" value={draft.dataGib} onChange={(e) => setDraft((d) => ({ ...d, dataGib: e.target.value }))} />
          </label>
        </fieldset>
  );
}

/** The workload as demands (figure, I/O, block size, p99 bound) and constraints, with presets. */
export function WorkloadForm({ onSubmit, busy }: { onSubmit: (request: PlannerRequest) => void; busy: boolean }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(WORKLOAD_PRESETS[0]!.request));
  const setDemand = (index: number, change: Partial<DemandDraft>) =>
    setDraft((d) => ({ ...d, demands: d.demands.map((x, i) => (i === index ? { ...x, ...change } : x)) }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(requestOf(draft));
  };
  return (
    <form aria-label="Workload" onSubmit={submit} className="stack">
      <div className="field">
        <label htmlFor="planner-preset">Start from</label>
        <select
          id="planner-preset"
          defaultValue="OLTP database"
          onChange={(e) => {
            const preset = WORKLOAD_PRESETS.find((p) => p.name === e.target.value);
            if (preset) setDraft(draftOf(preset.request));
          }}
        >
          {WORKLOAD_PRESETS.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}: {p.description}
            </option>
          ))}
        </select>
      </div>
      {draft.demands.map((demand, index) => (
        <DemandFields
          key={index}
          index={index}
          demand={demand}
          onChange={(change) => setDemand(index, change)}
          onRemove={
            draft.demands.length > 1
              ? () => setDraft((d) => ({ ...d, demands: d.demands.filter((_, i) => i !== index) }))
              : undefined
          }
        />
      ))}
      <button type="button" onClick={() => setDraft((d) => ({ ...d, demands: [...d.demands, { ...EMPTY_DEMAND }] }))}>
        Add demand
      </button>
      <ConstraintFields draft={draft} setDraft={setDraft} />
      <button type="submit" className="primary" disabled={busy}>
        Size the classes
      </button>
    </form>
  );
}
