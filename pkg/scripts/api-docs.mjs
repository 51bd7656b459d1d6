// Writes the API reference, docs/api/ (Markdown), with TypeDoc from the built declarations
// of every entry (pkg/dist/<entry>.d.ts): what a host sees, JSDoc and examples included.
// The build runs it last (pkg/scripts/build.mjs); git ignores its output and the package
// does not ship it, the `.d.ts` being the reference a host reads (ADR 0010);
// packaging/api-docs.test.mjs checks it against the declarations. TypeDoc's validation
// fails the build on a `{@link}` to nothing. Alone, it builds nothing: run
// `bash scripts/build.sh` first.
//
//   node pkg/scripts/api-docs.mjs
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application } from 'typedoc';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(pkgDir, '..', 'docs', 'api');
/** Every entry of package.json's `exports` that has declarations, as `dist/<name>.d.ts`. */
const { exports } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const entries = Object.keys(exports)
  .filter((key) => key === '.' || !/\.(wasm|json)$|\*/.test(key))
  .map((key) => (key === '.' ? 'index' : key.slice(2)));
const files = entries.map((e) => join(pkgDir, 'dist', `${e}.d.ts`));
for (const file of files) {
  if (!existsSync(file)) {
    console.error(`${file} is missing: run \`bash scripts/build.sh\` first`);
    process.exit(1);
  }
}

// The declarations import each other as `@devs/context`, which resolves to this package
// through its "exports" under NodeNext resolution.
const scratch = mkdtempSync(join(tmpdir(), 'devs-context-api-docs-'));
const tsconfig = join(scratch, 'tsconfig.json');
writeFileSync(tsconfig, JSON.stringify({
  compilerOptions: {
    target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true,
    lib: ['es2022', 'esnext.disposable', 'dom'], types: [], typeRoots: [join(pkgDir, 'node_modules/@types')],
    skipLibCheck: true,
  },
  files,
}));

try {
  const app = await Application.bootstrapWithPlugins({
    entryPoints: files,
    tsconfig,
    plugin: ['typedoc-plugin-markdown'],
    out,
    readme: 'none',
    name: '@devs/context API',
    disableSources: true,
    excludePrivate: true,
    excludeInternal: true,
    hideGenerator: true,
    sort: ['kind', 'alphabetical'],
    validation: { notExported: false, invalidLink: true, rewrittenLink: true },
    logLevel: 'Warn',
  });
  const project = await app.convert();
  if (!project) throw new Error('TypeDoc could not convert the declarations');
  // Name each module as a host imports it.
  for (const mod of project.children ?? []) {
    mod.name = mod.name === 'index' ? '@devs/context' : `@devs/context/${mod.name}`;
  }
  app.validate(project);
  if (app.logger.hasErrors()) throw new Error('TypeDoc reported errors');
  await app.generateOutputs(project);
  console.log(`wrote ${out}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
