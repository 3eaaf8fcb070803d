// Bundles src/index.ts into one minified ES module that TensorBoard's plugin iframe imports.
// Usage: node build.mjs [--outdir DIR]   (default: ../tb_perf_plugin/static)
import { build } from "esbuild";
import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const outdirFlag = process.argv.indexOf("--outdir");
const outdirArg =
  outdirFlag === -1 ? join(here, "..", "tb_perf_plugin", "static") : process.argv[outdirFlag + 1];
if (!outdirArg) throw new Error("usage: node build.mjs [--outdir DIR]");
const outdir = resolve(outdirArg);

await mkdir(outdir, { recursive: true });
await build({
  entryPoints: [join(here, "src", "index.ts")],
  outfile: join(outdir, "index.js"),
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  // The committed bundle must be byte-identical to a fresh build: nothing path- or time-dependent.
  sourcemap: false,
  legalComments: "none",
  charset: "utf8",
  loader: { ".css": "text" },
  logLevel: "warning",
});
