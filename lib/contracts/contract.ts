import { z } from "zod";
import type { ErrorCode } from "./errors";
import type { ApiKeyScope } from "./scopes";

/** The tags of the public API, in the order the OpenAPI document lists them. */
export const API_TAGS = [
  { name: "People email", description: "Find a person's work email address." },
  { name: "People enrich", description: "Profiles of people from an email address or a profile URL." },
  { name: "People mobile", description: "Phone numbers of people." },
  { name: "People search", description: "People at a company, by title, seniority and department." },
  { name: "Companies discover", description: "Companies like a given one, or matching filters." },
  { name: "Companies enrich", description: "Company profiles, domain emails and intelligence signals." },
  { name: "Companies search", description: "Companies by name or keywords." },
  { name: "Media", description: "Public details of online videos." },
  { name: "Webhooks", description: "Webhook endpoints, ingest, deliveries and acknowledgement." },
  { name: "Workspace", description: "The workspace an API key belongs to, its keys, usage and members." },
  { name: "Operator", description: "Running the server: every workspace, funds and sign-up invitations." },
  { name: "System", description: "Service description and health." },
] as const;

export type ApiTag = (typeof API_TAGS)[number]["name"];
export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

type ObjectSchema = z.ZodObject<z.ZodRawShape>;

/**
 * One API operation: everything the route handler, the typed client and the OpenAPI document need.
 * `path` uses OpenAPI's `{param}` form; the matching route file lives at the same path under `app/`.
 */
export interface Contract {
  operationId: string;
  method: HttpMethod;
  path: string;
  tag: ApiTag;
  summary: string;
  description?: string;
  /**
   * `next`: a route file under `app/` (the default). `launcher`: answered by server.ts before Next.js (ingest; its
   * route file serves it without the launcher, or with INGEST_FAST_PATH=false).
   */
  servedBy?: "next" | "launcher";
  /**
   * `apiKey`: `Authorization: Bearer <key>` is required. `workspace`: a key, or a member's dashboard session.
   * `none`: public.
   */
  auth: "apiKey" | "workspace" | "none";
  /**
   * Operations for people, not programs: `session` needs a dashboard session (API keys get 403), `owner` one of a
   * workspace owner, `operator` one of a server operator.
   */
  access?: "session" | "owner" | "operator";
  /** The scope an API key needs for this operation (lib/contracts/scopes.ts); sessions are governed by roles. */
  scope?: ApiKeyScope;
  params?: ObjectSchema;
  query?: ObjectSchema;
  /** Request headers the operation reads, with lower-case names; other headers are ignored. */
  headers?: ObjectSchema;
  body?: z.ZodType;
  /** The operation reads its body as raw bytes of any type (webhook ingest); the text describes it. */
  rawRequestBody?: string;
  /** Body of the success response. */
  response: z.ZodType;
  /** Media type of the success response when it is not JSON (raw bytes; "any type" for whatever a sender stored). */
  responseMediaType?: string;
  /** Headers the success response always carries, with what each says. */
  responseHeaders?: Record<string, string>;
  successStatus?: 200 | 201;
  /** `fastapi`: errors as `{ detail }` (validation: 422 with `loc`/`msg`/`type`), as the video endpoint keeps them. */
  errorFormat?: "standard" | "fastapi";
  /** Error codes this operation can answer with besides `internal`; documented in OpenAPI. */
  errors: readonly ErrorCode[];
}

export function defineContract<const C extends Contract>(contract: C): C {
  return contract;
}

type InputOf<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives after the wrapper has parsed the request. */
export interface ContractInput<C extends Contract> {
  params: InputOf<C["params"]>;
  query: InputOf<C["query"]>;
  headers: InputOf<C["headers"]>;
  body: InputOf<C["body"]>;
}

/** What a caller passes to the typed client. */
export type ClientInput<C extends Contract> = {
  [K in "params" | "query" | "headers" | "body" as C[K] extends z.ZodType ? K : never]: C[K] extends z.ZodType
    ? z.input<C[K]>
    : never;
};

export type ContractOutput<C extends Contract> = z.output<C["response"]>;

/** The success envelope of spec §2.1 around a `data` schema. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}
