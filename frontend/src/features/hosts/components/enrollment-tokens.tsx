import { useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { CommandBlock } from "../../../components/ui/command-block";
import { FormField } from "../../../components/ui/form-field";
import { OneTimeSecret } from "../../../components/ui/one-time-secret";
import { QueryState } from "../../../components/ui/query-state";
import { StatusBadge } from "../../../components/ui/status-badge";
import { fieldErrors } from "../../../lib/api-client";
import type { EnrollmentToken, EnrollmentTokenCreated } from "../../../lib/api/types";
import { credentialStatus } from "../../../lib/credential-status";
import { formatDateTime, formatRelativeTime } from "../../../lib/format";
import { useNow } from "../../../lib/use-now";
import { useCreateEnrollmentToken } from "../api/create-enrollment-token";
import { useEnrollmentTokens } from "../api/list-enrollment-tokens";
import { useRevokeEnrollmentToken } from "../api/revoke-enrollment-token";

const FIELDS = ["name", "expires_in_hours", "uses"] as const;

/** Owners: tokens with which hosts enroll themselves, shown once, listed and revoked. */
export function EnrollmentTokens() {
  const tokens = useEnrollmentTokens();
  return (
    <section className="panel" aria-labelledby="enrollment-heading">
      <h2 id="enrollment-heading">Enrollment tokens</h2>
      <p className="small muted">
        A token enrolls as many hosts as its uses allow (one by default): each worker registers itself under
        the name you give it. A name already taken needs an owner's Replace on the host.
      </p>
      <NewEnrollmentToken />
      <QueryState isPending={tokens.isPending} error={tokens.error} label="enrollment tokens">
        <EnrollmentTokensTable tokens={tokens.data?.items ?? []} />
      </QueryState>
    </section>
  );
}

function NewEnrollmentToken() {
  const [name, setName] = useState("");
  const [hours, setHours] = useState("24");
  const [uses, setUses] = useState("1");
  const [created, setCreated] = useState<EnrollmentTokenCreated | null>(null);
  const createMutation = useCreateEnrollmentToken();
  const errors = fieldErrors(createMutation.error, FIELDS);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    createMutation.mutate(
      {
        name: name.trim() || undefined,
        expires_in_hours: Number(hours),
        uses: Number(uses),
      },
      {
        onSuccess: (token) => {
          setCreated(token);
          setName("");
          setUses("1");
        },
      },
    );
  }

  if (created) {
    return (
      <OneTimeSecret
        title="New enrollment token"
        label="Enrollment token"
        value={created.token}
        copyLabel="Copy token"
        intro={
          <>
            Valid until {formatDateTime(created.expires_at)}
            {created.uses_left === null ? ", for any number of hosts" : `, for ${created.uses_left} host(s)`}.
          </>
        }
        onDone={() => {
          setCreated(null);
          createMutation.reset();
        }}
      >
        <p className="field-label">
          On each new host, as root (replace &lt;DIRECTORY&gt; with the directory the worker may benchmark; the host
          takes the machine&apos;s name):
        </p>
        <CommandBlock label="Enrollment command" command={created.command} copyLabel="Copy command" />
      </OneTimeSecret>
    );
  }
  return (
    <form className="form" aria-label="New enrollment token" onSubmit={handleSubmit}>
      {createMutation.error ? <ApiErrorAlert error={createMutation.error} inlineFields={FIELDS} /> : null}
      <div className="form-grid">
        <FormField label="Token name" optional errors={errors.name}>
          {(control) => (
            <input {...control} maxLength={120} value={name} onChange={(event) => setName(event.target.value)} />
          )}
        </FormField>
        <FormField label="Expires in (hours)" errors={errors.expires_in_hours} hint="1 to 2160 (90 days).">
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              max={2160}
              required
              value={hours}
              onChange={(event) => setHours(event.target.value)}
            />
          )}
        </FormField>
        <FormField label="Uses" errors={errors.uses} hint="How many hosts may enroll with it (1 to 10000).">
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              max={10000}
              required
              value={uses}
              onChange={(event) => setUses(event.target.value)}
            />
          )}
        </FormField>
      </div>
      <button type="submit" className="button button-primary" disabled={createMutation.isPending}>
        Create enrollment token
      </button>
    </form>
  );
}

function EnrollmentTokensTable({ tokens }: { tokens: EnrollmentToken[] }) {
  const now = useNow(60_000);
  const revokeMutation = useRevokeEnrollmentToken();
  if (tokens.length === 0) return <p className="muted">No enrollment tokens yet.</p>;
  return (
    <>
      {revokeMutation.error ? <ApiErrorAlert error={revokeMutation.error} title="Could not revoke" /> : null}
      <table className="table">
        <caption className="sr-only">Enrollment tokens</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Uses left</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => {
            const status = credentialStatus(token, now);
            const name = token.name ?? `token #${token.id}`;
            return (
              <tr key={token.id}>
                <th scope="row">{name}</th>
                <td>
                  <time dateTime={token.created_at}>{formatDateTime(token.created_at)}</time>
                </td>
                <td>
                  <time dateTime={token.expires_at}>{formatDateTime(token.expires_at)}</time>
                </td>
                <td className="num">{token.uses_left ?? "any"}</td>
                <td>
                  {token.last_used_at ? (
                    <time dateTime={token.last_used_at} title={formatDateTime(token.last_used_at)}>
                      {formatRelativeTime(token.last_used_at, now)}
                    </time>
                  ) : (
                    <span className="muted">never</span>
                  )}
                </td>
                <td>
                  <StatusBadge status={status} />
                </td>
                <td>
                  {status === "active" ? (
                    <button
                      type="button"
                      className="button button-small"
                      aria-label={`Revoke enrollment token ${name}`}
                      disabled={revokeMutation.isPending}
                      onClick={() => revokeMutation.mutate(token.id)}
                    >
                      Revoke
                    </button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
