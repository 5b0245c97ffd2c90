import { writeFile } from "node:fs/promises";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { contracts } from "@/lib/contracts";
import { GENERATED_TYPES_FILE, generateClientTypes } from "./generate-types";

// npm run openapi:types — regenerates the client types after a contract changed (lib/api/openapi-client.test.ts
// fails while they are stale).
await writeFile(GENERATED_TYPES_FILE, await generateClientTypes(buildOpenApiDocument(contracts)));
console.info(`Wrote ${GENERATED_TYPES_FILE}`);
