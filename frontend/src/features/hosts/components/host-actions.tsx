import { useId, useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { ConfirmAction } from "../../../components/ui/confirm-action";
import { isApiError } from "../../../lib/api-client";
import type { Host } from "../../../lib/api/types";
import { useDeleteHost } from "../api/delete-host";
import { useRemoveHost } from "../api/remove-host";
import { useUpdateHost } from "../api/update-host";

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$/;

/** A host's name as the server would refuse it, said before sending. */
export function hostNameProblem(name: string): string | null {
  if (!name) return "Give a name.";
  if (!NAME_PATTERN.test(name)) return "Use letters, digits and . _ - (at most 120, starting with a letter or digit).";
  return null;
}

/** Members and owners rename; owners remove (history kept) or delete a host that never connected. */
export function HostActions({ host, canManage }: { host: Host; canManage: boolean }) {
  const [renaming, setRenaming] = useState(false);
  const remove = useRemoveHost();
  const deletion = useDeleteHost();
  if (renaming) return <RenameHost host={host} onDone={() => setRenaming(false)} />;
  const neverConnected = host.last_seen_at === null;
  return (
    <div className="button-row">
      {remove.error || deletion.error ? (
        <ApiErrorAlert error={remove.error ?? deletion.error} title={`Could not change ${host.name}`} />
      ) : null}
      <button
        type="button"
        className="button button-small"
        aria-label={`Rename ${host.name}`}
        onClick={() => setRenaming(true)}
      >
        Rename
      </button>
      {canManage ? (
        <ConfirmAction
          label="Remove"
          name={`Remove ${host.name}`}
          groupLabel={`Confirm removing ${host.name}`}
          question={
            <>
              Remove {host.name} from the team? Its token and broker access stop at once, its queued or running runs
              fail, and it leaves the lists. Its runs and results stay.
            </>
          }
          confirmLabel="Remove host"
          disabled={remove.isPending}
          onConfirm={() => remove.mutate(host.id)}
        />
      ) : null}
      {canManage && neverConnected ? (
        <ConfirmAction
          label="Delete"
          name={`Delete ${host.name}`}
          groupLabel={`Confirm deleting ${host.name}`}
          question={<>Delete {host.name}? Its worker never connected; its targets go with it.</>}
          confirmLabel="Delete host"
          disabled={deletion.isPending}
          onConfirm={() => deletion.mutate(host.id)}
        />
      ) : null}
    </div>
  );
}

function RenameHost({ host, onDone }: { host: Host; onDone: () => void }) {
  const [name, setName] = useState(host.name);
  const [problem, setProblem] = useState<string | null>(null);
  const update = useUpdateHost();
  const id = useId();
  const serverProblem = isApiError(update.error) ? update.error.message : update.error ? String(update.error) : null;
  const shown = problem ?? serverProblem;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    const found = hostNameProblem(trimmed);
    setProblem(found);
    if (found) return;
    if (trimmed === host.name) return onDone();
    update.mutate({ id: host.id, changes: { name: trimmed } }, { onSuccess: onDone });
  }

  return (
    <form className="label-editor" aria-label={`Rename ${host.name}`} onSubmit={handleSubmit}>
      <label htmlFor={`${id}-name`} className="sr-only">
        New name of {host.name}
      </label>
      <input
        id={`${id}-name`}
        name="name"
        value={name}
        maxLength={120}
        autoComplete="off"
        autoFocus
        aria-invalid={shown ? true : undefined}
        aria-describedby={shown ? `${id}-error` : `${id}-hint`}
        onChange={(event) => setName(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") onDone();
        }}
      />
      <button type="submit" className="button button-small button-primary" disabled={update.isPending}>
        Save name
      </button>
      <button type="button" className="button button-small" onClick={onDone}>
        Cancel
      </button>
      {shown ? (
        <p id={`${id}-error`} className="field-error">
          {shown}
        </p>
      ) : (
        <p id={`${id}-hint`} className="field-hint">
          Restart its worker with the new --name.
        </p>
      )}
    </form>
  );
}
