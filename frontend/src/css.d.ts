// esbuild bundles .css files as text (see build.mjs); index.ts injects it in a <style> element.
declare module "*.css" {
  const text: string;
  export default text;
}
