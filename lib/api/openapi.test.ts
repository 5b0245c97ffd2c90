import { readdir } from "node:fs/promises";
import path from "node:path";
import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { API_TAGS } from "@/lib/contracts/contract";
import { contracts } from "@/lib/contracts";
import { matchIngestPath } from "@/lib/api/ingest-http";
import { buildOpenApiDocument } from "./openapi";

const ROOT = path.resolve(import.meta.dirname, "../..");
const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** Every `route.ts` under `folder`, as its URL path in OpenAPI form (`[id]` → `{id}`). Catch-alls are skipped. */
async function routeFiles(folder: string): Promise<{ file: string; path: string }[]> {
  const entries = await readdir(path.join(ROOT, folder), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name === "route.ts")
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.includes("[..."))
    .map((file) => ({
      file,
      path: `/${path.dirname(file).replace(/^app\/?/, "")}`.replace(/\[(\w+)\]/g, "{$1}"),
    }));
}

describe("the OpenAPI document", () => {
  const document = buildOpenApiDocument(contracts);

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("1.0.0");
  });

  it("declares the bearer scheme and the spec's tags", () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.components.securitySchemes.apiKeyHeader).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "Authorization",
    });
    const tags = document.tags.map((tag) => tag.name);
    for (const tag of [
      "People email",
      "People enrich",
      "People mobile",
      "People search",
      "Companies discover",
      "Companies enrich",
      "Companies search",
      "Media",
      "Webhooks",
    ]) {
      expect(tags).toContain(tag);
    }
  });

  it("documents 401 and the key on every authenticated operation, and no key on public ones", () => {
    for (const contract of contracts) {
      const operation = (
        document.paths[contract.path] as Record<string, { responses: Record<string, unknown>; security: unknown[] }>
      )[contract.method.toLowerCase()];
      if (contract.auth !== "none")
        expect(Object.keys(operation?.responses ?? {}), contract.operationId).toContain("401");
      expect(operation?.security.length ? "key" : "none", contract.operationId).toBe(
        contract.auth === "none" ? "none" : "key",
      );
    }
  });

  it("documents 429 on every rate-limited operation (authenticated ones and ingest) and on no other", () => {
    for (const contract of contracts) {
      const operation = (document.paths[contract.path] as Record<string, { responses: Record<string, unknown> }>)[
        contract.method.toLowerCase()
      ];
      const limited = contract.auth !== "none" || contract.operationId === "ingestDelivery";
      expect(Object.keys(operation?.responses ?? {}).includes("429"), contract.operationId).toBe(limited);
    }
  });

  type Operation = {
    parameters: { name: string; schema: unknown }[];
    requestBody?: { content: Record<string, unknown> };
    responses: Record<string, { headers?: Record<string, unknown> }>;
  };
  const operationOf = (path: string, method: string) =>
    (document.paths[path] as Record<string, Operation>)[method.toLowerCase()]!;

  it("declares what the layers around a handler answer: 405 with Allow, 408, 431, and 413/415 for JSON", () => {
    for (const contract of contracts) {
      const { responses } = operationOf(contract.path, contract.method);
      expect(responses["405"]?.headers, contract.operationId).toHaveProperty("Allow");
      expect(Object.keys(responses), contract.operationId).toEqual(expect.arrayContaining(["408", "431"]));
      if (contract.body)
        expect(Object.keys(responses), contract.operationId).toEqual(expect.arrayContaining(["413", "415"]));
    }
  });

  it("types query booleans as booleans and takes an ingest body as JSON, or as any bytes", () => {
    const listing = operationOf("/v1/webhook-endpoints/deliveries", "GET");
    const unacknowledged = listing.parameters.find((parameter) => parameter.name === "unacknowledged");
    expect(unacknowledged?.schema).toMatchObject({ type: "boolean" });
    const ingest = operationOf("/webhooks/ingest/{hookId}", "POST");
    expect(Object.keys(ingest.requestBody?.content ?? {})).toEqual(["application/json", "*/*"]);
  });

  it("has unique operation ids and only known tags", () => {
    const ids = contracts.map((contract) => contract.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const known: string[] = API_TAGS.map((tag) => tag.name);
    for (const contract of contracts) expect(known).toContain(contract.tag);
  });
});

describe("routes and contracts", () => {
  it("every contract has a route file exporting its method (ingest too: it serves without the launcher)", async () => {
    for (const contract of contracts) {
      const file = path.join(ROOT, "app", contract.path.replace(/\{(\w+)\}/g, "[$1]"), "route.ts");
      const routeModule = (await import(file)) as Record<string, unknown>;
      expect(
        typeof routeModule[contract.method],
        `${contract.method} ${contract.path} in ${path.relative(ROOT, file)}`,
      ).toBe("function");
    }
  });

  it("the launcher answers the operations it serves", () => {
    const served = contracts.filter((contract) => contract.servedBy === "launcher");
    expect(served.map((contract) => contract.operationId)).toEqual(["ingestDelivery"]);
    for (const contract of served)
      expect(matchIngestPath(contract.path.replace("{hookId}", "we_x"))).toEqual({ hookId: "we_x", query: "" });
  });

  it("every handler exported under app/v1 has a contract", async () => {
    const files = await routeFiles("app/v1");
    expect(files.length).toBeGreaterThan(0);
    for (const { file, path: routePath } of files) {
      const routeModule = (await import(path.join(ROOT, file))) as Record<string, unknown>;
      const methods = Object.keys(routeModule).filter((name) => HTTP_METHODS.includes(name));
      expect(methods.length, file).toBeGreaterThan(0);
      for (const method of methods) {
        expect(
          contracts.some((contract) => contract.path === routePath && contract.method === method),
          `${method} ${routePath} (${file}) has no contract in lib/contracts`,
        ).toBe(true);
      }
    }
  });
});
