import { createConfig, lintFromString, type NormalizedProblem } from "@redocly/openapi-core";
import { expect, it } from "vitest";
import { contracts } from "@/lib/contracts";
import { buildOpenApiDocument } from "./openapi";

// Redocly's strict recommended rules (every problem an error), plus what a client generator and a reader need:
// descriptions everywhere, a contact, tags that are declared and described. Runs offline: no rule fetches anything.
const RULES = {
  "info-contact": "error",
  "info-license": "error",
  "operation-description": "error",
  "operation-operationId": "error",
  "operation-summary": "error",
  "operation-singular-tag": "error",
  "operation-tag-defined": "error",
  "parameter-description": "error",
  "tag-description": "error",
  "no-ambiguous-paths": "error",
  "no-server-trailing-slash": "off", // `/`: the document is served by the instance it describes
  "component-name-unique": "error",
} as const;

/**
 * The one overlap the API accepts: `/v1/webhook-endpoints/deliveries/{id}…` (a delivery) and
 * `/v1/webhook-endpoints/{id}/destinations…` or `…/{id}/rejections` (an endpoint's destinations, refused requests)
 * both match only for an endpoint whose id is `deliveries`, which no endpoint id is (`we_…`), and a literal segment is
 * matched before a template (OpenAPI 3.1, Paths Object; Next.js routes alike). Any other ambiguity still fails.
 */
const DELIVERY_PATH = "`\\/v1\\/webhook-endpoints\\/deliveries\\/\\{id\\}[^`]*`";
const ENDPOINT_PART_PATH = "`\\/v1\\/webhook-endpoints\\/\\{id\\}\\/(?:destinations|rejections)[^`]*`";
const ACCEPTED_AMBIGUITY = new RegExp(
  `^no-ambiguous-paths \\(error\\): .*(?:${DELIVERY_PATH} and ${ENDPOINT_PART_PATH}|${ENDPOINT_PART_PATH} and ${DELIVERY_PATH})`,
);

function describeProblem(problem: NormalizedProblem): string {
  return `${problem.ruleId} (${problem.severity}): ${problem.message} at ${problem.location[0]?.pointer ?? "?"}`;
}

it("passes Redocly's lint with no error or warning", async () => {
  const config = await createConfig({ extends: ["recommended-strict"], rules: RULES });
  const problems = await lintFromString({
    source: JSON.stringify(buildOpenApiDocument(contracts)),
    absoluteRef: "/v1/openapi.json",
    config,
  });
  expect(problems.map(describeProblem).filter((problem) => !ACCEPTED_AMBIGUITY.test(problem))).toEqual([]);
});
