//! The file trail: which paths the agent created, edited, moved or deleted, read from the
//! inputs of its edit, write and patch calls, in every agent's shape: `apply_patch`
//! envelopes (Codex, OpenAI's `apply_patch_call`, a patch sent through a shell),
//! `str_replace_based_edit_tool` / `str_replace_editor`, Claude Code's Edit, MultiEdit
//! and Write, Cline's and Roo's, Gemini CLI's and opencode's, and a host's own tools by
//! name. Shell commands (`mv`, `rm`) are read only when a host asks: a command's words are
//! a guess at what it did.

use super::json::{self, Value};

/// What a call did to a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Created,
    /// Written whole: created or overwritten, the tool does not say which.
    Written,
    Edited,
    /// Moved here from the path it holds.
    MovedFrom(String),
    /// Moved away, to the path it holds.
    MovedTo(String),
    Deleted,
}

impl Action {
    /// The words the section shows, and reads back.
    pub fn words(&self) -> String {
        match self {
            Action::Created => "created".into(),
            Action::Written => "written".into(),
            Action::Edited => "edited".into(),
            Action::MovedFrom(p) => format!("moved from {p}"),
            Action::MovedTo(p) => format!("moved to {p}"),
            Action::Deleted => "deleted".into(),
        }
    }

    pub fn read(words: &str) -> Option<Action> {
        Some(match words {
            "created" => Action::Created,
            "written" => Action::Written,
            "edited" => Action::Edited,
            "deleted" => Action::Deleted,
            w => {
                if let Some(p) = w.strip_prefix("moved from ") {
                    Action::MovedFrom(p.into())
                } else {
                    Action::MovedTo(w.strip_prefix("moved to ")?.into())
                }
            }
        })
    }
}

/// One path a call touched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Touch {
    pub path: String,
    pub action: Action,
}

/// How the host asks the trail to be read beyond the known tools.
#[derive(Debug, Clone, Default)]
pub struct Reading<'a> {
    /// The host's own edit tools, by name: their input's path is edited.
    pub tools: &'a [&'a str],
    /// Read `mv` and `rm` in shell commands.
    pub shell: bool,
}

/// Tools whose input names the path it writes whole, edits, or creates.
const WRITES: &[&str] = &[
    "Write",
    "write_to_file",
    "write_file",
    "write",
    "create_file",
];
const EDITS: &[&str] = &[
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "replace_in_file",
    "apply_diff",
    "insert_content",
    "search_and_replace",
    "replace",
    "edit",
    "edit_file",
    "multiedit",
];
/// Keys a tool names its file by.
const PATH_KEYS: &[&str] = &[
    "file_path",
    "path",
    "filePath",
    "notebook_path",
    "target_file",
    "filename",
    "file",
];
/// Tools that run a shell command.
const SHELLS: &[&str] = &[
    "Bash",
    "bash",
    "shell",
    "exec_command",
    "local_shell",
    "run_shell_command",
    "execute_command",
    "run_terminal_cmd",
    "container.exec",
];

/// The paths call `tool` with `input` touched, in order.
pub fn touches(tool: &str, input: &str, how: &Reading<'_>) -> Vec<Touch> {
    let value = json::parse(input);
    let mut out = Vec::new();
    let strings = || {
        let mut all = Vec::new();
        match &value {
            Some(v) => collect_strings(v, &mut all),
            None => all.push(input.to_string()),
        }
        all
    };
    let shell = SHELLS.contains(&tool);
    if tool.contains("patch") || shell || value.is_none() {
        for s in strings() {
            envelope(&s, &mut out);
        }
    }
    let Some(v) = &value else { return out };
    // OpenAI's `apply_patch_call`: its operation names the path.
    if let Some(op) = v.get("operation") {
        let action = match op.str_at(&["type"]) {
            Some("create_file") => Some(Action::Created),
            Some("update_file") => Some(Action::Edited),
            Some("delete_file") => Some(Action::Deleted),
            _ => None,
        };
        if let (Some(action), Some(path)) = (action, op.str_at(&["path"])) {
            out.push(Touch {
                path: path.into(),
                action,
            });
        }
    }
    if matches!(tool, "str_replace_based_edit_tool" | "str_replace_editor")
        || tool.starts_with("text_editor")
    {
        let action = match v.str_at(&["command"]) {
            Some("create") => Some(Action::Created),
            Some("str_replace" | "insert" | "undo_edit") => Some(Action::Edited),
            _ => None,
        };
        if let (Some(action), Some(path)) = (action, v.str_at(&["path"])) {
            out.push(Touch {
                path: path.into(),
                action,
            });
        }
    } else if let Some(action) = if WRITES.contains(&tool) {
        Some(Action::Written)
    } else if EDITS.contains(&tool) || how.tools.contains(&tool) {
        Some(Action::Edited)
    } else {
        None
    } && let Some(path) = v.str_at(PATH_KEYS)
    {
        out.push(Touch {
            path: path.into(),
            action,
        });
    }
    if shell && how.shell {
        for s in strings() {
            commands(&s, &mut out);
        }
    }
    out
}

fn collect_strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Str(s) => out.push(s.clone()),
        Value::Array(items) => {
            // A command as its words (`["bash", "-lc", "…"]`) reads as one line too.
            let words: Vec<&str> = items.iter().filter_map(Value::str).collect();
            if words.len() == items.len() && words.len() > 1 {
                out.push(words.join(" "));
            } else {
                items.iter().for_each(|i| collect_strings(i, out));
            }
        }
        Value::Object(fields) => fields.iter().for_each(|(_, v)| collect_strings(v, out)),
        Value::Other => {}
    }
}

/// The files an `apply_patch` envelope touches (`*** Add File:`, `*** Update File:` with
/// its `*** Move to:`, `*** Delete File:`).
fn envelope(text: &str, out: &mut Vec<Touch>) {
    if !text.contains("*** Begin Patch") {
        return;
    }
    let mut updating: Option<String> = None;
    for line in text.lines() {
        let line = line.trim_end();
        let add = |out: &mut Vec<Touch>, path: &str, action| {
            out.push(Touch {
                path: path.trim().into(),
                action,
            })
        };
        if let Some(p) = line.strip_prefix("*** Add File: ") {
            add(out, p, Action::Created);
            updating = None;
        } else if let Some(p) = line.strip_prefix("*** Delete File: ") {
            add(out, p, Action::Deleted);
            updating = None;
        } else if let Some(p) = line.strip_prefix("*** Update File: ") {
            add(out, p, Action::Edited);
            updating = Some(p.trim().into());
        } else if let Some(to) = line.strip_prefix("*** Move to: ")
            && let Some(from) = updating.take()
        {
            let to = to.trim().to_string();
            out.retain(|t| !(t.path == from && t.action == Action::Edited));
            add(out, &from, Action::MovedTo(to.clone()));
            add(out, &to, Action::MovedFrom(from));
        }
    }
}

/// `mv` and `rm` in a shell command, by their words: `git mv`, `git rm` too.
fn commands(text: &str, out: &mut Vec<Touch>) {
    for command in text.split(['\n', ';', '|', '&']) {
        let words: Vec<String> = command
            .split_whitespace()
            .map(|w| w.trim_matches(['"', '\'']).to_string())
            .collect();
        let mut w: &[String] = &words;
        if w.first().is_some_and(|x| x == "git" || x == "sudo") {
            w = &w[1..];
        }
        let Some((verb, args)) = w.split_first() else {
            continue;
        };
        let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
        match verb.as_str() {
            "rm" | "unlink" | "rmdir" => out.extend(paths.iter().map(|p| Touch {
                path: p.to_string(),
                action: Action::Deleted,
            })),
            "mv" if paths.len() == 2 => {
                out.push(Touch {
                    path: paths[0].to_string(),
                    action: Action::MovedTo(paths[1].to_string()),
                });
                out.push(Touch {
                    path: paths[1].to_string(),
                    action: Action::MovedFrom(paths[0].to_string()),
                });
            }
            _ => {}
        }
    }
}
