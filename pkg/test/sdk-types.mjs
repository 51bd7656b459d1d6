// The block, part and item types the installed SDKs' type definitions (`.d.ts`) define, read
// with TypeScript's parser alone (no type checker: a few hundred milliseconds, not a minute):
// a type alias's union is followed through aliases, arrays and namespaces to interfaces,
// classes and object types, and each gives the string literal of its `type` field.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';

const here = dirname(new URL(import.meta.url).pathname);

/** A package's directory, found as Node finds it from `from` (a dependency's own copy first). */
function packageDir(name, from = here) {
  for (let dir = from; ; dir = dirname(dir)) {
    const at = join(dir, 'node_modules', name);
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed (npm install in pkg/)`);
  }
}

/** Every declaration of `files`, by name; those inside a namespace also as `Namespace.Name`. */
function declarations(files) {
  const out = new Map();
  const add = (name, node) => out.set(name, [...(out.get(name) ?? []), node]);
  for (const file of files) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node, prefix) => {
      if (ts.isModuleDeclaration(node) && node.body && ts.isModuleBlock(node.body)) {
        for (const s of node.body.statements) visit(s, `${prefix}${node.name.text}.`);
        return;
      }
      if ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isClassDeclaration(node)) && node.name) {
        add(node.name.text, node);
        if (prefix) add(`${prefix}${node.name.text}`, node);
      }
    };
    for (const s of sf.statements) visit(s, '');
  }
  return out;
}

const nameOf = (n) => (ts.isIdentifier(n) ? n.text : `${nameOf(n.left)}.${n.right.text}`);

/** The object types (interfaces, classes, type literals) a type node stands for, through unions, aliases and arrays. */
function leaves(decls, node, seen = new Set()) {
  if (!node) return [];
  if (ts.isParenthesizedTypeNode(node)) return leaves(decls, node.type, seen);
  if (ts.isUnionTypeNode(node)) return node.types.flatMap((t) => leaves(decls, t, seen));
  if (ts.isArrayTypeNode(node)) return leaves(decls, node.elementType, seen);
  if (ts.isTypeLiteralNode(node)) return [node];
  if (ts.isTypeReferenceNode(node)) {
    const name = nameOf(node.typeName);
    if ((name === 'Array' || name === 'ReadonlyArray') && node.typeArguments) return leaves(decls, node.typeArguments[0], seen);
    if (seen.has(name)) return [];
    seen.add(name);
    return (decls.get(name) ?? []).flatMap((d) => (ts.isTypeAliasDeclaration(d) ? leaves(decls, d.type, seen) : [d]));
  }
  return [];
}

/** The type node of member `prop` of an object type, through the interfaces it extends. */
function member(decls, node, prop) {
  for (const m of node.members ?? []) {
    if (m.name && ts.isIdentifier(m.name) && m.name.text === prop) return m.type;
  }
  for (const clause of node.heritageClauses ?? []) {
    for (const t of clause.types) {
      for (const base of leaves(decls, ts.factory.createTypeReferenceNode(t.expression.getText()))) {
        const found = member(decls, base, prop);
        if (found) return found;
      }
    }
  }
  return undefined;
}

/** The string literals a type node allows. */
function literals(node) {
  if (!node) return [];
  if (ts.isUnionTypeNode(node)) return node.types.flatMap(literals);
  if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) return [node.literal.text];
  return [];
}

/** The `type` of each object type alias `name` is a union of, in order, once each. */
function typesOf(decls, name, field = 'type') {
  const root = decls.get(name)?.find(ts.isTypeAliasDeclaration);
  if (!root) throw new Error(`no type ${name} in the SDK's definitions`);
  return [...new Set(leaves(decls, root.type).flatMap((d) => literals(member(decls, d, field))))];
}

/** The property names of class or interface `name`. */
function fieldsOf(decls, name) {
  const d = decls.get(name)?.[0];
  if (!d) throw new Error(`no type ${name} in the SDK's definitions`);
  return d.members.filter((m) => (ts.isPropertyDeclaration(m) || ts.isPropertySignature(m)) && m.name && ts.isIdentifier(m.name)).map((m) => m.name.text);
}

/** The AI SDK's `ModelMessage` part types, by role, of the `ai` package installed as `name`. */
function aiSdkParts(name) {
  const dir = packageDir(name);
  const utils = packageDir('@ai-sdk/provider-utils', dir);
  const decls = declarations([join(utils, 'dist/index.d.ts')]);
  const out = {};
  for (const message of leaves(decls, decls.get('ModelMessage')[0].type)) {
    const role = literals(member(decls, message, 'role'))[0];
    out[role] = [...new Set(leaves(decls, member(decls, message, 'content')).flatMap((d) => literals(member(decls, d, 'type'))))];
  }
  return out;
}

/** What each SDK installed in `pkg/node_modules` defines, in the fixture's shape. */
export function sdkTypes() {
  const anthropic = packageDir('anthropic-sdk-newest');
  const openai = packageDir('openai-newest');
  const genai = packageDir('@google/genai');
  const vscode = packageDir('@types/vscode');
  const a = declarations([join(anthropic, 'resources/messages/messages.d.ts')]);
  const beta = declarations([join(anthropic, 'resources/beta/messages/messages.d.ts')]);
  const chat = declarations([join(openai, 'resources/chat/completions/completions.d.ts')]);
  const responses = declarations([join(openai, 'resources/responses/responses.d.ts')]);
  const gemini = declarations([join(genai, 'dist/genai.d.ts')]);
  const code = declarations([join(vscode, 'index.d.ts')]);
  const content = code.get('LanguageModelChatMessage').flatMap((d) => d.members).find((m) => m.name?.getText() === 'content');
  const ai = aiSdkParts('ai');
  const ai7 = aiSdkParts('ai-7');
  const union = (role) => [...new Set([...(ai[role] ?? []), ...(ai7[role] ?? [])])];
  return {
    anthropic: {
      ContentBlockParam: typesOf(a, 'ContentBlockParam'),
      BetaContentBlockParam: typesOf(beta, 'BetaContentBlockParam'),
    },
    'openai-chat': {
      ChatCompletionMessageParam: typesOf(chat, 'ChatCompletionMessageParam', 'role'),
      ChatCompletionContentPart: typesOf(chat, 'ChatCompletionContentPart'),
    },
    'openai-responses': { ResponseInputItem: typesOf(responses, 'ResponseInputItem') },
    gemini: { Part: fieldsOf(gemini, 'Part') },
    'ai-sdk': { system: union('system'), user: union('user'), assistant: union('assistant'), tool: union('tool') },
    vscode: { LanguageModelChatMessageContent: leaves(code, content.type).map((d) => d.name.text) },
  };
}

/** The versions the list was read from. */
export function sdkVersions() {
  const version = (name) => JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')).version;
  return Object.fromEntries(['anthropic-sdk-newest', 'openai-newest', '@google/genai', 'ai', 'ai-7', '@types/vscode'].map((n) => [n, version(n)]));
}

