import { useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { CopyButton } from "../../../components/ui/copy-button";
import { FormField } from "../../../components/ui/form-field";
import { fieldErrors } from "../../../lib/api-client";
import type { HostCreated } from "../../../lib/api/types";
import { useCreateHost } from "../api/create-host";
import { useWorkerSetup, type WorkerSetup } from "../api/get-worker-setup";
import { startCommandFor } from "./add-host-guide";

/** Install, token file, start: the token goes in a file (on the command line every user of the host
 * could read it with ps); the server's own address comes from GET /worker/setup. */
function workerCommand(host: HostCreated, setup: WorkerSetup | undefined): string {
  const server = setup?.server_url ?? window.location.origin;
  const tokenFile = setup?.token_file ?? "/etc/storbench-token";
  return [
    ...(setup ? [setup.install_command] : []),
    `install -m 600 /dev/null ${tokenFile} && echo '${host.worker_token}' > ${tokenFile}`,
    setup
      ? startCommandFor(setup, host.name)
      : `storbench-worker --server ${server} --token-file ${tokenFile} --name ${host.name} --allow <DIRECTORY>`,
  ].join("\n");
}

/** Registers a host, then shows its one-time worker token and start command. */
export function AddHostForm() {
  const [name, setName] = useState("");
  const [created, setCreated] = useState<HostCreated | null>(null);
  const createMutation = useCreateHost();
  const setup = useWorkerSetup();
  const errors = fieldErrors(createMutation.error, ["name"]);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    createMutation.mutate(
      { name: name.trim() },
      {
        onSuccess: (host) => {
          setCreated(host);
          setName("");
        },
      },
    );
  }

  return (
    <section className="panel" aria-labelledby="add-host-heading">
      <h2 id="add-host-heading">Add host</h2>
      {created ? (
        <div className="token-panel" role="region" aria-label="Worker token">
          <p>
            Host <strong>{created.name}</strong> registered. Copy its worker token now:{" "}
            <strong>it is shown only once.</strong>
          </p>
          <FormField label="Worker token">
            {(control) => <input {...control} className="mono" readOnly value={created.worker_token} />}
          </FormField>
          <p className="field-label">
            On the host, as root: install the worker, put the token in a file, start it (replace &lt;DIRECTORY&gt;):
          </p>
          <pre className="code-block" aria-label="Worker start command">
            <code>{workerCommand(created, setup.data)}</code>
          </pre>
          <div className="button-row">
            <CopyButton text={workerCommand(created, setup.data)} label="Copy command" />
            <button type="button" className="button" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <form className="form form-inline" onSubmit={handleSubmit} aria-labelledby="add-host-heading">
          {createMutation.error ? <ApiErrorAlert error={createMutation.error} inlineFields={["name"]} /> : null}
          <FormField label="Host name" errors={errors.name} hint="As the worker will report it, e.g. nfs-client-01.">
            {(control) => (
              <input
                {...control}
                name="name"
                required
                maxLength={255}
                value={name}
                onChange={(event) => setName(event.target.value)}
              />
            )}
          </FormField>
          <button type="submit" className="button button-primary" disabled={createMutation.isPending}>
            Add host
          </button>
        </form>
      )}
    </section>
  );
}
