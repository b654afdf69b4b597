import { useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import { fieldErrors } from "../../../lib/api-client";
import type { TargetCreate, TargetKind } from "../../../lib/api/types";
import { StorageClassFields, storageClassBody } from "./storage-class-fields";
import { useCreateTarget } from "../api/create-target";
import { KIND_LABELS } from "./targets-table";

export interface HostOption {
  id: number;
  name: string;
}

const FIELDS = ["name", "host_id", "path", "kind", "storage_class", "storage_class_id", "capacity_gib", "description"] as const;
const STORAGE_CLASS_SUGGESTIONS = ["nfs", "smb", "cephfs", "lustre", "efs", "fsx", "azure-files", "filestore", "local-nvme", "san"];

const EMPTY = { name: "", hostId: "", path: "", kind: "directory" as TargetKind, storageClass: "", classId: "", capacityGib: "", description: "" };

type TargetValues = typeof EMPTY;

/** The API body for the form's values: optional fields only when given. */
function targetCreateBody(values: TargetValues): TargetCreate {
  const body: TargetCreate = {
    name: values.name.trim(),
    host_id: Number(values.hostId),
    path: values.path.trim(),
    kind: values.kind,
  };
  const spec = storageClassBody(values);
  if (spec.storage_class_id !== null) body.storage_class_id = spec.storage_class_id;
  if (spec.capacity_gib !== null) body.capacity_gib = spec.capacity_gib;
  if (values.storageClass.trim()) body.storage_class = values.storageClass.trim();
  if (values.description.trim()) body.description = values.description.trim();
  return body;
}

/** A free label for the storage, with common ones suggested. */
function StorageLabelField({
  value,
  onChange,
  errors,
}: {
  value: string;
  onChange: (value: string) => void;
  errors: string[] | undefined;
}) {
  return (
    <FormField label="Storage label" optional errors={errors} hint="A free label; the class's name when left empty">
      {(control) => (
        <>
          <input
            {...control}
            name="storage_class"
            list="storage-class-suggestions"
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
          <datalist id="storage-class-suggestions">
            {STORAGE_CLASS_SUGGESTIONS.map((item) => (
              <option key={item} value={item} />
            ))}
          </datalist>
        </>
      )}
    </FormField>
  );
}

/** Registers a storage target: a directory (NAS/NFS/cloud mount) or a block device on a host. */
export function NewTargetForm({ hosts }: { hosts: HostOption[] }) {
  const [values, setValues] = useState(EMPTY);
  const createMutation = useCreateTarget();
  const errors = fieldErrors(createMutation.error, FIELDS);
  const set = (patch: Partial<TargetValues>) => setValues((current) => ({ ...current, ...patch }));

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    createMutation.mutate(targetCreateBody(values), { onSuccess: () => setValues(EMPTY) });
  }

  return (
    <section className="panel" aria-labelledby="new-target-heading">
      <h2 id="new-target-heading">New target</h2>
      <form className="form" onSubmit={handleSubmit} aria-labelledby="new-target-heading" noValidate={false}>
        {createMutation.error ? <ApiErrorAlert error={createMutation.error} inlineFields={FIELDS} /> : null}
        {createMutation.isSuccess ? (
          <p role="status" className="alert alert-ok">
            Target {createMutation.data.name} created.
            {createMutation.data.directory ? ` Its directory: ${createMutation.data.directory.message}.` : null}
          </p>
        ) : null}
        <div className="form-grid">
          <FormField label="Name" errors={errors.name}>
            {(control) => (
              <input {...control} name="name" required value={values.name} onChange={(e) => set({ name: e.target.value })} />
            )}
          </FormField>
          <FormField label="Host" errors={errors.host_id}>
            {(control) => (
              <select {...control} name="host_id" required value={values.hostId} onChange={(e) => set({ hostId: e.target.value })}>
                <option value="">Choose a host…</option>
                {hosts.map((host) => (
                  <option key={host.id} value={String(host.id)}>
                    {host.name}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField
            label="Path"
            errors={errors.path}
            hint={values.kind === "block_device" ? "e.g. /dev/nvme1n1 (data on it is destroyed by writes)" : "e.g. /mnt/nfs/bench"}
          >
            {(control) => (
              <input
                {...control}
                name="path"
                className="mono"
                required
                value={values.path}
                onChange={(e) => set({ path: e.target.value })}
              />
            )}
          </FormField>
          <FormField label="Kind" errors={errors.kind}>
            {(control) => (
              <select {...control} name="kind" value={values.kind} onChange={(e) => set({ kind: e.target.value as TargetKind })}>
                <option value="directory">{KIND_LABELS.directory}</option>
                <option value="block_device">{KIND_LABELS.block_device}</option>
              </select>
            )}
          </FormField>
          <StorageClassFields values={values} onChange={set} errors={errors} />
          <StorageLabelField value={values.storageClass} onChange={(storageClass) => set({ storageClass })} errors={errors.storage_class} />
          <FormField label="Description" optional errors={errors.description}>
            {(control) => (
              <input {...control} name="description" value={values.description} onChange={(e) => set({ description: e.target.value })} />
            )}
          </FormField>
        </div>
        <button type="submit" className="button button-primary" disabled={createMutation.isPending}>
          Create target
        </button>
      </form>
    </section>
  );
}
