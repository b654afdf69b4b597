import { useState } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { ConfirmAction } from "../../../components/ui/confirm-action";
import { OneTimeSecret } from "../../../components/ui/one-time-secret";
import type { WebhookCreated } from "../api/create-webhook";
import { useDeleteWebhook } from "../api/delete-webhook";
import type { Webhook } from "../api/list-webhooks";
import { useRotateWebhookSecret } from "../api/rotate-webhook-secret";
import { useSendTestEvent } from "../api/send-test-event";
import { useUpdateWebhook } from "../api/update-webhook";
import { DeliveryBadge } from "./delivery-badge";
import { DeliveryLog } from "./delivery-log";

type Mutations = {
  test: ReturnType<typeof useSendTestEvent>;
  update: ReturnType<typeof useUpdateWebhook>;
  rotate: ReturnType<typeof useRotateWebhookSecret>;
  remove: ReturnType<typeof useDeleteWebhook>;
};

/** Each webhook with its events, a test event, pause/resume, a new secret, delete, and its delivery log. */
export function WebhooksList({ webhooks }: { webhooks: Webhook[] }) {
  const [open, setOpen] = useState<number | null>(null);
  // The answer of the latest rotation: its secret is shown once, under its webhook, until Done.
  const [rotated, setRotated] = useState<WebhookCreated | null>(null);
  const mutations: Mutations = {
    test: useSendTestEvent(),
    update: useUpdateWebhook(),
    rotate: useRotateWebhookSecret(),
    remove: useDeleteWebhook(),
  };
  const error = mutations.test.error ?? mutations.update.error ?? mutations.rotate.error ?? mutations.remove.error;
  return (
    <>
      {error ? <ApiErrorAlert error={error} title="Could not change the webhook" /> : null}
      <ul className="plain-list">
        {webhooks.map((webhook) => (
          <li key={webhook.id} className="panel" aria-label={`Webhook ${webhook.url}`}>
            <WebhookSummary webhook={webhook} />
            <WebhookActions
              webhook={webhook}
              mutations={mutations}
              logOpen={open === webhook.id}
              setLogOpen={(shown) => setOpen(shown ? webhook.id : null)}
              onRotated={setRotated}
            />
            {rotated?.id === webhook.id ? (
              <OneTimeSecret
                title="New signing secret"
                label="Signing secret"
                value={rotated.secret}
                copyLabel="Copy secret"
                intro={<>The old secret no longer signs deliveries.</>}
                onDone={() => setRotated(null)}
              />
            ) : null}
            {open === webhook.id ? <DeliveryLog webhookId={webhook.id} url={webhook.url} /> : null}
          </li>
        ))}
      </ul>
    </>
  );
}

function nameOf(webhook: Webhook): string {
  return webhook.description ? `${webhook.description} (${webhook.url})` : webhook.url;
}

/** The webhook's address, state, events and latest delivery. */
function WebhookSummary({ webhook }: { webhook: Webhook }) {
  return (
    <>
      <p>
        <strong className="mono">{webhook.url}</strong>{" "}
        {webhook.active ? null : <span className="badge badge-muted">paused</span>}
      </p>
      {webhook.description ? <p className="small">{webhook.description}</p> : null}
      <p className="small">
        Events: {webhook.events.join(", ")}
        {webhook.latest_delivery ? (
          <>
            {" "}
            · latest delivery <DeliveryBadge status={webhook.latest_delivery.status} />
            {webhook.latest_delivery.last_status_code !== null ? ` HTTP ${webhook.latest_delivery.last_status_code}` : ""}
          </>
        ) : null}
      </p>
    </>
  );
}

type ActionsProps = {
  webhook: Webhook;
  mutations: Mutations;
  logOpen: boolean;
  setLogOpen: (shown: boolean) => void;
  onRotated: (answer: WebhookCreated) => void;
};

/** Test event, delivery log, pause/resume, new secret and delete. */
function WebhookActions({ webhook, mutations, logOpen, setLogOpen, onRotated }: ActionsProps) {
  const name = nameOf(webhook);
  return (
    <div className="button-row">
      <button
        type="button"
        className="button button-small"
        aria-label={`Send a test event to ${name}`}
        disabled={mutations.test.isPending}
        onClick={() => {
          mutations.test.mutate(webhook.id);
          setLogOpen(true);
        }}
      >
        Send test event
      </button>
      <button
        type="button"
        className="button button-small"
        aria-expanded={logOpen}
        aria-label={`Delivery log of ${name}`}
        onClick={() => setLogOpen(!logOpen)}
      >
        Delivery log
      </button>
      <button
        type="button"
        className="button button-small"
        aria-label={`${webhook.active ? "Pause" : "Resume"} ${name}`}
        disabled={mutations.update.isPending}
        onClick={() => mutations.update.mutate({ id: webhook.id, body: { active: !webhook.active } })}
      >
        {webhook.active ? "Pause" : "Resume"}
      </button>
      <ConfirmAction
        label="New secret"
        name={`New signing secret for ${name}`}
        groupLabel={`Confirm a new signing secret for ${name}`}
        question={<>Replace the signing secret? Deliveries are signed with the new one from now on; update your receiver.</>}
        confirmLabel="Replace secret"
        disabled={mutations.rotate.isPending}
        onConfirm={() => mutations.rotate.mutate(webhook.id, { onSuccess: onRotated })}
      />
      <ConfirmAction
        label="Delete"
        name={`Delete ${name}`}
        groupLabel={`Confirm deleting ${name}`}
        question={<>Delete this webhook and its delivery log?</>}
        confirmLabel="Delete webhook"
        disabled={mutations.remove.isPending}
        onConfirm={() => mutations.remove.mutate(webhook.id)}
      />
    </div>
  );
}
