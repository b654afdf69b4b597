import { useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { CommandBlock } from "../../../components/ui/command-block";
import { FormField } from "../../../components/ui/form-field";
import { OneTimeSecret } from "../../../components/ui/one-time-secret";
import { fieldErrors } from "../../../lib/api-client";
import type { ApiTokenCreated, Role } from "../../../lib/api/types";
import { ROLE_HINTS, ROLES } from "../../../lib/roles";
import { useCreateToken } from "../api/create-token";

const FIELDS = ["name", "role", "expires_in_days"] as const;
const CLI_EXAMPLE = "storbench run --plan NAME --target NAME --wait";

/** The token just made, shown once, with how a pipeline uses it. */
function CreatedToken({ token, onDone }: { token: ApiTokenCreated; onDone: () => void }) {
  return (
    <OneTimeSecret
      title="Created token"
      label="API token"
      value={token.token}
      copyLabel="Copy token"
      intro={
        <>
          Token <strong>{token.name}</strong> ({token.role}) created.
        </>
      }
      onDone={onDone}
    >
      <p className="field-label">In the pipeline's environment (this server and the token):</p>
      <CommandBlock
        label="Environment"
        command={`export STORBENCH_URL=${window.location.origin} STORBENCH_TOKEN=${token.token}`}
        copyLabel="Copy export line"
      />
      <p className="field-label">Then, for example:</p>
      <CommandBlock label="Command-line example" command={CLI_EXAMPLE} copyLabel="Copy example" />
    </OneTimeSecret>
  );
}

/** Creates a token for scripts and pipelines, then shows it once with how to use it. */
export function NewTokenForm() {
  const [name, setName] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [days, setDays] = useState("90");
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const createMutation = useCreateToken();
  const errors = fieldErrors(createMutation.error, FIELDS);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    createMutation.mutate(
      { name: name.trim(), role, expires_in_days: days.trim() === "" ? null : Number(days) },
      {
        onSuccess: (token) => {
          setCreated(token);
          setName("");
        },
      },
    );
  }

  function done() {
    // Forget the secret everywhere this page kept it.
    setCreated(null);
    createMutation.reset();
  }

  return (
    <section className="panel" aria-labelledby="new-token-heading">
      <h2 id="new-token-heading">New API token</h2>
      {created ? (
        <CreatedToken token={created} onDone={done} />
      ) : (
        <form className="form" aria-labelledby="new-token-heading" onSubmit={handleSubmit}>
          {createMutation.error ? <ApiErrorAlert error={createMutation.error} inlineFields={FIELDS} /> : null}
          <FormField label="Token name" errors={errors.name} hint="What uses it, e.g. nightly regression pipeline.">
            {(control) => (
              <input {...control} required maxLength={120} value={name} onChange={(event) => setName(event.target.value)} />
            )}
          </FormField>
          <FormField label="Role" errors={errors.role} hint={ROLE_HINTS[role]}>
            {(control) => (
              <select {...control} value={role} onChange={(event) => setRole(event.target.value as Role)}>
                {ROLES.map((item) => (
                  <option key={item} value={item}>
                    {item}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField
            label="Expires in (days)"
            errors={errors.expires_in_days}
            hint="1 to 3650. Empty: the token never expires."
          >
            {(control) => (
              <input
                {...control}
                type="number"
                min={1}
                max={3650}
                value={days}
                onChange={(event) => setDays(event.target.value)}
              />
            )}
          </FormField>
          <button type="submit" className="button button-primary" disabled={createMutation.isPending}>
            Create token
          </button>
        </form>
      )}
    </section>
  );
}
