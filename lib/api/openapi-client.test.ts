import { readFile } from "node:fs/promises";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { contracts } from "@/lib/contracts";
import { GENERATED_TYPES_FILE, generateClientTypes } from "@/test/openapi-client/generate-types";
import { buildOpenApiDocument } from "./openapi";

const CLIENT_FILE = path.resolve(import.meta.dirname, "../../test/openapi-client/client.ts");

// What users do with the document: generate types with openapi-typescript and call the API through openapi-fetch.
describe("a client generated from the OpenAPI document", () => {
  it("uses types generated from the current document (npm run openapi:types)", async () => {
    const generated = await generateClientTypes(buildOpenApiDocument(contracts));
    expect(await readFile(GENERATED_TYPES_FILE, "utf8"), "stale: run `npm run openapi:types`").toBe(generated);
  }, 30_000); // openapi-typescript over the whole document: past 5 s on a shared machine

  it("compiles under tsc --strict: a JSON ingest body, `unacknowledged: true`, an API key's fields", () => {
    const program = ts.createProgram([CLIENT_FILE], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      types: [],
      skipLibCheck: true,
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    expect(errors).toEqual([]);
  }, 60_000); // a whole TypeScript program, on a shared machine
});
