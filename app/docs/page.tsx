import type { Metadata } from "next";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { contracts } from "@/lib/contracts";
import { DescriptionText, OperationCard, type OperationView } from "./operation-card";

export const metadata: Metadata = { title: "API reference" };

type Paths = Record<string, Record<string, Omit<OperationView, "method" | "path">>>;

export default function DocsPage() {
  const document = buildOpenApiDocument(contracts);
  const operations: OperationView[] = Object.entries(document.paths as Paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ ...operation, method, path })),
  );
  return (
    <main className="page">
      <h1>API reference</h1>
      <p className="muted">
        {document.info.title} {document.info.version}. <DescriptionText text={document.info.description} /> The
        machine-readable form is at <a href="/v1/openapi.json">/v1/openapi.json</a>.
      </p>
      <p className="muted">
        Errors share one body: <code>{`{ "success": false, "error": { "code", "message", "details" } }`}</code>.
      </p>
      {document.tags.map((tag) => {
        const tagged = operations.filter((operation) => operation.tags.includes(tag.name));
        return (
          <section key={tag.name} aria-labelledby={`tag-${tag.name}`}>
            <h2 id={`tag-${tag.name}`}>{tag.name}</h2>
            <p className="muted">{tag.description}</p>
            {tagged.length === 0 ? <p className="muted">No operations yet.</p> : null}
            {tagged.map((operation) => (
              <OperationCard key={operation.operationId} operation={operation} />
            ))}
          </section>
        );
      })}
    </main>
  );
}
