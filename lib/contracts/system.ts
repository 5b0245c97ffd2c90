import { z } from "zod";
import { defineContract } from "./contract";

export const getOpenApiDocumentContract = defineContract({
  operationId: "getOpenApiDocument",
  method: "GET",
  path: "/v1/openapi.json",
  tag: "System",
  summary: "This OpenAPI 3.1 document",
  auth: "none",
  response: z.record(z.string(), z.unknown()).meta({ description: "An OpenAPI 3.1 document." }),
  errors: [],
});

export const getHealthContract = defineContract({
  operationId: "getHealth",
  method: "GET",
  path: "/healthz",
  tag: "System",
  summary: "Health check",
  description: "200 when the service and its database answer; 503 when the database does not.",
  auth: "none",
  response: z.object({ status: z.literal("ok"), database: z.literal("ok") }),
  errors: ["service_unavailable"],
});
