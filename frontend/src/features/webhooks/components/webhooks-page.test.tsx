import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Schema } from "../../../lib/api/types";
import { installFakeApi } from "../../../test/fake-api";
import { shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

const SLOW = { timeout: 8000 };
const EVENTS = ["change_point.regression", "change_point.improvement", "schedule.firing_failed"];

function makeWebhook(overrides: Partial<Schema<"WebhookOut">> = {}): Schema<"WebhookOut"> {
  return {
    id: 3,
    url: "https://hooks.example.com/storbench",
    description: "ops channel",
    events: ["change_point.regression"],
    active: true,
    format: "storbench",
    created_at: "2026-11-20T10:00:00Z",
    updated_at: "2026-11-20T10:00:00Z",
    latest_delivery: null,
    ...overrides,
  };
}

function makeDelivery(overrides: Partial<Schema<"DeliveryOut">> = {}): Schema<"DeliveryOut"> {
  return {
    id: 21,
    delivery_uid: "0b6f3c1e-54a7-4c55-9d0e-2f1d8a7c9b10",
    event: "change_point.regression",
    status: "pending",
    attempts: 2,
    max_attempts: 6,
    next_attempt_at: "2026-11-23T10:04:00Z",
    last_attempt_at: "2026-11-23T10:02:00Z",
    last_status_code: 500,
    last_error: "answered 500",
    response_excerpt: "Internal Server Error",
    delivered_at: null,
    created_at: "2026-11-23T10:00:00Z",
    payload: {},
    ...overrides,
  };
}

describe("Webhooks page", () => {
  it("registers a webhook and shows its signing secret once", async () => {
    const created = makeWebhook({ id: 4, url: "https://hooks.example.com/new", description: null, events: ["change_point.regression", "change_point.improvement"] });
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/webhooks": { body: { items: [], total: 0, events: EVENTS } },
      "POST /api/v1/webhooks": { status: 201, body: { ...created, secret: "whsec_t0ps3cret" } },
    });
    const { user } = renderApp("/settings/webhooks");

    const form = await screen.findByRole("form", { name: "New webhook" }, SLOW);
    await waitFor(() => expect(document.title).toBe("Webhooks · storbench"));
    await user.type(within(form).getByLabelText("URL"), "https://hooks.example.com/new");
    await user.click(await within(form).findByRole("checkbox", { name: /Improvement detected/ }, SLOW));
    api.on("GET /api/v1/webhooks", { body: { items: [created], total: 1, events: EVENTS } });
    await user.selectOptions(within(form).getByLabelText("Message format"), "Slack message");
    await user.click(within(form).getByRole("button", { name: "Register webhook" }));

    const panel = await screen.findByRole("region", { name: "Created webhook" }, SLOW);
    expect(within(panel).getByLabelText("Signing secret")).toHaveValue("whsec_t0ps3cret");
    expect(api.callsTo("POST /api/v1/webhooks")[0]?.body).toEqual({
      url: "https://hooks.example.com/new",
      events: ["change_point.regression", "change_point.improvement"],
      format: "slack",
      description: null,
    });
    await screen.findByRole("listitem", { name: "Webhook https://hooks.example.com/new" }, SLOW);
    await user.click(within(panel).getByRole("button", { name: "Done" }));
    expect(screen.queryByDisplayValue("whsec_t0ps3cret")).not.toBeInTheDocument();
  }, 30_000);

  it("shows why a URL is refused at the URL field", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/webhooks": { body: { items: [], total: 0, events: EVENTS } },
      "POST /api/v1/webhooks": {
        status: 422,
        body: {
          code: "invalid",
          message: "this URL cannot receive webhooks",
          errors: [{ field: "url", value: "http://169.254.169.254/", reason: "169.254.169.254 is a link-local address" }],
        },
      },
    });
    const { user } = renderApp("/settings/webhooks");
    const form = await screen.findByRole("form", { name: "New webhook" }, SLOW);
    await user.type(within(form).getByLabelText("URL"), "http://169.254.169.254/");
    await user.click(within(form).getByRole("button", { name: "Register webhook" }));
    expect(await within(form).findByText(/is a link-local address/, {}, SLOW)).toBeInTheDocument();
    expect(within(form).getByLabelText("URL")).toHaveAttribute("aria-invalid", "true");
  }, 30_000);

  it("sends a test event and shows the delivery log with attempts and the last answer", async () => {
    const webhook = makeWebhook();
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/webhooks": { body: { items: [webhook], total: 1, events: EVENTS } },
      "POST /api/v1/webhooks/3/test": { status: 202, body: makeDelivery({ id: 22, event: "ping", attempts: 0 }) },
      "GET /api/v1/webhooks/3/deliveries": {
        body: {
          items: [
            makeDelivery(),
            makeDelivery({ id: 20, status: "failed", attempts: 6, last_status_code: null, last_error: "no answer within 5 s", next_attempt_at: null }),
            makeDelivery({ id: 19, status: "delivered", attempts: 1, last_status_code: 200, last_error: null, response_excerpt: "ok", delivered_at: "2026-11-22T10:00:01Z", next_attempt_at: null }),
          ],
          total: 3,
        },
      },
      "POST /api/v1/webhooks/3/deliveries/20/retry": { status: 202, body: makeDelivery({ id: 20, attempts: 0 }) },
    });
    const { user } = renderApp("/settings/webhooks");

    const item = await screen.findByRole("listitem", { name: "Webhook https://hooks.example.com/storbench" }, SLOW);
    await user.click(within(item).getByRole("button", { name: /Send a test event to/ }));
    await waitFor(() => expect(api.callsTo("POST /api/v1/webhooks/3/test")).toHaveLength(1), SLOW);

    const log = await within(item).findByRole("table", { name: "Deliveries to https://hooks.example.com/storbench" }, SLOW);
    expect(within(log).getByRole("row", { name: /pending 2 of 6 HTTP 500 answered 500/ })).toBeInTheDocument();
    expect(within(log).getByRole("row", { name: /failed 6 of 6 no answer within 5 s/ })).toBeInTheDocument();
    expect(within(log).getByRole("row", { name: /delivered 1 of 6 HTTP 200/ })).toBeInTheDocument();
    await user.click(within(log).getByRole("button", { name: "Send delivery 20 again" }));
    await waitFor(() => expect(api.callsTo("POST /api/v1/webhooks/3/deliveries/20/retry")).toHaveLength(1), SLOW);
  }, 30_000);

  it("replaces a webhook's secret after a confirmation and shows the new one once", async () => {
    const webhook = makeWebhook();
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/webhooks": { body: { items: [webhook], total: 1, events: EVENTS } },
      "POST /api/v1/webhooks/3/rotate-secret": { body: { ...webhook, secret: "whsec_n3wsecret" } },
    });
    const { user } = renderApp("/settings/webhooks");

    const item = await screen.findByRole("listitem", { name: "Webhook https://hooks.example.com/storbench" }, SLOW);
    await user.click(within(item).getByRole("button", { name: /New signing secret for/ }));
    expect(api.callsTo("POST /api/v1/webhooks/3/rotate-secret")).toHaveLength(0);
    const confirm = within(item).getByRole("group", { name: /Confirm a new signing secret/ });
    await user.click(within(confirm).getByRole("button", { name: "Replace secret" }));

    const panel = await within(item).findByRole("region", { name: "New signing secret" }, SLOW);
    expect(within(panel).getByLabelText("Signing secret")).toHaveValue("whsec_n3wsecret");
    expect(api.callsTo("POST /api/v1/webhooks/3/rotate-secret")).toHaveLength(1);
    await user.click(within(panel).getByRole("button", { name: "Done" }));
    expect(screen.queryByDisplayValue("whsec_n3wsecret")).not.toBeInTheDocument();
  }, 30_000);

  it("asks for every page of a long list of webhooks", async () => {
    const webhooks = [1, 2, 3].map((id) => makeWebhook({ id, url: `https://hooks.example.com/${id}` }));
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/webhooks": (request) => {
        // Pages of two, whatever was asked: the SPA must follow `total`.
        const offset = Number(request.query.get("offset") ?? 0);
        return { body: { items: webhooks.slice(offset, offset + 2), total: 3, events: EVENTS } };
      },
    });
    renderApp("/settings/webhooks");

    await screen.findByRole("listitem", { name: "Webhook https://hooks.example.com/3" }, SLOW);
    expect(screen.getAllByRole("listitem", { name: /^Webhook / })).toHaveLength(3);
    expect(api.callsTo("GET /api/v1/webhooks").map((call) => call.query.get("offset"))).toEqual(["0", "2"]);
  }, 30_000);

  it("is for owners only", async () => {
    const api = installFakeApi({ ...shellRoutes({ role: "member" }) });
    renderApp("/settings/webhooks");
    expect(await screen.findByText(/Only team owners can see and register webhooks/, {}, SLOW)).toBeInTheDocument();
    expect(api.callsTo("GET /api/v1/webhooks")).toHaveLength(0);
    expect(screen.queryByRole("link", { name: "Webhooks" })).not.toBeInTheDocument();
  }, 30_000);
});
