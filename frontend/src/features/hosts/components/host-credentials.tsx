import { useState } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { CommandBlock } from "../../../components/ui/command-block";
import { Dialog } from "../../../components/ui/dialog";
import { OneTimeSecret } from "../../../components/ui/one-time-secret";
import type { EnrollmentTokenCreated, Host, HostCredential } from "../../../lib/api/types";
import { useCreateEnrollmentToken } from "../api/create-enrollment-token";
import { useRevokeHost } from "../api/revoke-host";
import { useRotateHostCredential } from "../api/rotate-host-credential";

type Asking = "rotate" | "revoke" | null;

const ROTATE_QUESTION = (name: string) => `Give ${name} a new token? The current one stops working at once.`;
const REVOKE_QUESTION = (name: string) =>
  `Revoke ${name}? Its token and broker access stop at once and its queued or running runs fail. Its results stay.`;

/**
 * Owners: give a host a new token, revoke it, or replace a revoked or lost one. The question and the
 * one-time token open in a dialog: they need more room than the table's Actions cell.
 */
export function HostCredentials({ host }: { host: Host }) {
  const [asking, setAsking] = useState<Asking>(null);
  const [credential, setCredential] = useState<HostCredential | null>(null);
  const [replacement, setReplacement] = useState<EnrollmentTokenCreated | null>(null);
  const rotate = useRotateHostCredential();
  const revoke = useRevokeHost();
  const replace = useCreateEnrollmentToken();
  const error = rotate.error ?? revoke.error ?? replace.error;

  const dialog = credential ? (
    <Dialog title={`New token for ${host.name}`} onClose={() => setCredential(null)}>
      <NewWorkerToken host={host} credential={credential} onDone={() => setCredential(null)} />
    </Dialog>
  ) : replacement ? (
    <Dialog title={`Replacement token for ${host.name}`} onClose={() => setReplacement(null)}>
      <ReplacementToken host={host} replacement={replacement} onDone={() => setReplacement(null)} />
    </Dialog>
  ) : asking !== null ? (
    <Dialog title={asking === "rotate" ? `Rotate the token of ${host.name}` : `Revoke ${host.name}`} onClose={() => setAsking(null)}>
      <ConfirmCredentialChange
        host={host}
        asking={asking}
        pending={rotate.isPending || revoke.isPending}
        onConfirm={() => {
          const done = () => setAsking(null);
          if (asking === "rotate") rotate.mutate(host.id, { onSuccess: setCredential, onSettled: done });
          else revoke.mutate(host.id, { onSettled: done });
        }}
        onKeep={() => setAsking(null)}
      />
    </Dialog>
  ) : null;
  return (
    <div className="button-row">
      {dialog}
      {error ? <ApiErrorAlert error={error} title="Could not change the host's credential" /> : null}
      {host.revoked_reason ? (
        <p className="small" role="note" aria-label={`Why ${host.name} was revoked`}>
          {host.revoked_reason}
        </p>
      ) : null}
      {host.status === "revoked" ? null : (
        <>
          <button
            type="button"
            className="button button-small"
            aria-label={`Rotate the token of ${host.name}`}
            onClick={() => setAsking("rotate")}
          >
            Rotate token
          </button>
          <button
            type="button"
            className="button button-small"
            aria-label={`Revoke ${host.name}`}
            onClick={() => setAsking("revoke")}
          >
            Revoke
          </button>
        </>
      )}
      {host.status === "offline" || host.status === "revoked" ? (
        <button
          type="button"
          className="button button-small"
          aria-label={`Replace ${host.name}`}
          disabled={replace.isPending}
          onClick={() =>
            replace.mutate(
              { name: `replace ${host.name}`, expires_in_hours: 24, uses: 1, replaces_host_id: host.id },
              { onSuccess: setReplacement },
            )
          }
        >
          Replace
        </button>
      ) : null}
    </div>
  );
}

type ConfirmProps = {
  host: Host;
  asking: "rotate" | "revoke";
  pending: boolean;
  onConfirm: () => void;
  onKeep: () => void;
};

/** Ask before rotating a host's token or revoking it. */
function ConfirmCredentialChange({ host, asking, pending, onConfirm, onKeep }: ConfirmProps) {
  const question = asking === "rotate" ? ROTATE_QUESTION(host.name) : REVOKE_QUESTION(host.name);
  return (
    <div role="group" aria-label={`Confirm for ${host.name}`} className="confirm-box">
      <p className="small">{question}</p>
      <div className="button-row">
        <button type="button" className="button button-small button-danger" disabled={pending} onClick={onConfirm}>
          {asking === "rotate" ? "Rotate token" : "Revoke host"}
        </button>
        <button type="button" className="button button-small" onClick={onKeep}>
          Keep
        </button>
      </div>
    </div>
  );
}

/** A rotated host's new worker token, shown once, with where to put it. */
function NewWorkerToken({ host, credential, onDone }: { host: Host; credential: HostCredential; onDone: () => void }) {
  return (
    <OneTimeSecret
      title={`New token for ${host.name}`}
      label={`Worker token of ${host.name}`}
      value={credential.worker_token}
      copyLabel="Copy token"
      intro={<>The old token no longer works; a run in progress keeps its result on the host until the worker restarts.</>}
      onDone={onDone}
    >
      <p className="field-label">On {host.name}, put it in the worker's token file and restart the worker:</p>
      <CommandBlock
        label={`Token file command for ${host.name}`}
        command={`install -m 600 /dev/null /etc/storbench-token && echo '${credential.worker_token}' > /etc/storbench-token`}
        copyLabel="Copy command"
      />
    </OneTimeSecret>
  );
}

/** A one-use enrollment token that re-enrolls a revoked or lost host under its name. */
function ReplacementToken(props: { host: Host; replacement: EnrollmentTokenCreated; onDone: () => void }) {
  const { host, replacement } = props;
  return (
    <OneTimeSecret
      title={`Replacement token for ${host.name}`}
      label={`Enrollment token replacing ${host.name}`}
      value={replacement.token}
      copyLabel="Copy token"
      intro={<>It re-enrolls {host.name} once (same name and history, a new credential), and nothing else.</>}
      onDone={props.onDone}
    >
      <CommandBlock label={`Enrollment command for ${host.name}`} command={replacement.command} copyLabel="Copy command" />
    </OneTimeSecret>
  );
}
