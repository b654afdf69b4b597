import { useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { CommandBlock } from "../../../components/ui/command-block";
import { FormField } from "../../../components/ui/form-field";
import { OneTimeSecret } from "../../../components/ui/one-time-secret";
import { fieldErrors } from "../../../lib/api-client";
import { type WebhookCreate, type WebhookCreated, useCreateWebhook } from "../api/create-webhook";

const FIELDS = ["url", "events", "format", "description"] as const;
type EventName = WebhookCreate["events"][number];

const EVENT_LABELS: Record<EventName, string> = {
  "change_point.regression": "Regression detected",
  "change_point.improvement": "Improvement detected",
  "schedule.firing_failed": "Scheduled run refused or missed",
  "schedule.run_failed": "Scheduled run failed",
};
type WebhookFormat = NonNullable<WebhookCreate["format"]>;
const FORMAT_LABELS: Record<WebhookFormat, string> = {
  storbench: "storbench JSON (signed)",
  slack: "Slack message",
  teams: "Microsoft Teams card",
};

const VERIFY = `expected = "sha256=" + hmac_sha256(secret, timestamp + "." + raw_body).hexdigest()
# compare with the X-Storbench-Signature header in constant time; refuse old X-Storbench-Timestamp values`;

/** The webhook just registered: its signing secret, shown once, and how a receiver checks it. */
function CreatedWebhook({ webhook, onDone }: { webhook: WebhookCreated; onDone: () => void }) {
  return (
    <OneTimeSecret
      title="Created webhook"
      label="Signing secret"
      value={webhook.secret}
      copyLabel="Copy secret"
      intro={
        <>
          Webhook for <strong>{webhook.url}</strong> registered.
        </>
      }
      onDone={onDone}
    >
      <p className="field-label">Your receiver checks each delivery with it:</p>
      <CommandBlock label="Signature check" command={VERIFY} copyLabel="Copy check" />
    </OneTimeSecret>
  );
}

/** The events a webhook is told of, each a checkbox with its wire name. */
function EventChoices({
  offered,
  chosen,
  onToggle,
  errors,
}: {
  offered: EventName[];
  chosen: EventName[];
  onToggle: (event: EventName) => void;
  errors?: string[];
}) {
  return (
    <fieldset className="field">
      <legend>Events</legend>
      {offered.map((name) => (
        <label key={name} className="checkbox">
          <input type="checkbox" checked={chosen.includes(name)} onChange={() => onToggle(name)} /> {EVENT_LABELS[name]}{" "}
          <code className="small">{name}</code>
        </label>
      ))}
      {errors?.length ? <p className="field-error">{errors.join("; ")}</p> : null}
    </fieldset>
  );
}

/** The shape of each delivery: storbench's signed JSON, or a Slack or Teams message. */
function FormatField({
  format,
  onChange,
  errors,
}: {
  format: WebhookFormat;
  onChange: (format: WebhookFormat) => void;
  errors?: string[];
}) {
  return (
    <FormField
      label="Message format"
      errors={errors}
      hint="Slack and Teams get the verdict in words with a link to the run, for a channel's incoming webhook."
    >
      {(control) => (
        <select {...control} value={format} onChange={(event) => onChange(event.target.value as WebhookFormat)}>
          {(Object.keys(FORMAT_LABELS) as WebhookFormat[]).map((key) => (
            <option key={key} value={key}>
              {FORMAT_LABELS[key]}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

/** Register a URL for the chosen events; the signing secret is shown once. */
export function NewWebhookForm({ events }: { events: string[] }) {
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [chosen, setChosen] = useState<EventName[]>(["change_point.regression"]);
  const [format, setFormat] = useState<WebhookFormat>("storbench");
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const createMutation = useCreateWebhook();
  const errors = fieldErrors(createMutation.error, FIELDS);
  const offered = events.filter((e): e is EventName => e in EVENT_LABELS);

  function toggle(event: EventName) {
    setChosen((current) => (current.includes(event) ? current.filter((e) => e !== event) : [...current, event]));
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    createMutation.mutate(
      { url: url.trim(), events: chosen, format, description: description.trim() === "" ? null : description.trim() },
      {
        onSuccess: (webhook) => {
          setCreated(webhook);
          setUrl("");
          setDescription("");
        },
      },
    );
  }

  function done() {
    setCreated(null);
    createMutation.reset();
  }

  return (
    <section className="panel" aria-labelledby="new-webhook-heading">
      <h2 id="new-webhook-heading">New webhook</h2>
      {created ? (
        <CreatedWebhook webhook={created} onDone={done} />
      ) : (
        <form className="form" aria-labelledby="new-webhook-heading" onSubmit={handleSubmit}>
          {createMutation.error ? <ApiErrorAlert error={createMutation.error} inlineFields={FIELDS} /> : null}
          <FormField
            label="URL"
            errors={errors.url}
            hint="A public https:// address. Loopback, private and link-local addresses are refused unless the operator allows them."
          >
            {(control) => (
              <input
                {...control}
                type="url"
                required
                maxLength={2000}
                value={url}
                onChange={(event) => setUrl(event.target.value)}
              />
            )}
          </FormField>
          <EventChoices offered={offered} chosen={chosen} onToggle={toggle} errors={errors.events} />
          <FormatField format={format} onChange={setFormat} errors={errors.format} />
          <FormField label="Description" optional errors={errors.description}>
            {(control) => (
              <input {...control} maxLength={200} value={description} onChange={(event) => setDescription(event.target.value)} />
            )}
          </FormField>
          <button type="submit" className="button button-primary" disabled={createMutation.isPending || chosen.length === 0}>
            Register webhook
          </button>
        </form>
      )}
    </section>
  );
}
