import { useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import { fieldErrors } from "../../../lib/api-client";
import { useChangePassword } from "../api/change-password";

const FIELDS = ["current_password", "new_password"] as const;

/** Current password, new password twice; the server ends the user's other browser sessions. */
export function ChangePasswordForm() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [repeat, setRepeat] = useState("");
  const changeMutation = useChangePassword();
  const errors = fieldErrors(changeMutation.error, FIELDS);
  const mismatch = repeat !== "" && repeat !== next;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mismatch) return;
    changeMutation.mutate(
      { current_password: current, new_password: next },
      {
        onSuccess: () => {
          setCurrent("");
          setNext("");
          setRepeat("");
        },
      },
    );
  }

  return (
    <section className="panel" aria-labelledby="password-heading">
      <h2 id="password-heading">Change password</h2>
      <form className="form" aria-labelledby="password-heading" onSubmit={handleSubmit}>
        {changeMutation.isSuccess ? (
          <p className="alert alert-ok" role="status">
            Password changed. Your other browser sessions were signed out; API tokens keep working.
          </p>
        ) : null}
        {changeMutation.error ? <ApiErrorAlert error={changeMutation.error} inlineFields={FIELDS} /> : null}
        <FormField label="Current password" errors={errors.current_password}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="current-password"
              required
              value={current}
              onChange={(event) => setCurrent(event.target.value)}
            />
          )}
        </FormField>
        <FormField label="New password" errors={errors.new_password} hint="At least 10 characters.">
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="new-password"
              required
              minLength={10}
              value={next}
              onChange={(event) => setNext(event.target.value)}
            />
          )}
        </FormField>
        <FormField label="Repeat new password" errors={mismatch ? ["does not match the new password"] : []}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="new-password"
              required
              value={repeat}
              onChange={(event) => setRepeat(event.target.value)}
            />
          )}
        </FormField>
        <button type="submit" className="button button-primary" disabled={changeMutation.isPending || mismatch}>
          Change password
        </button>
      </form>
    </section>
  );
}
