import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import type { SpecFigure, StorageClass } from "../../../lib/api/types";
import { useDebounced } from "../../../lib/use-debounced";
import { useExpectedSpec } from "../api/get-expected-spec";
import { useStorageClasses } from "../api/list-storage-classes";

export const PROTOCOL_LABELS = { block: "Block", nfs: "NFS", smb: "SMB", cfs: "Cluster file system" } as const;

export interface StorageClassValues {
  /** The class's id as text, "" for none. */
  classId: string;
  /** Provisioned capacity in GiB as typed, "" for none. */
  capacityGib: string;
}

interface StorageClassFieldsProps {
  values: StorageClassValues;
  onChange: (patch: Partial<StorageClassValues>) => void;
  errors?: { storage_class_id?: string[]; capacity_gib?: string[] };
}

function number(value: string): number | null {
  const parsed = Number(value);
  return value.trim() !== "" && Number.isFinite(parsed) && parsed > 0 ? parsed : null;
}

/** What the form sends: storage_class_id and capacity_gib, null when left empty. */
export function storageClassBody(values: StorageClassValues): { storage_class_id: number | null; capacity_gib: number | null } {
  return { storage_class_id: number(values.classId), capacity_gib: number(values.capacityGib) };
}

function groupByProtocol(classes: StorageClass[]): [StorageClass["protocol"], StorageClass[]][] {
  const groups = new Map<StorageClass["protocol"], StorageClass[]>();
  for (const item of classes) groups.set(item.protocol, [...(groups.get(item.protocol) ?? []), item]);
  return [...groups.entries()];
}

function amount(value: number): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** Our MiB/s for a vendor's MB/s: 300 → "286". */
function mib(mbps: number): string {
  return amount(Math.round((mbps * 1e6) / 1024 ** 2));
}

/** "20,000 IOPS", "300 MB/s (286 MiB/s)", "0.5–2 ms" (the low end first when the spec gives a range). */
export function formatSpecFigure(figure: SpecFigure): string {
  const both = figure.unit === "MB/s";
  if (figure.low === null || figure.low === figure.expected) {
    const text = `${amount(figure.expected)} ${figure.unit}`;
    return both ? `${text} (${mib(figure.expected)} MiB/s)` : text;
  }
  const [from, to] = figure.low < figure.expected ? [figure.low, figure.expected] : [figure.expected, figure.low];
  const text = `${amount(from)}–${amount(to)} ${figure.unit}`;
  return both ? `${text} (${mib(from)}–${mib(to)} MiB/s)` : text;
}

function formulaText(figure: SpecFigure): string {
  return `${figure.metric}: ${figure.formula}${figure.low_formula ? ` (low: ${figure.low_formula})` : ""}`;
}

/** The catalogue picker and the provisioned capacity, with what the spec promises once both are set. */
export function StorageClassFields({ values, onChange, errors = {} }: StorageClassFieldsProps) {
  const classes = useStorageClasses();
  return (
    <>
      <FormField label="Storage class" optional errors={errors.storage_class_id}>
        {(control) => (
          <select {...control} name="storage_class_id" value={values.classId} onChange={(e) => onChange({ classId: e.target.value })}>
            <option value="">None</option>
            {groupByProtocol(classes.data?.items ?? []).map(([protocol, items]) => (
              <optgroup key={protocol} label={PROTOCOL_LABELS[protocol] ?? protocol}>
                {items.map((item) => (
                  <option key={item.id} value={String(item.id)}>
                    {item.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        )}
      </FormField>
      <FormField label="Provisioned capacity (GiB)" optional errors={errors.capacity_gib}>
        {(control) => (
          <input
            {...control}
            name="capacity_gib"
            type="number"
            min={1}
            step="any"
            inputMode="decimal"
            value={values.capacityGib}
            onChange={(e) => onChange({ capacityGib: e.target.value })}
          />
        )}
      </FormField>
      {classes.error ? <ApiErrorAlert error={classes.error} title="Could not load the storage classes" /> : null}
      <ExpectedSpecNote values={values} />
    </>
  );
}

function ExpectedSpecNote({ values }: { values: StorageClassValues }) {
  const capacity = useDebounced(values.capacityGib, 300);
  const { storage_class_id, capacity_gib } = storageClassBody({ classId: values.classId, capacityGib: capacity });
  const spec = useExpectedSpec({ classId: storage_class_id, capacityGib: capacity_gib });
  if (storage_class_id === null || capacity_gib === null) return null;
  if (spec.error) return <ApiErrorAlert error={spec.error} title="Could not work out the expected figures" />;
  if (!spec.data) return null;
  const headline = [spec.data.iops, spec.data.throughput, spec.data.latency].filter((figure) => figure !== null);
  return (
    <div className="field" role="status" aria-label="Expected figures">
      {headline.length ? (
        <p title={headline.map(formulaText).join("\n")}>
          <strong>Expected:</strong> {headline.map(formatSpecFigure).join(" · ")}
        </p>
      ) : (
        <p className="muted small">The spec gives no figures at this capacity.</p>
      )}
      {headline.length ? (
        <ul className="small muted">
          {headline.map((figure) => (
            <li key={figure.metric}>{formulaText(figure)}</li>
          ))}
        </ul>
      ) : null}
      {spec.data.warnings.map((warning) => (
        <p key={warning} className="note note-warn small">
          {warning}
        </p>
      ))}
    </div>
  );
}
