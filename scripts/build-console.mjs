// Builds the Concord Console (decision 0159): bundles console/src/main.tsx (Preact, the schema
// checker and the page code) into one minified script, and copies the page and its style sheet,
// into dist/console/, which the package ships and `concord serve` serves at /console/.
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
const out = new URL('dist/console/', root);
await mkdir(out, { recursive: true });
await build({
  entryPoints: [new URL('console/src/main.tsx', root).pathname],
  outfile: new URL('console.js', out).pathname,
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome120', 'firefox120', 'safari17'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of ['index.html', 'console.css'])
  await copyFile(new URL(`console/${file}`, root), new URL(file, out));
if (process.argv.includes('--sizes')) {
  for (const file of ['index.html', 'console.js', 'console.css']) {
    console.log(`${file}: ${(await stat(new URL(file, out))).size} bytes`);
  }
}
