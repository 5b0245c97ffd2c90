"use client";

import { jsonChildren, jsonKind, jsonLeaf, jsonSummary, type JsonText } from "../_lib/json";

/** Children shown per branch; the rest are counted ("… 1,200 more"). The raw download has everything. */
const BRANCH_LIMIT = 500;

/**
 * A pretty-printed JSON value whose objects and arrays fold, drawn from the JSON text's syntax tree (keys in the
 * order sent, duplicates kept, leaves as written). Built on `<details>`/`<summary>`, so every branch is a
 * native disclosure: Tab reaches it, Enter or Space toggles it, and screen readers announce expanded/collapsed.
 */
export function JsonTree({ value, openDepth }: { value: JsonText; openDepth: number }) {
  return (
    <div className="json-tree">
      <JsonNode label={null} value={value} depth={0} openDepth={openDepth} last />
    </div>
  );
}

function Label({ label }: { label: string | null }) {
  if (label === null) return null;
  return (
    <>
      <span className="json-key">{label}</span>
      <span className="json-punct">: </span>
    </>
  );
}

function JsonNode({
  label,
  value,
  depth,
  openDepth,
  last,
}: {
  label: string | null;
  value: JsonText;
  depth: number;
  openDepth: number;
  last: boolean;
}) {
  const kind = jsonKind(value);
  const comma = last ? null : <span className="json-punct">,</span>;
  if (kind !== "object" && kind !== "array") {
    return (
      <div className="json-line">
        <Label label={label} />
        <span className={`json-${kind}`}>{jsonLeaf(value)}</span>
        {comma}
      </div>
    );
  }
  const [open, close] = kind === "array" ? ["[", "]"] : ["{", "}"];
  const { entries, hidden } = jsonChildren(value, BRANCH_LIMIT);
  if (entries.length === 0) {
    return (
      <div className="json-line">
        <Label label={label} />
        <span className="json-punct">
          {open}
          {close}
        </span>
        {comma}
      </div>
    );
  }
  return (
    <details className="json-branch" open={depth < openDepth}>
      <summary>
        <Label label={label} />
        <span className="json-punct">{open}</span>
        <span className="json-summary">
          {" "}
          {jsonSummary(value)} {close}
          {last ? "" : ","}
        </span>
      </summary>
      <div className="json-children">
        {entries.map(([key, child], index) => (
          <JsonNode
            // By position: duplicate keys are kept, so a key need not be unique.
            key={index}
            label={kind === "array" ? null : key}
            value={child}
            depth={depth + 1}
            openDepth={openDepth}
            last={index === entries.length - 1 && hidden === 0}
          />
        ))}
        {hidden > 0 ? <div className="json-line json-more">… {hidden.toLocaleString("en")} more</div> : null}
      </div>
      <div className="json-line json-close">
        <span className="json-punct">{close}</span>
        {comma}
      </div>
    </details>
  );
}
