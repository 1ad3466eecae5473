import { toolJsonSchema, type Tool } from "../index.js";

type Schema = Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The TypeScript declarations a model reads to write a script: one `tools.<name>(args)` per
 * tool, its argument type generated from the tool's JSON Schema (zod converted), its description
 * as a doc comment. What JSON Schema says that TypeScript cannot (formats, bounds, patterns) is
 * left to the runner's validation, which answers a bad call with a typed error the script can read.
 *
 * @example
 * toolDeclarations([weather]);
 * //=> declare const tools: {
 * //     /** Weather by city *\/
 * //     weather(args: { city: string }): Promise<unknown>;
 * //   };
 */
export function toolDeclarations(tools: readonly Tool[]): string {
  const members = tools.map((tool) => {
    const doc = tool.description === "" ? "" : `  /** ${tool.description.replace(/\*\//g, "* /").replace(/\s*\n\s*/g, " ")} */\n`;
    const key = IDENTIFIER.test(tool.name) ? tool.name : JSON.stringify(tool.name);
    return `${doc}  ${key}(args: ${typeOf(toolJsonSchema(tool) as Schema, 1)}): Promise<unknown>;`;
  });
  return `declare const tools: {\n${members.join("\n")}\n};`;
}

/** A TypeScript type for a JSON Schema, as far as TypeScript can say it; `unknown` where it cannot. */
function typeOf(schema: unknown, depth: number): string {
  if (schema === true || schema === undefined) return "unknown";
  if (schema === false) return "never";
  if (typeof schema !== "object" || schema === null || depth > 8) return "unknown";
  const s = schema as Schema;
  if ("const" in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.map(literal).join(" | ") || "never";
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) return union.map((member) => typeOf(member, depth + 1)).join(" | ") || "never";
  if (Array.isArray(s.allOf)) return s.allOf.map((member) => typeOf(member, depth + 1)).join(" & ") || "unknown";
  if (Array.isArray(s.type)) return s.type.map((type) => typeOf({ ...s, type }, depth)).join(" | ");
  switch (s.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return Array.isArray(s.prefixItems) ? `[${s.prefixItems.map((item) => typeOf(item, depth + 1)).join(", ")}]` : `Array<${typeOf(s.items, depth + 1)}>`;
    case "object":
      return objectType(s, depth);
    default:
      return s.properties !== undefined ? objectType(s, depth) : "unknown";
  }
}

function objectType(s: Schema, depth: number): string {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const pad = "  ".repeat(depth + 1);
  const fields = Object.entries(properties).map(([name, property]) => {
    const description = (property as Schema | undefined)?.description;
    const doc = typeof description === "string" ? `${pad}/** ${description.replace(/\*\//g, "* /").replace(/\s*\n\s*/g, " ")} */\n` : "";
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    return `${doc}${pad}${key}${required.has(name) ? "" : "?"}: ${typeOf(property, depth + 1)};`;
  });
  const extra = s.additionalProperties;
  if (typeof extra === "object" && extra !== null) fields.push(`${pad}[key: string]: ${typeOf(extra, depth + 1)};`);
  if (fields.length === 0) return extra === false ? "{}" : "Record<string, unknown>";
  return `{\n${fields.join("\n")}\n${"  ".repeat(depth)}}`;
}

function literal(value: unknown): string {
  return value === undefined ? "undefined" : JSON.stringify(value);
}
