/**
 * The architecture as rules, checked by `npm run lint:deps` (dependency-cruiser) in CI.
 *
 * The core is a stack of layers, each importing only the ones below it:
 *   util → schema → tool → resolve → run → agent → src/index.ts
 * The subpaths (every other folder of src/: toolrx/providers, /mcp, /otel, /testing, /node, /bullmq,
 * /ai-sdk, /ag-ui, /code-mode, ...) sit on top: they use
 * the core only as a user would, through src/index.ts (plus the pure helpers of util/ and the
 * short list of internals in src/internal.ts), never the other way round, and reach another
 * subpath only through its entry.
 * Type-only imports count: a cycle of types is still a cycle for a reader.
 */
const LAYERS = ["util", "schema", "tool", "resolve", "run", "agent"];
// Read from the folders, not listed: a subpath added later is held to the same rules without
// anyone remembering to name it here (code-mode once went unchecked that way).
const SUBPATHS = require("node:fs")
  .readdirSync(require("node:path").join(__dirname, "src"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !LAYERS.includes(entry.name))
  .map((entry) => entry.name);

const layerRules = LAYERS.map((layer, i) => {
  const above = [...LAYERS.slice(i + 1), ...SUBPATHS];
  return {
    name: `${layer}-imports-only-below`,
    comment: `src/${layer}/ may import only the layers below it (${LAYERS.slice(0, i).join(", ") || "none"})`,
    severity: "error",
    from: { path: `^src/${layer}/` },
    to: { path: [`^src/(${above.join("|")})/`, "^src/index\\.ts$"] },
  };
});

const subpathRules = SUBPATHS.map((subpath) => ({
  name: `${subpath}-reaches-other-subpaths-only-through-their-entry`,
  comment: `src/${subpath}/ may use another subpath only through its index.ts`,
  severity: "error",
  from: { path: `^src/${subpath}/` },
  to: {
    path: `^src/(${SUBPATHS.filter((s) => s !== subpath).join("|")})/`,
    pathNot: `^src/(${SUBPATHS.join("|")})/index\\.ts$`,
  },
}));

/**
 * Concept folders inside a folder of src/ (agent/journal/, run/pool/, mcp/server/, ...).
 * A folder that has them says so in its README.md, in one line naming them bottom to top:
 *   Concepts, bottom to top: model → journal → turn
 * That line is the rule, so the table of contents a reader sees and what CI holds cannot drift:
 * a concept imports only the concepts below it, and a sibling only through its public file
 * (index.ts); the folder's own root files sit on top and no concept imports them. A subfolder
 * the README does not list is an error here, so a new concept cannot slip in unordered.
 */
function conceptRules() {
  const fs = require("node:fs");
  const path = require("node:path");
  const rules = [];
  for (const folder of fs.readdirSync(path.join(__dirname, "src"), { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    const readme = path.join(__dirname, "src", folder.name, "README.md");
    if (!fs.existsSync(readme)) continue;
    const line = fs.readFileSync(readme, "utf8").match(/^Concepts, bottom to top: (.+)$/m);
    if (!line) continue;
    const concepts = line[1].split("→").map((name) => name.trim().replace(/`/g, ""));
    const subfolders = fs
      .readdirSync(path.join(__dirname, "src", folder.name), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const unlisted = subfolders.filter((name) => !concepts.includes(name));
    const missing = concepts.filter((name) => !subfolders.includes(name));
    if (unlisted.length > 0 || missing.length > 0) {
      throw new Error(
        `src/${folder.name}/README.md's concept line must name exactly its subfolders (unlisted: ${unlisted.join(", ") || "none"}; missing: ${missing.join(", ") || "none"})`,
      );
    }
    const at = `^src/${folder.name}`;
    concepts.forEach((concept, i) => {
      const above = concepts.slice(i + 1);
      const below = concepts.slice(0, i);
      if (above.length > 0) {
        rules.push({
          name: `${folder.name}/${concept}-imports-only-concepts-below`,
          comment: `src/${folder.name}/${concept}/ may import only ${below.join(", ") || "no other concept"} of src/${folder.name}/`,
          severity: "error",
          from: { path: `${at}/${concept}/` },
          to: { path: `${at}/(${above.join("|")})/` },
        });
      }
      if (below.length > 0) {
        rules.push({
          name: `${folder.name}/${concept}-uses-siblings-through-their-index`,
          comment: `src/${folder.name}/${concept}/ reaches a sibling concept only through its index.ts`,
          severity: "error",
          from: { path: `${at}/${concept}/` },
          to: { path: `${at}/(${below.join("|")})/`, pathNot: `${at}/(${below.join("|")})/index\\.ts$` },
        });
      }
    });
    rules.push({
      name: `${folder.name}/concepts-never-import-the-folder-root`,
      comment: `src/${folder.name}/'s root files sit above its concepts`,
      severity: "error",
      from: { path: `${at}/[^/]+/` },
      to: { path: `${at}/[^/]+\\.ts$` },
    });
  }
  return rules;
}

module.exports = {
  forbidden: [
    {
      name: "subpaths-use-the-public-core",
      comment: "A subpath reaches the core through src/index.ts, src/internal.ts or util/, never a layer's internals",
      severity: "error",
      from: { path: `^src/(${SUBPATHS.join("|")})/` },
      to: { path: `^src/(${LAYERS.filter((l) => l !== "util").join("|")})/` },
    },
    {
      name: "only-subpaths-use-the-internal-seam",
      comment: "src/internal.ts exists for the subpaths; the core imports its modules directly",
      severity: "error",
      from: { path: `^src/(${LAYERS.join("|")})/|^src/index\\.ts$` },
      to: { path: "^src/internal\\.ts$" },
    },
    {
      name: "no-circular",
      comment: "No import cycle anywhere in src/, type-only imports included",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "core-never-imports-a-subpath",
      comment: "The core stays isomorphic and small: it never imports a subpath",
      severity: "error",
      from: { path: `^src/(${LAYERS.join("|")})/|^src/index\\.ts$` },
      to: { path: `^src/(${SUBPATHS.join("|")})/` },
    },
    ...layerRules,
    ...subpathRules,
    ...conceptRules(),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"], extensions: [".ts", ".js"] },
  },
};
