// Cline's dialect of Anthropic messages (`api_conversation_history.json`): tool uses are
// XML-like tags in the assistant's text, results are text blocks headed
// `[tool for 'x'] Result:` (or `<function_results>`), also for native tool_use blocks;
// `summarize_task` / `condense` mark a compaction. The reader is `anthropic()`
// (anthropic.ts); this file is what it and the detection know of the dialect.
import { isBag } from './shared.js';
import type { Bag } from './shared.js';

/** Tools Cline (and its fork Roo Code) call with XML-like tags in the assistant's text. */
const CLINE_TOOLS = new Set([
  'execute_command', 'read_file', 'write_to_file', 'replace_in_file', 'search_files', 'list_files',
  'list_code_definition_names', 'browser_action', 'use_mcp_tool', 'access_mcp_resource',
  'ask_followup_question', 'plan_mode_respond', 'act_mode_respond', 'load_mcp_documentation',
  'attempt_completion', 'new_task', 'condense', 'summarize_task', 'report_bug', 'new_rule', 'web_fetch',
  'web_search', 'apply_patch', 'use_skill',
  // Roo Code
  'apply_diff', 'insert_content', 'search_and_replace', 'switch_mode', 'codebase_search',
  'fetch_instructions', 'update_todo_list', 'run_slash_command', 'generate_image',
]);
/** Parameters whose value may hold its own closing tag (file contents, diffs). */
const CLINE_LONG_PARAMS = new Set(['content', 'diff', 'result', 'context', 'response', 'todos']);
/** Tools whose call compacts Cline's context: their `context` is the summary. */
export const CLINE_COMPACTIONS = new Set(['summarize_task', 'condense']);
const PARAM_TAG = /^<([A-Za-z_][\w-]*)>/;

interface ClineTool {
  name: string;
  params: Record<string, string>;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i] as string)) i += 1;
  return i;
}

/** The tool uses in an assistant text and the text around them. */
export function parseClineText(text: string): { text: string; tools: ClineTool[] } {
  const tools: ClineTool[] = [];
  if (!text.includes('</')) return { text, tools };
  const open = /<([a-z_]+)>/g;
  let out = '';
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = open.exec(text)) !== null) {
    const toolName = m[1] as string;
    if (!CLINE_TOOLS.has(toolName)) continue;
    const closeTag = `</${toolName}>`;
    const params: Record<string, string> = {};
    let p = m.index + m[0].length;
    let end: number;
    for (;;) {
      p = skipSpace(text, p);
      if (text.startsWith(closeTag, p)) {
        end = p + closeTag.length;
        break;
      }
      const pm = PARAM_TAG.exec(text.slice(p, p + 80));
      if (!pm) {
        const c = text.indexOf(closeTag, p);
        end = c < 0 ? text.length : c + closeTag.length;
        break;
      }
      const param = pm[1] as string;
      const valueStart = p + pm[0].length;
      const paramClose = `</${param}>`;
      let valueEnd = text.indexOf(paramClose, valueStart);
      if (valueEnd >= 0 && CLINE_LONG_PARAMS.has(param)) {
        // The value may hold its own closing tag: take the first one followed by another
        // parameter or the tool's closing tag.
        for (let at = valueEnd; at >= 0; at = text.indexOf(paramClose, at + 1)) {
          const after = skipSpace(text, at + paramClose.length);
          if (text.startsWith(closeTag, after) || PARAM_TAG.test(text.slice(after, after + 80))) {
            valueEnd = at;
            break;
          }
        }
      }
      if (valueEnd < 0) {
        params[param] = text.slice(valueStart).trim(); // cut off: the rest is the value
        end = text.length;
        break;
      }
      params[param] = text.slice(valueStart, valueEnd).trim();
      p = valueEnd + paramClose.length;
    }
    tools.push({ name: toolName, params });
    out += text.slice(last, m.index);
    last = end;
    open.lastIndex = end;
  }
  if (tools.length === 0) return { text, tools };
  out += text.slice(last);
  return { text: out.trim(), tools };
}

/** `[tool for 'x'] Result:` at the start of a text block: the tool's name and where the output starts. */
export function clineHeader(text: string): { name: string; rest: number } | undefined {
  if (text[0] !== '[') return undefined;
  const m = /^\[([a-z_]+)[\] ]/.exec(text);
  if (!m) return undefined;
  const at = text.indexOf('] Result:');
  if (at < 0) return undefined;
  return { name: m[1] as string, rest: at + '] Result:'.length };
}

export const CLINE_ERROR = /^(?:The tool execution failed|The user denied this operation|Error[ :]|Missing value for required parameter|Unknown tool)/;
export const CLINE_SKIPPED = /^(?:Skipping tool[^[]*\[([a-z_]+)|Tool was interrupted[^[]*\[([a-z_]+)|Tool \[([a-z_]+)[^\]]*\] was (?:not executed|interrupted))/;
/** Text blocks of a user message that are no tool's output. */
export const CLINE_USER_TEXT = /^(?:<environment_details>|#\s*task_progress|#\s*TODO LIST|\[TASK RESUMPTION\]|The user provided (?:the following feedback|additional content)|<hook_context)/;

/** The name a result's header gives a call: native MCP calls are `<server>0mcp0<tool>`. */
export function clineName(name: string): string {
  return name.includes('0mcp0') ? 'use_mcp_tool' : name;
}

export function looksCline(role: unknown, content: unknown): boolean {
  const texts: string[] = typeof content === 'string' ? [content]
    : Array.isArray(content) ? content.filter((b) => isBag(b) && b.type === 'text' && typeof b.text === 'string').map((b) => (b as Bag).text as string)
      : [];
  for (const t of texts) {
    if (role === 'user') {
      if (t.startsWith('<task>') || t.includes('<environment_details>') || clineHeader(t) !== undefined) return true;
    } else if (role === 'assistant' && parseClineText(t).tools.length > 0) {
      return true;
    }
  }
  return false;
}
