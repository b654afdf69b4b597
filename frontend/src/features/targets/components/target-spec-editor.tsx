import { useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { fieldErrors } from "../../../lib/api-client";
import type { Target } from "../../../lib/api/types";
import {
  StorageClassFields,
  storageClassBody,
  type StorageClassValues,
} from "./storage-class-fields";
import { useUpdateTarget } from "../api/update-target";

const FIELDS = ["storage_class_id", "capacity_gib"] as const;

function initialValues(target: Target): StorageClassValues {
  return {
    classId: target.storage_class_id === null ? "" : String(target.storage_class_id),
    capacityGib: target.capacity_gib === null ? "" : String(target.capacity_gib),
  };
}

/** Changes a target's storage class and provisioned capacity (PATCH /targets/{id}). */
export function TargetSpecEditor({ target }: { target: Target }) {
  const [values, setValues] = useState<StorageClassValues | null>(null);
  const updateMutation = useUpdateTarget();
  const errors = fieldErrors(updateMutation.error, FIELDS);

  if (values === null) {
    return (
      <button
        type="button"
        className="button button-small"
        aria-label={`Edit class of ${target.name}`}
        onClick={() => {
          updateMutation.reset();
          setValues(initialValues(target));
        }}
      >
        Edit
      </button>
    );
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (values === null) return;
    updateMutation.mutate({ id: target.id, changes: storageClassBody(values) }, { onSuccess: () => setValues(null) });
  }

  return (
    <form className="form" aria-label={`Storage class of ${target.name}`} onSubmit={handleSubmit}>
      {updateMutation.error ? <ApiErrorAlert error={updateMutation.error} inlineFields={FIELDS} title="Could not change" /> : null}
      <StorageClassFields values={values} onChange={(patch) => setValues({ ...values, ...patch })} errors={errors} />
      <div className="button-row">
        <button type="submit" className="button button-small button-primary" disabled={updateMutation.isPending}>
          Save
        </button>
        <button type="button" className="button button-small" onClick={() => setValues(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
