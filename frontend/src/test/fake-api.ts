// A small fake of the storbench API at the network boundary: tests stub global fetch with it and
// answer per "METHOD /path". Each answer is typed by the generated OpenAPI types of its route
// ("GET /api/v1/runs/7" answers what GET /api/v1/runs/{run_id} declares), so a test can neither fake a
// route the API does not have nor a field it does not send (tsc fails).
// Server-Sent Events streams (EventSource) are faked too: the test opens them and sends events.

import { act } from "@testing-library/react";
import { vi } from "vitest";
import type { paths } from "../lib/api/schema";
import type { ApiErrorBody, RunProgressEvent, RunStatusEvent } from "../lib/api/types";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Split<S extends string> = S extends `${infer Head}/${infer Tail}` ? [Head, ...Split<Tail>] : [S];
type SegmentsMatch<Template extends string[], Concrete extends string[]> = Template extends [
  infer T extends string,
  ...infer TemplateRest extends string[],
]
  ? Concrete extends [infer C extends string, ...infer ConcreteRest extends string[]]
    ? (T extends `{${string}}` ? true : T extends C ? true : false) extends true
      ? SegmentsMatch<TemplateRest, ConcreteRest>
      : false
    : false
  : Concrete extends []
    ? true
    : false;
/** The schema's path template of a concrete path: "/api/v1/runs/7" → "/api/v1/runs/{run_id}". */
type TemplateOf<Path extends string> = {
  [T in keyof paths & string]: SegmentsMatch<Split<T>, Split<Path>> extends true ? T : never;
}[keyof paths & string];
/** The schema's operation of a route "METHOD /path" (never when the API has no such route). */
type OperationOf<Route extends string> = Route extends `${infer M extends Method} ${infer Path}`
  ? TemplateOf<Path> extends infer T extends keyof paths
    ? Lowercase<M> extends keyof paths[T]
      ? NonNullable<paths[T][Lowercase<M>]>
      : never
    : never
  : never;
type JsonBody<R> = R extends { content: { "application/json": infer B } } ? B : never;
type SuccessStatus = 200 | 201 | 202 | 204;
type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 422 | 429 | 500 | 502 | 503;
/** What the operation answers when it succeeds, as its schema declares it. */
type SuccessAnswer<Operation> = Operation extends { responses: infer Responses }
  ? {
      [S in keyof Responses & SuccessStatus]: S extends 204
        ? { status: 204; body?: never }
        : { status?: S; body: JsonBody<Responses[S]> };
    }[keyof Responses & SuccessStatus]
  : never;
/** An error answer, in the API's one error shape. */
type ErrorAnswer = { status: ErrorStatus; body?: ApiErrorBody };

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** Whether the browser would send cookies ("same-origin" for every API call). */
  credentials: RequestCredentials | undefined;
  /** Parsed JSON, the raw text, or the FormData of a multipart upload. */
  body: unknown;
  rawBody: string | undefined;
}

/** An answer of route "METHOD /path": its success body as the schema declares it, or an error. */
export type FakeResponse<Route extends string = string> = [OperationOf<Route>] extends [never]
  ? never
  : SuccessAnswer<OperationOf<Route>> | ErrorAnswer;

export type FakeHandler<Route extends string = string> =
  | FakeResponse<Route>
  | ((request: FakeRequest) => FakeResponse<Route>);

/** Every status a fake may answer: keeps `status: 201` a literal while the routes are inferred. */
type StatusHint = { status?: SuccessStatus | ErrorStatus };

/** Handlers by route, each typed by its own route. */
export type FakeRoutes<Routes extends string> = { [Route in Routes]: FakeHandler<Route> } & {
  [Route in Routes]: StatusHint | ((request: FakeRequest) => StatusHint);
};

/** Typed routes to spread into installFakeApi from a helper (keeps literal statuses). */
export function fakeRoutes<Routes extends string>(routes: FakeRoutes<Routes>): FakeRoutes<Routes> {
  return routes;
}

interface AnyAnswer {
  status?: number;
  body?: unknown;
}
type AnyHandler = AnyAnswer | ((request: FakeRequest) => AnyAnswer);

export interface FakeApi {
  calls: FakeRequest[];
  /** Replace or add handlers while a test runs. */
  on: <Route extends string>(route: Route, handler: FakeHandler<Route>) => void;
  callsTo: (route: string) => FakeRequest[];
  /** The event streams the app opened to a path ("/api/v1/runs/7/events"), oldest first. */
  streamsTo: (path: string) => FakeEventSource[];
}

/** The events of GET /runs/{id}/events, by name: their data as the schema declares them. */
interface StreamEvents {
  status: RunStatusEvent;
  progress: RunProgressEvent;
}

/**
 * EventSource as the app sees it; the test plays the server: open(), emit(name, data), fail().
 * Events sent after the app closed the stream are dropped, as a closed connection would.
 */
export class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSED = 2;
  readonly url: string;
  readonly withCredentials: boolean;
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(url: string | URL, init?: EventSourceInit) {
    super();
    this.url = new URL(String(url), "http://storbench.test").href;
    this.withCredentials = init?.withCredentials ?? false;
  }

  get path(): string {
    return new URL(this.url).pathname;
  }

  get closed(): boolean {
    return this.readyState === FakeEventSource.CLOSED;
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** The server answered 200 text/event-stream. */
  open(): void {
    if (this.closed) return;
    act(() => {
      this.readyState = FakeEventSource.OPEN;
      this.deliver(new Event("open"));
    });
  }

  /** One event: `event: <name>` with `data: <JSON of data>`, data typed as the schema declares it. */
  emit<Name extends keyof StreamEvents>(name: Name, data: StreamEvents[Name]): void {
    if (this.closed) return;
    act(() => {
      this.deliver(new MessageEvent(name, { data: JSON.stringify(data) }));
    });
  }

  /** The connection dropped: the browser would reconnect by itself. */
  fail(): void {
    if (this.closed) return;
    act(() => {
      this.readyState = FakeEventSource.CONNECTING;
      this.deliver(new Event("error"));
    });
  }

  private deliver(event: Event): void {
    this.dispatchEvent(event);
    if (event.type === "open") this.onopen?.(event);
    if (event.type === "error") this.onerror?.(event);
    if (event.type === "message") this.onmessage?.(event as MessageEvent);
  }
}

export function installFakeApi<Routes extends string>(routes: FakeRoutes<Routes>): FakeApi {
  const handlers = new Map<string, AnyHandler>(Object.entries<AnyHandler>(routes));
  const calls: FakeRequest[] = [];

  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), "http://storbench.test");
    const method = (init.method ?? "GET").toUpperCase();
    const rawBody = typeof init.body === "string" ? init.body : undefined;
    const headers = { ...(init.headers as Record<string, string> | undefined) };
    let body: unknown = rawBody;
    if (rawBody && headers["Content-Type"] === "application/json") body = JSON.parse(rawBody);
    // Uploads: the test reads the fields and files the app put in the form.
    if (init.body instanceof FormData) body = init.body;
    const request: FakeRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers,
      credentials: init.credentials,
      body,
      rawBody,
    };
    calls.push(request);

    const handler = handlers.get(`${method} ${url.pathname}`);
    const answer: AnyAnswer = !handler
      ? { status: 404, body: { code: "not_found", message: `No fake for ${method} ${url.pathname}` } }
      : typeof handler === "function"
        ? handler(request)
        : handler;
    const status = answer.status ?? 200;
    return new Response(status === 204 ? null : JSON.stringify(answer.body ?? {}), {
      status,
      headers: { "Content-Type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", fetchStub);

  const streams: FakeEventSource[] = [];
  vi.stubGlobal(
    "EventSource",
    class extends FakeEventSource {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        streams.push(this);
      }
    },
  );

  return {
    calls,
    on: (route, handler) => handlers.set(route, handler as AnyHandler),
    callsTo: (route) => calls.filter((call) => `${call.method} ${call.path}` === route),
    streamsTo: (path) => streams.filter((stream) => stream.path === path),
  };
}

/** Answers each call with the next response of a sequence, repeating the last one. */
export function sequence<Answer>(...responses: Answer[]): (request: FakeRequest) => Answer {
  let index = 0;
  return () => {
    const response = responses[Math.min(index, responses.length - 1)]!;
    index += 1;
    return response;
  };
}
