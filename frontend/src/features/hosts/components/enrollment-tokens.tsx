import { useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { CommandBlock } from "../../../components/ui/command-block";
import { CredentialTable, DateTime, LastUsed } from "../../../components/ui/credential-table";
import { FormField } from "../../../components/ui/form-field";
import { OneTimeSecret } from "../../../components/ui/one-time-secret";
import { QueryState } from "../../../components/ui/query-state";
import { StatusBadge } from "../../../components/ui/status-badge";
import { fieldErrors } from "../../../lib/api-client";
import type { EnrollmentToken, EnrollmentTokenCreated } from "../../../lib/api/types";
import { credentialStatus } from "../../../lib/credential-status";
import { formatDateTime } from "../../../lib/format";
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

/** The new token, shown once, with the command that enrolls a host with it. */
function CreatedEnrollmentToken({ created, onDone }: { created: EnrollmentTokenCreated; onDone: () => void }) {
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
      onDone={onDone}
    >
      <p className="field-label">
        On each new host, as root (replace &lt;DIRECTORY&gt; with the directory the worker may benchmark; the host
        takes the machine&apos;s name):
      </p>
      <CommandBlock label="Enrollment command" command={created.command} copyLabel="Copy command" />
    </OneTimeSecret>
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
      <CreatedEnrollmentToken
        created={created}
        onDone={() => {
          setCreated(null);
          createMutation.reset();
        }}
      />
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

function tokenName(token: EnrollmentToken): string {
  return token.name ?? `token #${token.id}`;
}

function EnrollmentTokensTable({ tokens }: { tokens: EnrollmentToken[] }) {
  const revokeMutation = useRevokeEnrollmentToken();
  return (
    <CredentialTable
      caption="Enrollment tokens"
      empty="No enrollment tokens yet."
      items={tokens}
      name={tokenName}
      columns={[
        { header: "Created", cell: (token) => <DateTime iso={token.created_at} /> },
        { header: "Expires", cell: (token) => <DateTime iso={token.expires_at} /> },
        { header: "Uses left", cell: (token) => token.uses_left ?? "any", numeric: true },
        { header: "Last used", cell: (token, now) => <LastUsed iso={token.last_used_at} now={now} /> },
        { header: "Status", cell: (token, now) => <StatusBadge status={credentialStatus(token, now)} /> },
      ]}
      revocable={(token, now) => credentialStatus(token, now) === "active"}
      revoke={{
        name: (token) => `Revoke enrollment token ${tokenName(token)}`,
        pending: revokeMutation.isPending,
        error: revokeMutation.error,
        onRevoke: (token) => revokeMutation.mutate(token.id),
      }}
    />
  );
}
