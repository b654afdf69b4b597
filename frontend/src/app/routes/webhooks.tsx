import { PageHeader } from "../../components/ui/page-header";
import { QueryState } from "../../components/ui/query-state";
import { useRole } from "../../features/auth/api/get-session";
import { useWebhooks } from "../../features/webhooks/api/list-webhooks";
import { NewWebhookForm } from "../../features/webhooks/components/new-webhook-form";
import { WebhooksList } from "../../features/webhooks/components/webhooks-list";
import { isOwner } from "../../lib/roles";
import { usePageTitle } from "../../lib/use-page-title";

export function WebhooksRoute() {
  usePageTitle("Webhooks");
  const owner = isOwner(useRole());
  return (
    <>
      <PageHeader title="Webhooks" />
      {owner ? <WebhooksPage /> : <p className="muted">Only team owners can see and register webhooks.</p>}
    </>
  );
}

function WebhooksPage() {
  const webhooks = useWebhooks();
  const items = webhooks.data?.items ?? [];
  return (
    <div className="layout-main-side">
      <section aria-labelledby="webhook-list-heading">
        <h2 id="webhook-list-heading">Webhooks of this team</h2>
        <p className="small muted">
          Each event is POSTed as JSON, signed (<code>X-Storbench-Signature</code>), and retried with growing waits for
          about half an hour when the receiver fails.
        </p>
        <QueryState isPending={webhooks.isPending} error={webhooks.error} label="webhooks" isEmpty={items.length === 0}>
          <WebhooksList webhooks={items} />
        </QueryState>
      </section>
      <NewWebhookForm events={webhooks.data?.events ?? []} />
    </div>
  );
}
