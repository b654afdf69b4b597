import { useId } from "react";
import { FormField } from "../../../components/ui/form-field";
import type { HostOption, TargetOption } from "./run-choices";

interface MoreHostsFieldProps {
  target: TargetOption;
  /** Hosts that can join (online or busy), the target's own excluded. */
  hosts: HostOption[];
  /** Every host of the team, to say which carry a label. */
  allHosts: HostOption[];
  chosen: number[];
  onChosenChange: (ids: number[]) => void;
  label: string;
  onLabelChange: (label: string) => void;
  errors: { hostIds: string[]; hostLabel: string[] };
}

/** A synchronized run: more hosts that mount the target's path, by name or by label. */
export function MoreHostsField({ target, hosts, allHosts, chosen, onChosenChange, label, onLabelChange, errors }: MoreHostsFieldProps) {
  const id = useId();
  const labels = [...new Set(allHosts.flatMap((host) => host.labels))].sort();
  const wanted = label.trim();
  const labelled = wanted ? allHosts.filter((host) => host.labels.includes(wanted)) : [];
  const describedBy = [`${id}-how`, errors.hostIds.length ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="more-hosts">
      <fieldset aria-describedby={describedBy}>
        <legend>
          Also run on hosts <span className="field-optional">(optional)</span>
        </legend>
        <p id={`${id}-how`} className="field-hint">
          Every host starts fio at the same moment on <span className="mono">{target.path}</span>, so each must mount
          that path (a shared file system). The run then also reports what all hosts delivered together.
        </p>
        {hosts.length ? (
          <div className="host-choices">
            {hosts.map((host) => (
              <label key={host.id}>
                <input
                  type="checkbox"
                  name="host_ids"
                  value={host.id}
                  checked={chosen.includes(host.id)}
                  onChange={(event) =>
                    onChosenChange(event.target.checked ? [...chosen, host.id] : chosen.filter((other) => other !== host.id))
                  }
                />
                {host.name}
                {host.status === "busy" ? <span className="muted small"> (busy)</span> : null}
                {host.labels.length ? <span className="muted small"> · labels {host.labels.join(", ")}</span> : null}
              </label>
            ))}
          </div>
        ) : (
          <p className="muted small">No other host is online.</p>
        )}
        {errors.hostIds.length ? (
          <p id={`${id}-error`} className="field-error">
            {errors.hostIds.join("; ")}
          </p>
        ) : null}
      </fieldset>
      <FormField
        label="Or every host labelled"
        optional
        errors={errors.hostLabel}
        hint={
          wanted
            ? labelled.length
              ? `Adds ${labelled.map((host) => host.name).join(", ")}.`
              : "No host carries this label yet: the server will refuse it."
            : "Adds every host carrying this label (set labels on the Hosts page)."
        }
      >
        {(c) => (
          <>
            <input
              {...c}
              name="host_label"
              value={label}
              list={`${id}-labels`}
              autoComplete="off"
              onChange={(event) => onLabelChange(event.target.value)}
            />
            <datalist id={`${id}-labels`}>
              {labels.map((item) => (
                <option key={item} value={item} />
              ))}
            </datalist>
          </>
        )}
      </FormField>
    </div>
  );
}
