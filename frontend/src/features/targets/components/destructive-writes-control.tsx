import { useState } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import type { Target } from "../../../lib/api/types";
import { useUpdateTarget } from "../api/update-target";

/**
 * An owner's switch for writes to a block device. Allowing them asks once more (the device's
 * data is at stake); taking the permission back is immediate.
 */
export function DestructiveWritesControl({ target }: { target: Target }) {
  const [confirming, setConfirming] = useState(false);
  const updateMutation = useUpdateTarget();
  const confirmId = `destructive-confirm-${target.id}`;

  function setDestructive(destructive: boolean) {
    updateMutation.mutate({ id: target.id, changes: { destructive } }, { onSuccess: () => setConfirming(false) });
  }

  return (
    <div>
      <label className="nowrap">
        <input
          type="checkbox"
          // Stays unticked until the owner confirms: the box shows the target's real state.
          checked={target.destructive}
          disabled={updateMutation.isPending}
          aria-describedby={confirming ? confirmId : undefined}
          onChange={(event) => (event.target.checked ? setConfirming(true) : setDestructive(false))}
        />{" "}
        Allow destructive writes
      </label>
      {confirming && !target.destructive ? (
        <div className="confirm-box" role="group" aria-label={`Confirm destructive writes on ${target.name}`}>
          <p id={confirmId} className="small">
            Write runs on <span className="mono">{target.path}</span> will destroy all data on it. Each run still asks
            its starter to confirm.
          </p>
          <div className="button-row">
            <button
              type="button"
              className="button button-small button-danger"
              disabled={updateMutation.isPending}
              onClick={() => setDestructive(true)}
            >
              Allow writes
            </button>
            <button type="button" className="button button-small" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      {updateMutation.error ? <ApiErrorAlert error={updateMutation.error} title="Could not change" /> : null}
    </div>
  );
}
