// Unit tests of the frontend's pure modules: esbuild bundles each test/*.test.ts (with the src
// modules it imports) for node, then node's own test runner (`node --test`) runs the bundles.
// Usage: node test/run.mjs [NAME...]   (only the test files whose names contain a NAME)
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = (await readdir(here))
  .filter((name) => name.endsWith(".test.ts"))
  .filter((name) => wanted.length === 0 || wanted.some((part) => name.includes(part)))
  .sort();
if (files.length === 0) throw new Error(`no test/*.test.ts matches ${wanted.join(" ")}`);

const outdir = await mkdtemp(join(tmpdir(), "tb-perf-frontend-test-"));
try {
  await build({
    entryPoints: files.map((name) => join(here, name)),
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node18",
    sourcemap: "inline",
    loader: { ".css": "text" },
    logLevel: "warning",
  });
  const bundles = files.map((name) => join(outdir, name.replace(/\.ts$/, ".mjs")));
  const result = spawnSync(process.execPath, ["--enable-source-maps", "--test", ...bundles], {
    stdio: "inherit",
  });
  process.exitCode = result.status ?? 1;
} finally {
  await rm(outdir, { recursive: true, force: true });
}
