export interface OperationView {
  method: string;
  path: string;
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security: unknown[];
  parameters: { name: string; in: string; required: boolean; description?: string; schema: unknown }[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>;
}

/** Renders the `backtick` spans of OpenAPI descriptions as code. */
export function DescriptionText({ text }: { text: string }) {
  return <>{text.split("`").map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part))}</>;
}

function SchemaBlock({ label, schema }: { label: string; schema: unknown }) {
  return (
    <details>
      <summary>{label}</summary>
      <pre>
        <code>{JSON.stringify(schema, null, 2)}</code>
      </pre>
    </details>
  );
}

/** The schema of each media type, e.g. JSON for the ingest body and any bytes besides. */
function ContentBlock({ label, content }: { label: string; content?: Record<string, { schema?: unknown }> }) {
  return (
    <>
      {Object.entries(content ?? {}).map(([mediaType, { schema }]) => (
        <SchemaBlock key={mediaType} label={`${label} (${mediaType})`} schema={schema} />
      ))}
    </>
  );
}

export function OperationCard({ operation }: { operation: OperationView }) {
  const success = Object.entries(operation.responses).find(([status]) => status.startsWith("2"));
  const errors = Object.entries(operation.responses).filter(([status]) => !status.startsWith("2"));
  return (
    <article className="card operation" id={operation.operationId}>
      <h3>
        <span className={`method method-${operation.method}`}>{operation.method.toUpperCase()}</span>
        <code>{operation.path}</code>
        <span>{operation.summary}</span>
      </h3>
      {operation.description && operation.description !== operation.summary ? (
        <p>
          <DescriptionText text={operation.description} />
        </p>
      ) : null}
      <p className="muted">
        <DescriptionText
          text={operation.security.length ? "Requires `Authorization: Bearer <API key>`." : "Public: no key needed."}
        />
      </p>
      {operation.parameters.length ? (
        <table>
          <thead>
            <tr>
              <th>Parameter</th>
              <th>In</th>
              <th>Required</th>
              <th>Description</th>
            </tr>
          </thead>
          <tbody>
            {operation.parameters.map((parameter) => (
              <tr key={`${parameter.in}-${parameter.name}`}>
                <td>
                  <code>{parameter.name}</code>
                </td>
                <td>{parameter.in}</td>
                <td>{parameter.required ? "yes" : "no"}</td>
                <td>{parameter.description ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {operation.requestBody ? <ContentBlock label="Request body" content={operation.requestBody.content} /> : null}
      {success ? <ContentBlock label={`Response ${success[0]}`} content={success[1].content} /> : null}
      {errors.length ? (
        <ul>
          {errors.map(([status, response]) => (
            <li key={status}>
              <strong>{status}</strong> <DescriptionText text={response.description} />
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}
