import { buildOpenApiDocument } from "@/lib/api/openapi";
import { route } from "@/lib/api/route";
import { contracts } from "@/lib/contracts";
import { getOpenApiDocumentContract } from "@/lib/contracts/system";

const document = buildOpenApiDocument(contracts);

// GET /v1/openapi.json — the generated OpenAPI 3.1 document (public).
export const GET = route(getOpenApiDocumentContract, async () => document);
