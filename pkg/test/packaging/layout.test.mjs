// The layout shows the architecture, and stays that way: the shell's modules import one
// another without a loop (type-only imports count: a loop of types is still two files that
// cannot be read apart), each folder of pkg/src is one product or contract, and no source
// file grows past 600 lines (generated tables aside). Read from the repository itself.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from './harness.mjs';

const src = join(repoRoot, 'pkg/src');
const MAX_LINES = 600;

function walk(dir, keep) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'target' || name === 'dist' || name === 'fixtures') return [];
    return statSync(path).isDirectory() ? walk(path, keep) : keep(path) ? [path] : [];
  });
}

/** Every relative import, `export … from` and `import()` of a module, as the file it names. */
export function importsOf(file, text = readFileSync(file, 'utf8')) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found = [];
  for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = resolve(dirname(file), m[1]).replace(/\.js$/, '.ts');
    if (target.startsWith(src) && existsSync(target)) found.push(target);
  }
  return found;
}

/** The strongly connected components of more than one module (or a module importing itself). */
export function loops(graph) {
  let index = 0;
  const stack = [];
  const state = new Map();
  const found = [];
  const visit = (node) => {
    const me = { index, low: index, onStack: true };
    index++;
    state.set(node, me);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const other = state.get(next);
      if (other === undefined) {
        visit(next);
        me.low = Math.min(me.low, state.get(next).low);
      } else if (other.onStack) {
        me.low = Math.min(me.low, other.index);
      }
    }
    if (me.low === me.index) {
      const component = [];
      let n;
      do {
        n = stack.pop();
        state.get(n).onStack = false;
        component.push(n);
      } while (n !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.reverse());
    }
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('the layout', () => {
  const modules = walk(src, (p) => p.endsWith('.ts'));
  const graph = new Map(modules.map((m) => [m, importsOf(m)]));

  it('reads every import of the shell (the graph is not empty)', () => {
    assert.ok(modules.length > 40, `only ${modules.length} modules under pkg/src`);
    const edges = [...graph.values()].reduce((n, list) => n + list.length, 0);
    assert.ok(edges > modules.length, `only ${edges} imports among ${modules.length} modules`);
    // The entry reaches the manager (through its constructor's types), and the manager the engine: the reader follows folders.
    assert.ok(graph.get(join(src, 'index.ts')).includes(join(src, 'context/manager-api.ts')));
    assert.ok(graph.get(join(src, 'context/manager-api.ts')).includes(join(src, 'context/manager.ts')));
    assert.ok(graph.get(join(src, 'context/manager.ts')).includes(join(src, 'context/engine.ts')));
  });

  it('finds a loop where there is one (the check can fail)', () => {
    const a = '/x/a.ts', b = '/x/b.ts', c = '/x/c.ts';
    assert.deepEqual(loops(new Map([[a, [b]], [b, [c]], [c, [a]]])), [[a, b, c]]);
    assert.deepEqual(loops(new Map([[a, [b]], [b, [c]], [c, []]])), []);
    assert.deepEqual(importsOf(join(src, 'x.ts'), "import type { A } from './index.js';\n// import { B } from './core/read.js';\n"), [join(src, 'index.ts')]);
  });

  it('has no import loop in pkg/src, type-only imports included', () => {
    const found = loops(graph).map((c) => c.map((m) => relative(src, m)).join(' → '));
    assert.deepEqual(found, [], `import loops:\n${found.join('\n')}`);
  });

  it('keeps each folder of pkg/src to one product or contract', () => {
    const folders = readdirSync(src).filter((n) => statSync(join(src, n)).isDirectory()).sort();
    assert.deepEqual(folders, ['adapters', 'context', 'core', 'entries', 'errors', 'eval', 'providers', 'replay', 'seeds', 'stores', 'tokens']);
    const loose = readdirSync(src).filter((n) => statSync(join(src, n)).isFile());
    assert.deepEqual(loose, ['index.ts'], 'only the entry of the shell sits at the top of pkg/src');
  });

  it("gives the adapters one internal door: each imports only its own folder and the kit", () => {
    const adapters = join(src, 'adapters');
    const kit = join(adapters, 'kit');
    const strays = [];
    for (const [file, imports] of graph) {
      if (!file.startsWith(adapters + '/')) continue;
      const own = file.startsWith(kit + '/') ? null : join(adapters, relative(adapters, file).split('/')[0]);
      for (const target of imports) {
        // The kit may use the shell's own modules (the queue, the errors); an adapter only the kit and itself.
        const allowed = own === null ? !target.startsWith(adapters + '/') || target.startsWith(kit + '/') : target.startsWith(own + '/') || target.startsWith(kit + '/');
        if (!allowed) strays.push(`${relative(src, file)} → ${relative(src, target)}`);
      }
    }
    assert.deepEqual(strays, [], `adapter imports past the kit:\n${strays.join('\n')}`);
    assert.ok(existsSync(join(kit, 'options.ts')) && [...graph.keys()].some((f) => f.startsWith(join(adapters, 'mastra'))), 'the reader sees the kit and the adapters');
  });

  it(`keeps every source file to ${MAX_LINES} lines`, () => {
    const roots = ['pkg/src', 'pkg/scripts', 'pkg/test', 'src', 'crates', 'tests', 'bench', 'scripts', 'www'];
    const files = roots.filter((r) => existsSync(join(repoRoot, r)))
      .flatMap((r) => walk(join(repoRoot, r), (p) => /\.(rs|ts|mts|mjs|cjs|js|sh)$/.test(p)));
    assert.ok(files.length > 100, `only ${files.length} source files found`);
    const long = files
      .map((f) => ({ file: relative(repoRoot, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
      // Generated tables say so on their first line.
      .filter(({ file, lines }) => lines > MAX_LINES && !/generated/i.test(readFileSync(join(repoRoot, file), 'utf8').split('\n', 1)[0]));
    assert.deepEqual(long, [], long.map((l) => `${l.file}: ${l.lines} lines`).join('\n'));
  });
});
