// esbuild bundles .css files as text (see build.mjs); styles.ts joins them and index.ts injects them in a <style> element.
declare module "*.css" {
  const text: string;
  export default text;
}
