import internals from "@prisma/internals";
import pg from "pg";

// `@prisma/internals` is CommonJS whose exports Node's ESM loader cannot detect, so a named import fails at run time.
const { getDMMF } = internals;

type Datamodel = Awaited<ReturnType<typeof getDMMF>>["datamodel"];
type DmmfModel = Datamodel["models"][number];
type DmmfField = DmmfModel["fields"][number];

/**
 * The database shape a schema implies (or a live database has), reduced to what Prisma's migrations control.
 * Both sides are built into this one shape so that the comparison is a plain diff.
 */
interface Shape<Default> {
  tables: Map<string, Table<Default>>;
  enums: Map<string, string[]>;
}

interface Table<Default> {
  columns: Map<string, Column<Default>>;
  indexes: Index[];
  foreignKeys: ForeignKey[];
}

interface Column<Default> {
  /** `format_type()` spelling, except enums, written `enum <name>` so quoting rules do not matter; null: not checked. */
  type: string | null;
  nullable: boolean;
  /** The schema side holds what to expect, the database side the default's SQL text. */
  default: Default;
}

type ExpectedShape = Shape<ExpectedDefault>;
type LiveShape = Shape<string | null>;

type ExpectedDefault =
  | { kind: "none" }
  | { kind: "unchecked" }
  | { kind: "present" }
  | { kind: "sequence" }
  | { kind: "now" }
  | { kind: "literal"; value: string | number | boolean; as: "text" | "number" | "boolean" | "json" };

interface Index {
  kind: "primary" | "unique" | "normal";
  name: string;
  columns: string[];
  descending: boolean[];
  method: string;
  /** `WHERE` predicate of a partial index (`where: raw("…")`), normalized; absent for full indexes. */
  predicate?: string;
  /** Expression indexes, which Prisma cannot declare. */
  special?: string;
}

interface ForeignKey {
  name: string;
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: string;
  onUpdate: string;
}

const MIGRATIONS_TABLE = "_prisma_migrations";
const MAX_IDENTIFIER = 63;

/** Compares `schema` (the text of schema.prisma) with the database at `connectionString`; returns the differences. */
export async function compareSchemaWithDatabase(options: {
  schema: string;
  connectionString: string;
}): Promise<string[]> {
  const expected = await expectedShape(options.schema);
  const client = new pg.Client({ connectionString: options.connectionString });
  await client.connect();
  try {
    return diffShapes(expected, await liveShape(client));
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// What the schema implies, following what Prisma's schema engine generates for PostgreSQL.

async function expectedShape(schema: string): Promise<ExpectedShape> {
  const { datamodel } = await getDMMF({ datamodel: schema });
  const extras = scanSchemaText(schema);
  const models = new Map(datamodel.models.map((model) => [model.name, model]));
  const enums = new Map(datamodel.enums.map((e) => [e.name, e]));
  const shape: ExpectedShape = { tables: new Map(), enums: new Map() };

  for (const e of datamodel.enums)
    shape.enums.set(
      e.dbName ?? e.name,
      e.values.map((value) => value.dbName ?? value.name),
    );

  const tableName = (model: DmmfModel) => model.dbName ?? model.name;
  const columnName = (model: DmmfModel, fieldName: string): string => {
    const field = model.fields.find((f) => f.name === fieldName);
    if (field) return field.dbName ?? field.name;
    return extras.get(model.name)?.unsupported.get(fieldName)?.column ?? fieldName;
  };

  for (const model of datamodel.models) {
    const table: Table<ExpectedDefault> = { columns: new Map(), indexes: [], foreignKeys: [] };
    shape.tables.set(tableName(model), table);

    for (const field of model.fields) {
      if (field.kind !== "scalar" && field.kind !== "enum") continue;
      const enumDef = field.kind === "enum" ? enums.get(field.type) : undefined;
      table.columns.set(field.dbName ?? field.name, {
        type:
          field.kind === "enum"
            ? `enum ${enumDef?.dbName ?? field.type}${field.isList ? "[]" : ""}`
            : scalarType(field),
        // Prisma creates list columns without NOT NULL even though the client treats them as required.
        nullable: !field.isRequired || field.isList,
        default: expectedDefault(field, enumDef),
      });
    }
    // DMMF leaves `Unsupported("…")` fields out entirely; they are still columns the migrations must create.
    for (const [, unsupported] of extras.get(model.name)?.unsupported ?? []) {
      table.columns.set(unsupported.column, {
        type: null,
        nullable: unsupported.nullable,
        default: { kind: "unchecked" },
      });
    }

    for (const field of model.fields) {
      if (field.kind !== "object" || !field.relationFromFields?.length) continue;
      const target = models.get(field.type);
      if (!target) continue;
      const columns = field.relationFromFields.map((name) => columnName(model, name));
      // Prisma's referential-action defaults: Restrict for a required relation, SetNull for an optional one.
      const onDelete = field.relationOnDelete ?? (field.isRequired ? "Restrict" : "SetNull");
      table.foreignKeys.push({
        name: extras.get(model.name)?.relationMaps.get(field.name) ?? defaultName(tableName(model), columns, "fkey"),
        columns,
        referencedTable: tableName(target),
        referencedColumns: (field.relationToFields ?? []).map((name) => columnName(target, name)),
        onDelete: referentialAction(onDelete),
        onUpdate: referentialAction(field.relationOnUpdate ?? "Cascade"),
      });
    }
  }

  addImplicitManyToManyTables(datamodel, shape);

  for (const index of datamodel.indexes) {
    const model = models.get(index.model);
    if (!model || index.type === "fulltext") continue;
    const table = shape.tables.get(tableName(model));
    const columns = index.fields.map((f) => columnName(model, f.name));
    const kind = index.type === "id" ? "primary" : index.type === "unique" ? "unique" : "normal";
    table?.indexes.push({
      kind,
      name:
        index.dbName ??
        (kind === "primary"
          ? defaultName(tableName(model), [], "pkey")
          : defaultName(tableName(model), columns, kind === "unique" ? "key" : "idx")),
      columns,
      descending: index.fields.map((f) => f.sortOrder === "desc"),
      method: (index.algorithm ?? "BTree").toLowerCase(),
      predicate: extras
        .get(index.model)
        ?.indexPredicates.get(index.dbName ?? index.fields.map((f) => f.name).join(",")),
    });
  }
  return shape;
}

/**
 * An implicit many-to-many relation (list fields on both sides, no `fields:`) has no model in DMMF, but Prisma creates
 * `_<relation>` with columns A and B pointing at the two models' ids, A being the model whose name sorts first.
 */
function addImplicitManyToManyTables(datamodel: Datamodel, shape: ExpectedShape): void {
  const sides = new Map<string, { model: DmmfModel; field: DmmfField }[]>();
  for (const model of datamodel.models) {
    for (const field of model.fields) {
      if (field.kind !== "object" || !field.relationName) continue;
      sides.set(field.relationName, [...(sides.get(field.relationName) ?? []), { model, field }]);
    }
  }
  for (const [relation, fields] of sides) {
    if (fields.length !== 2 || !fields.every(({ field }) => field.isList && !field.relationFromFields?.length))
      continue;
    const [a, b] = fields.map(({ model }) => model).sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    if (!a || !b) continue;
    const table = `_${relation}`;
    const ends = [
      { column: "A", model: a },
      { column: "B", model: b },
    ].map(({ column, model }) => {
      const id = model.fields.find((field) => field.isId);
      if (!id)
        throw new Error(`schema-drift: implicit many-to-many ${relation} needs a single-field @id on ${model.name}`);
      return { column, model, id };
    });
    shape.tables.set(table, {
      columns: new Map(
        ends.map(({ column, id }) => [
          column,
          { type: scalarType({ ...id, isList: false }), nullable: false, default: { kind: "none" } },
        ]),
      ),
      indexes: [
        { kind: "primary", name: `${table}_AB_pkey`, columns: ["A", "B"], descending: [false, false], method: "btree" },
        { kind: "normal", name: `${table}_B_index`, columns: ["B"], descending: [false], method: "btree" },
      ],
      foreignKeys: ends.map(({ column, model, id }) => ({
        name: `${table}_${column}_fkey`,
        columns: [column],
        referencedTable: model.dbName ?? model.name,
        referencedColumns: [id.dbName ?? id.name],
        onDelete: "CASCADE",
        onUpdate: "CASCADE",
      })),
    });
  }
}

/** Prisma's default constraint names, truncated the way the schema engine does to fit PostgreSQL's 63 bytes. */
function defaultName(table: string, columns: string[], suffix: string): string {
  const stem = [table, ...columns].join("_");
  return `${stem.slice(0, MAX_IDENTIFIER - suffix.length - 1)}_${suffix}`;
}

function scalarType(field: DmmfField): string {
  const list = field.isList ? "[]" : "";
  const [native, args = []] = field.nativeType ?? [];
  const params = args.length ? `(${args.join(",")})` : "";
  if (native) {
    const mapped = NATIVE_TYPES[native];
    return `${mapped ? mapped(params) : `${native.toLowerCase()}${params}`}${list}`;
  }
  const base = DEFAULT_TYPES[field.type];
  if (!base)
    throw new Error(`schema-drift: no PostgreSQL type known for Prisma type ${field.type} (field ${field.name})`);
  return `${base}${list}`;
}

// Prisma scalar → the column type its schema engine creates on PostgreSQL, in `format_type()` spelling.
const DEFAULT_TYPES: Record<string, string> = {
  String: "text",
  Boolean: "boolean",
  Int: "integer",
  BigInt: "bigint",
  Float: "double precision",
  Decimal: "numeric(65,30)",
  DateTime: "timestamp(3) without time zone",
  Json: "jsonb",
  Bytes: "bytea",
};

const NATIVE_TYPES: Record<string, (params: string) => string> = {
  Text: () => "text",
  VarChar: (p) => `character varying${p}`,
  Char: (p) => `character${p}`,
  Uuid: () => "uuid",
  Xml: () => "xml",
  Inet: () => "inet",
  Citext: () => "citext",
  Bit: (p) => `bit${p}`,
  VarBit: (p) => `bit varying${p}`,
  Boolean: () => "boolean",
  Integer: () => "integer",
  SmallInt: () => "smallint",
  Oid: () => "oid",
  BigInt: () => "bigint",
  DoublePrecision: () => "double precision",
  Real: () => "real",
  Decimal: (p) => `numeric${p}`,
  Money: () => "money",
  Timestamp: (p) => `timestamp${p} without time zone`,
  Timestamptz: (p) => `timestamp${p} with time zone`,
  Date: () => "date",
  Time: (p) => `time${p} without time zone`,
  Timetz: (p) => `time${p} with time zone`,
  Json: () => "json",
  JsonB: () => "jsonb",
  ByteA: () => "bytea",
};

// Functions Prisma Client evaluates itself: the column gets no database default.
const CLIENT_SIDE_DEFAULTS = new Set(["uuid", "cuid", "nanoid", "ulid"]);

function expectedDefault(field: DmmfField, enumDef?: Datamodel["enums"][number]): ExpectedDefault {
  const value = field.default;
  if (!field.hasDefaultValue || value === undefined || field.isUpdatedAt) return { kind: "none" };
  if (Array.isArray(value)) return { kind: "present" };
  if (typeof value === "object" && value !== null && "name" in value) {
    if (CLIENT_SIDE_DEFAULTS.has(value.name)) return { kind: "none" };
    if (value.name === "autoincrement") return { kind: "sequence" };
    if (value.name === "now") return { kind: "now" };
    // `dbgenerated()` without an expression means "the database fills it in somehow" (a trigger, say).
    if (value.name === "dbgenerated") return value.args.length ? { kind: "present" } : { kind: "unchecked" };
    return { kind: "present" };
  }
  const scalar = value as string | number | boolean;
  if (enumDef) {
    const enumValue = enumDef.values.find((v) => v.name === scalar);
    return { kind: "literal", value: enumValue?.dbName ?? String(scalar), as: "text" };
  }
  switch (field.type) {
    case "String":
      return { kind: "literal", value: String(scalar), as: "text" };
    case "Int":
    case "BigInt":
    case "Float":
    case "Decimal":
      return { kind: "literal", value: Number(scalar), as: "number" };
    case "Boolean":
      return { kind: "literal", value: scalar === true || scalar === "true", as: "boolean" };
    case "Json":
      return { kind: "literal", value: String(scalar), as: "json" };
    default:
      // DateTime and Bytes literals come back from PostgreSQL reformatted; their presence is what we can check.
      return { kind: "present" };
  }
}

function referentialAction(action: string): string {
  return action.replace(/([a-z])([A-Z])/g, "$1 $2").toUpperCase();
}

interface SchemaTextExtras {
  unsupported: Map<string, { column: string; nullable: boolean }>;
  relationMaps: Map<string, string>;
  /** Partial index predicates by `map:` name, or by the comma-joined field names when unnamed. */
  indexPredicates: Map<string, string>;
}

/** A predicate as comparable text: PostgreSQL's pg_get_expr adds parentheses and quotes that the schema may not. */
export function normalizePredicate(predicate: string): string {
  let text = predicate.replaceAll('"', "").replace(/\s+/g, " ").trim().toLowerCase();
  while (/^\(.*\)$/.test(text) && balanced(text.slice(1, -1))) text = text.slice(1, -1).trim();
  return text;
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const char of text) {
    depth += char === "(" ? 1 : char === ")" ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/**
 * What DMMF does not carry: `Unsupported(...)` fields, `@relation(map: "...")` constraint names and partial index
 * predicates (`where: raw("...")`).
 * Read from the schema text, one field per line as Prisma's formatter writes them.
 */
function scanSchemaText(schema: string): Map<string, SchemaTextExtras> {
  const result = new Map<string, SchemaTextExtras>();
  const withoutComments = schema.replace(
    /("(?:[^"\\]|\\.)*")|\/\/.*$/gm,
    (match, quoted: string | undefined) => quoted ?? "",
  );
  for (const block of withoutComments.matchAll(/^\s*model\s+(\w+)\s*\{([\s\S]*?)^\s*\}/gm)) {
    const extras: SchemaTextExtras = { unsupported: new Map(), relationMaps: new Map(), indexPredicates: new Map() };
    result.set(block[1] ?? "", extras);
    for (const line of (block[2] ?? "").split("\n")) {
      const partial = /^\s*@@(?:index|unique)\(\s*\[([^\]]*)\](.*)\bwhere:\s*raw\(\s*"((?:[^"\\]|\\.)*)"\s*\)/.exec(
        line,
      );
      if (partial) {
        const [, fields = "", options = "", predicate = ""] = partial;
        const name = /\bmap:\s*"([^"]+)"/.exec(options)?.[1];
        const key =
          name ??
          fields
            .split(",")
            .map((f) => f.trim().replace(/\(.*$/, ""))
            .join(",");
        extras.indexPredicates.set(key, normalizePredicate(predicate.replaceAll('\\"', '"')));
        continue;
      }
      const field = /^\s*(\w+)\s+(\S+)(.*)$/.exec(line);
      if (!field) continue;
      const [, name = "", type = "", rest = ""] = field;
      const mapped = /@map\(\s*(?:name:\s*)?"([^"]+)"/.exec(rest)?.[1];
      if (type.startsWith("Unsupported(")) {
        extras.unsupported.set(name, { column: mapped ?? name, nullable: type.endsWith("?") });
      }
      const relationMap = /@relation\([^)]*\bmap:\s*"([^"]+)"/.exec(rest)?.[1];
      if (relationMap) extras.relationMaps.set(name, relationMap);
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// What the database has, read from pg_catalog for the connection's current schema.

async function liveShape(client: pg.Client): Promise<LiveShape> {
  const shape: LiveShape = { tables: new Map(), enums: new Map() };

  const enums = await client.query<{ name: string; values: string[] }>(`
    SELECT t.typname AS name, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text[] AS values
    FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE n.nspname = current_schema()
    GROUP BY t.typname`);
  for (const row of enums.rows) shape.enums.set(row.name, row.values);

  const tables = await client.query<{ name: string }>(
    `
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> $1`,
    [MIGRATIONS_TABLE],
  );
  for (const row of tables.rows) shape.tables.set(row.name, { columns: new Map(), indexes: [], foreignKeys: [] });

  const columns = await client.query<{
    table: string;
    column: string;
    type: string;
    enum_type: string | null;
    is_array: boolean;
    not_null: boolean;
    default: string | null;
    identity: string;
  }>(`
    SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
           CASE WHEN base.typtype = 'e' THEN base.typname END AS enum_type, t.typcategory = 'A' AS is_array,
           a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS default, a.attidentity AS identity
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_type t ON t.oid = a.atttypid
    JOIN pg_type base ON base.oid = CASE WHEN t.typelem <> 0 AND t.typcategory = 'A' THEN t.typelem ELSE t.oid END
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND a.attnum > 0 AND NOT a.attisdropped`);
  for (const row of columns.rows) {
    shape.tables.get(row.table)?.columns.set(row.column, {
      type: row.enum_type ? `enum ${row.enum_type}${row.is_array ? "[]" : ""}` : row.type,
      nullable: !row.not_null,
      // An identity column is as good as a serial one for `autoincrement()`.
      default: row.identity ? IDENTITY : row.default,
    });
  }

  const indexes = await client.query<{
    table: string;
    name: string;
    primary: boolean;
    unique: boolean;
    columns: string[];
    options: number[];
    method: string;
    expressions: boolean;
    predicate: string | null;
  }>(
    `
    SELECT t.relname AS table, i.relname AS name, x.indisprimary AS primary, x.indisunique AS unique,
           array(SELECT a.attname FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns,
           x.indoption::int2[]::int[] AS options, am.amname AS method,
           x.indexprs IS NOT NULL AS expressions, pg_get_expr(x.indpred, x.indrelid) AS predicate
    FROM pg_index x
    JOIN pg_class i ON i.oid = x.indexrelid
    JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    JOIN pg_am am ON am.oid = i.relam
    WHERE n.nspname = current_schema() AND t.relname <> $1`,
    [MIGRATIONS_TABLE],
  );
  for (const row of indexes.rows) {
    shape.tables.get(row.table)?.indexes.push({
      kind: row.primary ? "primary" : row.unique ? "unique" : "normal",
      name: row.name,
      columns: row.columns,
      // Bit 0 of each indoption entry is DESC.
      descending: row.options.slice(0, row.columns.length).map((option) => (option & 1) === 1),
      method: row.method,
      predicate: row.predicate === null ? undefined : normalizePredicate(row.predicate),
      special: row.expressions ? "on an expression" : undefined,
    });
  }

  const foreignKeys = await client.query<{
    table: string;
    name: string;
    columns: string[];
    referenced_table: string;
    referenced_columns: string[];
    on_delete: string;
    on_update: string;
  }>(`
    SELECT t.relname AS table, con.conname AS name,
           array(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns,
           r.relname AS referenced_table,
           array(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS referenced_columns,
           con.confdeltype AS on_delete, con.confupdtype AS on_update
    FROM pg_constraint con
    JOIN pg_class t ON t.oid = con.conrelid
    JOIN pg_class r ON r.oid = con.confrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE con.contype = 'f' AND n.nspname = current_schema()`);
  for (const row of foreignKeys.rows) {
    shape.tables.get(row.table)?.foreignKeys.push({
      name: row.name,
      columns: row.columns,
      referencedTable: row.referenced_table,
      referencedColumns: row.referenced_columns,
      onDelete: ACTION_CODES[row.on_delete] ?? row.on_delete,
      onUpdate: ACTION_CODES[row.on_update] ?? row.on_update,
    });
  }
  return shape;
}

const IDENTITY = "GENERATED AS IDENTITY";
const ACTION_CODES: Record<string, string> = {
  a: "NO ACTION",
  r: "RESTRICT",
  c: "CASCADE",
  n: "SET NULL",
  d: "SET DEFAULT",
};

// ---------------------------------------------------------------------------------------------------------------
// The diff.

function diffShapes(expected: ExpectedShape, live: LiveShape): string[] {
  const differences: string[] = [];
  const report = (message: string) => differences.push(message);

  for (const [name, values] of expected.enums) {
    const liveValues = live.enums.get(name);
    if (!liveValues) report(`enum ${name}: missing in the database`);
    else if (liveValues.join(",") !== values.join(",")) {
      report(`enum ${name}: values are [${liveValues.join(", ")}], schema says [${values.join(", ")}]`);
    }
  }
  for (const name of live.enums.keys())
    if (!expected.enums.has(name)) report(`enum ${name}: in the database but not in the schema`);

  for (const [tableName, table] of expected.tables) {
    const liveTable = live.tables.get(tableName);
    if (!liveTable) {
      report(`table ${tableName}: missing in the database`);
      continue;
    }
    diffColumns(tableName, table, liveTable, report);
    diffIndexes(tableName, table, liveTable, report);
    diffForeignKeys(tableName, table, liveTable, report);
  }
  for (const name of live.tables.keys())
    if (!expected.tables.has(name)) report(`table ${name}: in the database but not in the schema`);
  return differences;
}

type Report = (message: string) => void;

function diffColumns(
  tableName: string,
  table: Table<ExpectedDefault>,
  liveTable: Table<string | null>,
  report: Report,
): void {
  for (const [name, column] of table.columns) {
    const where = `column ${tableName}.${name}`;
    const liveColumn = liveTable.columns.get(name);
    if (!liveColumn) {
      report(`${where}: missing in the database`);
      continue;
    }
    if (column.type !== null && column.type !== liveColumn.type)
      report(`${where}: type is ${liveColumn.type}, schema says ${column.type}`);
    if (column.nullable !== liveColumn.nullable) {
      report(
        `${where}: is ${liveColumn.nullable ? "nullable" : "NOT NULL"}, schema says ${column.nullable ? "nullable" : "NOT NULL"}`,
      );
    }
    const problem = defaultProblem(column.default, liveColumn.default);
    if (problem) report(`${where}: ${problem}`);
  }
  for (const name of liveTable.columns.keys()) {
    if (!table.columns.has(name)) report(`column ${tableName}.${name}: in the database but not in the schema`);
  }
}

function defaultProblem(expected: ExpectedDefault, live: string | null): string | null {
  const has = live === null ? "has no default" : `has default ${live}`;
  switch (expected.kind) {
    case "unchecked":
      return null;
    case "none":
      return live === null ? null : `${has}, schema declares none`;
    case "present":
      return live === null ? `${has}, schema declares one` : null;
    case "sequence":
      return live !== null && (live === IDENTITY || /^nextval\(/.test(live))
        ? null
        : `${has}, schema says autoincrement()`;
    case "now":
      return live !== null && /^(CURRENT_TIMESTAMP|now\(\))$/i.test(live) ? null : `${has}, schema says now()`;
    case "literal": {
      const literal = live === null ? null : parseLiteral(live);
      const wanted = expected.as === "text" ? `'${String(expected.value)}'` : String(expected.value);
      return literal !== null && literalMatches(expected, literal) ? null : `${has}, schema says ${wanted}`;
    }
  }
}

/** `'n/a'::text` → `n/a`, `'-1'::integer` → `-1`, `1.5` → `1.5`; null for anything that is not a plain constant. */
function parseLiteral(expression: string): string | null {
  const quoted = /^'((?:[^']|'')*)'(?:::[\w\s".[\]]+)?$/.exec(expression);
  if (quoted) return (quoted[1] ?? "").replace(/''/g, "'");
  const bare = /^\(?(-?[\d.]+(?:e[+-]?\d+)?|true|false)\)?(?:::[\w\s".[\]]+)?$/i.exec(expression);
  return bare ? (bare[1] ?? null) : null;
}

function literalMatches(expected: Extract<ExpectedDefault, { kind: "literal" }>, literal: string): boolean {
  switch (expected.as) {
    case "text":
      return literal === expected.value;
    case "number":
      return Number(literal) === expected.value;
    case "boolean":
      return literal.toLowerCase() === String(expected.value);
    case "json":
      try {
        return canonicalJson(JSON.parse(literal)) === canonicalJson(JSON.parse(String(expected.value)));
      } catch {
        return false;
      }
  }
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, v]) => `${JSON.stringify(key)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function describeColumns(index: Index): string {
  return index.columns.map((column, i) => (index.descending[i] ? `${column} DESC` : column)).join(", ");
}

function describeIndex(index: Index): string {
  const label = index.kind === "primary" ? "primary key" : index.kind === "unique" ? "unique index" : "index";
  return `${label} ${index.name} (${describeColumns(index)})${index.method === "btree" ? "" : ` USING ${index.method}`}${index.predicate ? ` WHERE ${index.predicate}` : ""}`;
}

function diffIndexes(
  tableName: string,
  table: Table<ExpectedDefault>,
  liveTable: Table<string | null>,
  report: Report,
): void {
  const unmatched = [...liveTable.indexes];
  for (const index of table.indexes) {
    const sameColumns = (live: Index) =>
      live.kind === index.kind && !live.special && live.columns.join(",") === index.columns.join(",");
    // Prefer the live index with the same predicate: a table may hold a full and a partial index on the same columns.
    let at = unmatched.findIndex((live) => sameColumns(live) && live.predicate === index.predicate);
    if (at < 0) at = unmatched.findIndex(sameColumns);
    if (at < 0) {
      report(`table ${tableName}: ${describeIndex(index)} is missing in the database`);
      continue;
    }
    const [live] = unmatched.splice(at, 1);
    if (!live) continue;
    const where = `table ${tableName}: ${describeIndex(index)}`;
    if (live.name !== index.name) report(`${where} is named ${live.name} in the database`);
    if (live.descending.join(",") !== index.descending.join(","))
      report(`${where} is sorted (${describeColumns(live)}) in the database`);
    if (live.method !== index.method) report(`${where} uses ${live.method} in the database`);
    if (live.predicate !== index.predicate)
      report(`${where} has ${live.predicate ? `WHERE ${live.predicate}` : "no WHERE"} in the database`);
  }
  for (const live of unmatched) {
    report(
      `table ${tableName}: ${describeIndex(live)}${live.special ? `, ${live.special},` : ""} is in the database but not in the schema`,
    );
  }
}

function describeForeignKey(fk: ForeignKey): string {
  return `foreign key ${fk.name} (${fk.columns.join(", ")}) → ${fk.referencedTable}(${fk.referencedColumns.join(", ")}) ON DELETE ${fk.onDelete} ON UPDATE ${fk.onUpdate}`;
}

function diffForeignKeys(
  tableName: string,
  table: Table<ExpectedDefault>,
  liveTable: Table<string | null>,
  report: Report,
): void {
  const unmatched = [...liveTable.foreignKeys];
  for (const fk of table.foreignKeys) {
    const at = unmatched.findIndex(
      (live) => live.columns.join(",") === fk.columns.join(",") && live.referencedTable === fk.referencedTable,
    );
    if (at < 0) {
      report(`table ${tableName}: ${describeForeignKey(fk)} is missing in the database`);
      continue;
    }
    const [live] = unmatched.splice(at, 1);
    if (!live) continue;
    const where = `table ${tableName}: ${describeForeignKey(fk)}`;
    if (live.name !== fk.name) report(`${where} is named ${live.name} in the database`);
    if (live.referencedColumns.join(",") !== fk.referencedColumns.join(",")) {
      report(`${where} references (${live.referencedColumns.join(", ")}) in the database`);
    }
    if (live.onDelete !== fk.onDelete) report(`${where} is ON DELETE ${live.onDelete} in the database`);
    if (live.onUpdate !== fk.onUpdate) report(`${where} is ON UPDATE ${live.onUpdate} in the database`);
  }
  for (const live of unmatched)
    report(`table ${tableName}: ${describeForeignKey(live)} is in the database but not in the schema`);
}
