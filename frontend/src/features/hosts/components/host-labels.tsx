import { useId, useState, type FormEvent } from "react";
import { isApiError } from "../../../lib/api-client";
import type { Host } from "../../../lib/api/types";
import { useUpdateHost } from "../api/update-host";

const LABEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
const MAX_LABELS = 50;

/** Labels as typed: separated by commas or spaces, each once. */
export function parseLabels(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

/** What the server would refuse, said before sending. */
function labelProblems(labels: string[]): string[] {
  const problems = labels
    .filter((label) => !LABEL_PATTERN.test(label))
    .map((label) => `"${label}": use letters, digits and . _ : - (at most 64, starting with a letter or digit)`);
  if (labels.length > MAX_LABELS) problems.push(`At most ${MAX_LABELS} labels.`);
  return problems;
}

interface HostLabelsProps {
  host: Pick<Host, "id" | "name" | "labels">;
  canEdit: boolean;
}

/** A host's labels; members and owners change them in place (a run can name all hosts of a label). */
export function HostLabels({ host, canEdit }: HostLabelsProps) {
  const [editing, setEditing] = useState(false);
  const list = host.labels.length ? (
    <ul className="label-list" aria-label={`Labels of ${host.name}`}>
      {host.labels.map((label) => (
        <li key={label} className="tag">
          {label}
        </li>
      ))}
    </ul>
  ) : (
    <span className="muted">—</span>
  );
  if (editing) return <LabelsEditor host={host} onDone={() => setEditing(false)} />;
  return (
    <div className="label-editor">
      {list}
      {canEdit ? (
        <button
          type="button"
          className="button button-small"
          aria-label={`Edit labels of ${host.name}`}
          onClick={() => setEditing(true)}
        >
          Edit
        </button>
      ) : null}
    </div>
  );
}

function LabelsEditor({ host, onDone }: { host: HostLabelsProps["host"]; onDone: () => void }) {
  const [text, setText] = useState(host.labels.join(", "));
  const [problems, setProblems] = useState<string[]>([]);
  const updateMutation = useUpdateHost();
  const id = useId();
  const serverProblems = isApiError(updateMutation.error)
    ? [updateMutation.error.message, ...updateMutation.error.errors.map((detail) => detail.reason)].filter(
        (reason, index, all) => all.indexOf(reason) === index,
      )
    : updateMutation.error
      ? [String(updateMutation.error)]
      : [];
  const shown = problems.length ? problems : serverProblems;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const labels = parseLabels(text);
    const found = labelProblems(labels);
    setProblems(found);
    if (found.length) return;
    updateMutation.mutate({ id: host.id, changes: { labels } }, { onSuccess: onDone });
  }

  return (
    <form className="label-editor" onSubmit={handleSubmit}>
      <input
        name="labels"
        aria-label={`Labels of ${host.name}`}
        aria-describedby={`${id}-hint${shown.length ? ` ${id}-error` : ""}`}
        aria-invalid={shown.length ? true : undefined}
        value={text}
        placeholder="rack4, nfs-client"
        autoComplete="off"
        autoFocus
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") onDone();
        }}
      />
      <button type="submit" className="button button-small button-primary" disabled={updateMutation.isPending}>
        Save labels
      </button>
      <button type="button" className="button button-small" onClick={onDone}>
        Cancel
      </button>
      <p id={`${id}-hint`} className="field-hint">
        Separate labels with commas or spaces; empty removes them all.
      </p>
      {shown.length ? (
        <p id={`${id}-error`} className="field-error">
          {shown.join("; ")}
        </p>
      ) : null}
    </form>
  );
}
