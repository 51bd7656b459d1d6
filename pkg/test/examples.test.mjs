// Every `@example` in the built declarations compiles: each block is written, as it is, into
// its own module of a scratch TypeScript project that depends on this package by name, and
// `tsc --noEmit --strict` must accept them all. The few values a host already holds (its
// LLM client, its turns, an envelope) are declared once in `host.d.ts` below.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { allModules, pkgDir, scratchProject, typeErrors } from './type-check.mjs';

const ENTRIES = ['index', 'tokenizers', 'sqlite', 'postgres', 'testing', 'replay', 'slim', 'ai-sdk', 'langchain', 'openai-agents', 'mastra', 'tanstack-ai'];

/** The values the examples take from their host, not from the package. */
const HOST = `import type { AgentTurn, SaopEnvelope, ToolOutputEntry, TurnEntry } from '@devs/context';
declare global {
  /** The host's LLM client. */
  const llm: { generate(prompt: string): Promise<string> };
  /** The TAS and PRD summaries the host loaded. */
  const tasSummary: string;
  const prdSummary: string;
  /** The conversation so far. */
  const turns: TurnEntry[];
  const agentTurns: AgentTurn[];
  /** The agent's latest structured turn, and a tool output waiting in the context. */
  const envelope: SaopEnvelope;
  const entry: ToolOutputEntry;
  /** One line of a SAOP JSONL log. */
  const line: string;
}
export {};
`;

/** `[{ entry, name, code }]`: every `@example` block of the built `.d.ts` files, in order. */
function extractExamples() {
  const examples = [];
  for (const entry of ENTRIES) {
    const dts = readFileSync(join(pkgDir, 'dist', `${entry}.d.ts`), 'utf8');
    for (const match of dts.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
      const lines = match[1].split('\n').map((l) => l.replace(/^\s*\* ?/, ''));
      // What the comment documents: the first declaration after it.
      const after = dts.slice(match.index + match[0].length).match(/^\s*(?:export )?(?:declare )?(?:(?:class|function|const|type|interface) )?([\w$]+)/);
      const name = after ? after[1] : '?';
      for (let i = 0; i < lines.length; i++) {
        if (!/^\s*@example\b/.test(lines[i])) continue;
        const code = [];
        for (i++; i < lines.length && !/^\s*@\w+/.test(lines[i]); i++) code.push(lines[i]);
        i--;
        examples.push({ entry, name, code: code.join('\n').trim() + '\n' });
      }
    }
  }
  return examples;
}

/** A scratch project with `examples` as modules; returns its directory and file names. */
function project(examples) {
  const files = { 'host.d.ts': HOST };
  const names = examples.map((ex, i) => {
    const file = `example-${String(i + 1).padStart(2, '0')}-${ex.entry}-${ex.name}.ts`;
    // `export {}` makes each file a module even without an import (top-level await, own scope).
    files[file] = `${ex.code}\nexport {};\n`;
    return file;
  });
  // The package's own dependencies beside it: the adapters' examples import their framework.
  const dir = scratchProject('examples', {
    modules: allModules(),
    compilerOptions: {
      target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true,
      lib: ['es2022', 'esnext.disposable', 'dom'], types: ['node'], skipLibCheck: false,
    },
    files,
  });
  return { dir, files: names };
}

it('every class in the declarations has an @example', () => {
  const examples = extractExamples();
  for (const entry of ENTRIES) {
    const dts = readFileSync(join(pkgDir, 'dist', `${entry}.d.ts`), 'utf8');
    for (const [, name] of dts.matchAll(/^export declare class (\w+)/gm)) {
      assert.ok(examples.some((ex) => ex.entry === entry && ex.name === name), `${entry}.d.ts: class ${name} has no @example`);
    }
  }
});

it('every @example imports the package by name', () => {
  const examples = extractExamples();
  assert.ok(examples.length >= 25, `only ${examples.length} examples found: is the extraction broken?`);
  for (const ex of examples) {
    assert.match(ex.code, /from '@devs\/context(\/[\w-]+)?'/, `${ex.entry}.d.ts ${ex.name}: the example does not import '@devs/context'`);
  }
});

it('every @example type-checks with tsc --strict against the built package', () => {
  const examples = extractExamples();
  const { dir, files } = project(examples);
  try {
    const output = typeErrors(dir, ['--noEmit', '--strict']);
    if (output !== null) {
      const failing = files.filter((f) => output.includes(f));
      const shown = failing.map((f) => `--- ${f}\n${readFileSync(join(dir, f), 'utf8')}`).join('\n');
      assert.fail(`examples that do not compile:\n${output}\n${shown}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
