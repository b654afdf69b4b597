import { useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import { OneTimeSecret } from "../../../components/ui/one-time-secret";
import { fieldErrors } from "../../../lib/api-client";
import type { InvitationCreated, Role } from "../../../lib/api/types";
import { formatDateTime } from "../../../lib/format";
import { ROLE_HINTS, ROLES } from "../../../lib/roles";
import { useCreateInvitation } from "../api/create-invitation";

const FIELDS = ["role", "email", "expires_in_hours"] as const;

/** The link to share: the server gives its path; people need the whole URL. */
export function invitationUrl(invitation: Pick<InvitationCreated, "link">): string {
  return `${window.location.origin}${invitation.link}`;
}

/** The invitation just made: its link, shown once to copy and send. */
function CreatedInvitation({ invitation, onDone }: { invitation: InvitationCreated; onDone: () => void }) {
  return (
    <OneTimeSecret
      title="Invitation link"
      label="Invitation link"
      value={invitationUrl(invitation)}
      copyLabel="Copy link"
      intro={
        <>
          Invitation for a <strong>{invitation.role}</strong>
          {invitation.email ? <> ({invitation.email} only)</> : null}, valid until {formatDateTime(invitation.expires_at)}.
          Send this link; it works once.
        </>
      }
      onDone={onDone}
    />
  );
}

/** Owners invite by link: a role, optionally one email address, and an expiry. */
export function InviteForm() {
  const [role, setRole] = useState<Role>("member");
  const [email, setEmail] = useState("");
  const [hours, setHours] = useState("72");
  const [created, setCreated] = useState<InvitationCreated | null>(null);
  const createMutation = useCreateInvitation();
  const errors = fieldErrors(createMutation.error, FIELDS);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    createMutation.mutate(
      { role, email: email.trim() || undefined, expires_in_hours: Number(hours) },
      {
        onSuccess: (invitation) => {
          setCreated(invitation);
          setEmail("");
        },
      },
    );
  }

  function done() {
    setCreated(null);
    createMutation.reset();
  }

  return (
    <section className="panel" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite someone</h2>
      {created ? (
        <CreatedInvitation invitation={created} onDone={done} />
      ) : (
        <form className="form" aria-labelledby="invite-heading" onSubmit={handleSubmit}>
          {createMutation.error ? <ApiErrorAlert error={createMutation.error} inlineFields={FIELDS} /> : null}
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
          <FormField label="Email" optional errors={errors.email} hint="Only this address can accept. Empty: anyone with the link.">
            {(control) => (
              <input
                {...control}
                type="email"
                maxLength={254}
                autoComplete="off"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
            )}
          </FormField>
          <FormField label="Expires in (hours)" errors={errors.expires_in_hours} hint="1 to 720 (30 days).">
            {(control) => (
              <input
                {...control}
                type="number"
                min={1}
                max={720}
                required
                value={hours}
                onChange={(event) => setHours(event.target.value)}
              />
            )}
          </FormField>
          <button type="submit" className="button button-primary" disabled={createMutation.isPending}>
            Create invitation
          </button>
        </form>
      )}
    </section>
  );
}
