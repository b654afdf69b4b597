import { useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import { fieldErrors } from "../../../lib/api-client";
import { useAcceptInvitation } from "../api/accept-invitation";

const FIELDS = ["email", "password"] as const;

/** Join a team from an invitation link: a new account, or an existing one with its password. */
export function AcceptInvitationForm({ token, onJoined }: { token: string; onJoined: () => void }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const acceptMutation = useAcceptInvitation();
  const errors = fieldErrors(acceptMutation.error, FIELDS);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    acceptMutation.mutate({ token, email: email.trim(), password }, { onSuccess: onJoined });
  }

  return (
    <form className="form login-form" onSubmit={handleSubmit} aria-labelledby="invite-heading">
      <h1 id="invite-heading">Join a team on storbench</h1>
      <p className="muted small">
        You were invited to a team. New here? Choose your email and a password. Already have an account? Use its email
        and password.
      </p>
      {acceptMutation.error ? <ApiErrorAlert error={acceptMutation.error} inlineFields={FIELDS} /> : null}
      <FormField label="Email" errors={errors.email}>
        {(control) => (
          <input
            {...control}
            type="email"
            name="email"
            autoComplete="username"
            required
            autoFocus
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        )}
      </FormField>
      <FormField label="Password" errors={errors.password} hint="At least 10 characters.">
        {(control) => (
          <input
            {...control}
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={10}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </FormField>
      <button type="submit" className="button button-primary" disabled={acceptMutation.isPending}>
        Join team
      </button>
    </form>
  );
}
