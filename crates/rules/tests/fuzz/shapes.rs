//! Random provider items, as each format's reader (`pkg/src/providers/*/read.ts`) maps them
//! to the rules' parts: the same kinds, in the same places, with the same ids and names.
//! A generator keeps what a host's conversation would (the calls waiting for results), so
//! most sequences are valid; a few are not, as a host's can be, and are refused.

use devs_context_rules::context::{Kind, Role};

use super::Rng;

/// The package's formats (`FORMATS` in `pkg/src/providers/index.ts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Anthropic,
    OpenAiChat,
    OpenAiResponses,
    AiSdk,
    Vscode,
    Gemini,
}

pub const FORMATS: [Format; 6] = [
    Format::Anthropic,
    Format::OpenAiChat,
    Format::OpenAiResponses,
    Format::AiSdk,
    Format::Vscode,
    Format::Gemini,
];

impl Format {
    /// Tokens the adapter adds around a message and each part (`framing` of its adapter).
    pub fn framing(self) -> (f64, f64) {
        match self {
            Format::OpenAiChat | Format::OpenAiResponses => (4.0, 1.0),
            _ => (3.0, 1.0),
        }
    }
}

/// A part as an adapter reads it (`NeutralPart`): what the shell counts and pairs.
#[derive(Debug, Clone, PartialEq)]
pub struct GPart {
    pub kind: Kind,
    pub text: String,
    /// Tokens of what no counter reads (a signature, encrypted content, an image's bill).
    pub stated: f64,
    /// A call's tool name, a result's (Gemini's, the AI SDK's), a block's type.
    pub label: String,
    /// A call's id, or the id of the call a result (or an image inside one) answers.
    pub id: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Msg {
    pub role: Role,
    pub parts: Vec<GPart>,
}

/// The tools calls are made to: `todo` is the protected one, when the config protects.
const TOOLS: [&str; 4] = ["bash", "read_file", "todo", "edit"];

/// What the conversation holds so far, as the generator needs it.
#[derive(Debug, Default)]
pub struct Convo {
    next: u32,
    /// Client calls of the last assistant turn with no result yet: `(id, name)`.
    open: Vec<(Option<String>, String)>,
    /// A server call of the last assistant message whose result comes in the next one.
    server_open: Option<String>,
    last: Option<Role>,
}

fn part(kind: Kind, text: String, label: &str, id: Option<String>) -> GPart {
    GPart {
        kind,
        text,
        stated: 0.0,
        label: label.to_string(),
        id,
    }
}

/// A text of a random size: mostly short, some long, a few past any budget, some empty;
/// with paths (the index's names), and now and then characters outside the BMP.
pub fn text(rng: &mut Rng) -> String {
    let n = match rng.below(100) {
        0..=4 => 0,
        5..=64 => 1 + rng.index(200),
        65..=89 => 200 + rng.index(5_000),
        90..=97 => 5_000 + rng.index(60_000),
        _ => 100_000 + rng.index(300_000),
    };
    let words = [
        "src/main.rs ",
        "the parser ",
        "fn run() {} ",
        "error[E0308] ",
        "ok ",
        "𝄞é ",
        "\n",
    ];
    let mut out = String::with_capacity(n + 16);
    while out.len() < n {
        out.push_str(words[rng.index(words.len())]);
    }
    out
}

fn media(rng: &mut Rng, kind: Kind, id: Option<String>) -> GPart {
    let stated = match (kind, rng.below(20)) {
        (Kind::Image, 0) => 40_000.0,
        (Kind::Image, _) => 85.0 + rng.index(3_000) as f64,
        (_, 0) => 150_000.0,
        _ => 1_000.0 + rng.index(20_000) as f64,
    };
    GPart {
        stated,
        ..part(kind, String::new(), "image/png", id)
    }
}

fn opaque(rng: &mut Rng, label: &str) -> GPart {
    GPart {
        stated: [0.0, 1_600.0, rng.index(4_000) as f64][rng.index(3)],
        ..part(Kind::Opaque, text(rng), label, None)
    }
}

impl Convo {
    fn id(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    fn tool(rng: &mut Rng) -> &'static str {
        TOOLS[rng.index(TOOLS.len())]
    }

    /// A client call; Gemini's may have no id (`with_id` false).
    fn call(&mut self, rng: &mut Rng, prefix: &str, with_id: bool) -> GPart {
        let name = Self::tool(rng);
        let id = with_id.then(|| self.id(prefix));
        self.open.push((id.clone(), name.to_string()));
        // JSON as a tool takes it, or (a custom tool's input) any text.
        let input = if rng.below(3) == 0 {
            text(rng)
        } else {
            serde_json::json!({ "cmd": text(rng), "n": 1 }).to_string()
        };
        part(Kind::Call, input, name, id)
    }

    /// The results of the open calls, in order, most of them; `labelled`: the result names
    /// its tool (Gemini's, the AI SDK's). Images and documents inside some.
    fn results(&mut self, rng: &mut Rng, labelled: bool, inner_media: bool) -> Vec<GPart> {
        let open = std::mem::take(&mut self.open);
        let mut out = Vec::new();
        for (id, name) in open {
            // A call left unanswered now and then: the request marks it.
            if rng.below(12) == 0 {
                continue;
            }
            let label = if labelled { name.as_str() } else { "" };
            out.push(part(Kind::Result, text(rng), label, id.clone()));
            if inner_media && id.is_some() && rng.below(6) == 0 {
                let kind = [Kind::Image, Kind::Document][rng.index(2)];
                for _ in 0..1 + rng.index(3) {
                    out.push(media(rng, kind, id.clone()));
                }
            }
        }
        if rng.below(10) == 0 {
            out.reverse();
        }
        out
    }

    /// A user turn's own parts: texts, images, documents.
    fn user_parts(&mut self, rng: &mut Rng, opaque_label: &str) -> Vec<GPart> {
        (0..1 + rng.index(3))
            .map(|_| match rng.below(20) {
                0..=13 => part(Kind::Text, text(rng), "", None),
                14..=15 => media(rng, Kind::Image, None),
                16..=17 => media(rng, Kind::Document, None),
                _ => opaque(rng, opaque_label),
            })
            .collect()
    }

    /// The next message(s) of format `f`: what a host appends in one call.
    pub fn next(&mut self, rng: &mut Rng, f: Format) -> Vec<Msg> {
        let answer = !self.open.is_empty() && rng.below(8) != 0;
        let assistant_turn = !answer && self.last != Some(Role::Assistant) && rng.below(5) < 3
            || self.server_open.is_some() && rng.below(3) != 0;
        let out = if answer {
            self.answer(rng, f)
        } else if assistant_turn || self.last == Some(Role::User) && rng.below(4) != 0 {
            self.assistant(rng, f)
        } else {
            self.user(rng, f)
        };
        self.last = out.last().map(|m| m.role);
        if out.iter().any(|m| m.role != Role::Assistant) {
            // Anything else closes the turn: its open calls stay without results.
            self.open.clear();
            self.server_open = None;
        }
        out
    }

    fn user(&mut self, rng: &mut Rng, f: Format) -> Vec<Msg> {
        let role = match f {
            Format::OpenAiChat | Format::OpenAiResponses | Format::AiSdk if rng.below(8) == 0 => {
                Role::System
            }
            _ => Role::User,
        };
        let parts = if role == Role::System {
            vec![part(Kind::Text, text(rng), "", None)]
        } else {
            let label = match f {
                Format::Anthropic => "container_upload",
                Format::OpenAiChat => "input_audio",
                Format::OpenAiResponses => "input_audio",
                _ => "part",
            };
            let mut parts = self.user_parts(rng, label);
            if f == Format::OpenAiResponses && rng.below(10) == 0 {
                // `additional_tools`: a system item of the host's.
                return vec![Msg {
                    role: Role::System,
                    parts: vec![opaque(rng, "additional_tools")],
                }];
            }
            if f == Format::OpenAiChat {
                parts.retain(|p| p.kind != Kind::Opaque || rng.below(2) == 0);
                if parts.is_empty() {
                    parts.push(part(Kind::Text, text(rng), "", None));
                }
            }
            parts
        };
        vec![Msg { role, parts }]
    }

    /// The results of the open calls, as the format carries them.
    fn answer(&mut self, rng: &mut Rng, f: Format) -> Vec<Msg> {
        match f {
            Format::Anthropic | Format::Vscode => {
                let mut parts = self.results(rng, false, true);
                if rng.below(4) == 0 {
                    parts.push(part(Kind::Text, text(rng), "", None));
                }
                nonempty(vec![Msg {
                    role: Role::User,
                    parts,
                }])
            }
            Format::Gemini => {
                // A response with no id is paired by name; with images inside when it has one.
                let parts = self.results(rng, true, true);
                nonempty(vec![Msg {
                    role: Role::User,
                    parts,
                }])
            }
            Format::OpenAiChat | Format::OpenAiResponses => {
                let responses = f == Format::OpenAiResponses;
                let results = self.results(rng, false, responses);
                // One tool message (or output item) per result; an item's images follow it.
                let mut out: Vec<Msg> = Vec::new();
                for p in results {
                    if p.kind.media()
                        && let Some(last) = out.last_mut()
                    {
                        last.parts.push(p);
                    } else {
                        out.push(Msg {
                            role: Role::Tool,
                            parts: vec![p],
                        });
                    }
                }
                out
            }
            Format::AiSdk => {
                let parts = self.results(rng, true, true);
                nonempty(vec![Msg {
                    role: Role::Tool,
                    parts,
                }])
            }
        }
    }

    fn assistant(&mut self, rng: &mut Rng, f: Format) -> Vec<Msg> {
        match f {
            Format::Anthropic => vec![self.anthropic(rng)],
            Format::OpenAiChat => {
                let mut parts = Vec::new();
                if rng.below(3) != 0 {
                    parts.push(part(Kind::Text, text(rng), "", None));
                }
                if parts.is_empty() || rng.below(2) == 0 {
                    for _ in 0..1 + rng.index(3) {
                        parts.push(self.call(rng, "call_", true));
                    }
                }
                vec![Msg {
                    role: Role::Assistant,
                    parts,
                }]
            }
            Format::OpenAiResponses => self.responses(rng),
            Format::AiSdk => vec![self.ai_sdk(rng)],
            Format::Vscode => {
                let mut parts = vec![part(Kind::Text, text(rng), "", None)];
                if rng.below(2) == 0 {
                    for _ in 0..1 + rng.index(3) {
                        parts.push(self.call(rng, "vs_", true));
                    }
                }
                vec![Msg {
                    role: Role::Assistant,
                    parts,
                }]
            }
            Format::Gemini => {
                let mut parts = Vec::new();
                for _ in 0..1 + rng.index(4) {
                    parts.push(match rng.below(10) {
                        0 => part(Kind::Thinking, text(rng), "", None),
                        // A text with its `thoughtSignature`: kept whole.
                        1 => GPart {
                            stated: 60.0,
                            ..part(Kind::Opaque, text(rng), "", None)
                        },
                        2 => opaque(rng, "executableCode"),
                        3..=5 => part(Kind::Text, text(rng), "", None),
                        _ => {
                            let with_id = rng.below(2) == 0;
                            self.call(rng, "gem_", with_id)
                        }
                    });
                }
                vec![Msg {
                    role: Role::Assistant,
                    parts,
                }]
            }
        }
    }

    /// An Anthropic assistant message: signed thinking, texts, calls, server tools with
    /// their results in the same message (or the next, after a pause), the provider's
    /// compaction anywhere, blocks of its own.
    fn anthropic(&mut self, rng: &mut Rng) -> Msg {
        let mut parts = Vec::new();
        if let Some(id) = self.server_open.take() {
            parts.push(part(
                Kind::Result,
                text(rng),
                "web_search_tool_result",
                Some(id),
            ));
        }
        if rng.below(3) == 0 {
            parts.push(if rng.below(4) == 0 {
                GPart {
                    stated: rng.index(2_000) as f64,
                    ..part(Kind::Thinking, String::new(), "", None)
                }
            } else {
                part(Kind::Thinking, text(rng), "", None)
            });
        }
        for _ in 0..1 + rng.index(4) {
            match rng.below(20) {
                0..=6 => parts.push(part(Kind::Text, text(rng), "", None)),
                7..=10 => parts.push(self.call(rng, "toolu_", true)),
                11..=13 => {
                    let id = self.id("srvtoolu_");
                    parts.push(part(
                        Kind::ServerCall,
                        text(rng),
                        "web_search",
                        Some(id.clone()),
                    ));
                    match rng.below(6) {
                        // Paused: the result comes in the next assistant message.
                        0 => self.server_open = Some(id),
                        // Encrypted, or an error: kept whole, with no id.
                        1 => parts.push(opaque(rng, "code_execution_tool_result")),
                        2 => {
                            parts.push(part(
                                Kind::Result,
                                text(rng),
                                "web_fetch_tool_result",
                                Some(id.clone()),
                            ));
                            parts.push(media(rng, Kind::Document, Some(id)));
                        }
                        _ => parts.push(part(
                            Kind::Result,
                            text(rng),
                            "web_search_tool_result",
                            Some(id),
                        )),
                    }
                }
                14..=15 => parts.push(GPart {
                    stated: 10.0 + rng.index(3_000) as f64,
                    ..part(Kind::Compaction, text(rng), "compaction", None)
                }),
                16 => parts.push(opaque(rng, "container_upload")),
                17 => parts.push(part(Kind::Text, text(rng), "", None)),
                _ => {
                    let id = self.id("mcptoolu_");
                    parts.push(part(Kind::ServerCall, text(rng), "mcp", Some(id.clone())));
                    parts.push(part(Kind::Result, text(rng), "mcp_tool_result", Some(id)));
                }
            }
        }
        Msg {
            role: Role::Assistant,
            parts,
        }
    }

    /// Responses items: one message each, the assistant's joined into one turn.
    fn responses(&mut self, rng: &mut Rng) -> Vec<Msg> {
        let mut out = Vec::new();
        let one = |parts| Msg {
            role: Role::Assistant,
            parts,
        };
        if let Some(id) = self.server_open.take() {
            out.push(one(vec![part(
                Kind::Result,
                text(rng),
                "tool_search",
                Some(id),
            )]));
        }
        for _ in 0..1 + rng.index(4) {
            let item = match rng.below(20) {
                0..=3 => vec![part(Kind::Text, text(rng), "", None)],
                4..=5 => vec![opaque(rng, "reasoning")],
                6..=9 => vec![self.call(rng, "fc_", true)],
                10 => vec![GPart {
                    stated: 10.0 + rng.index(3_000) as f64,
                    ..part(Kind::Compaction, String::new(), "compaction", None)
                }],
                11..=12 => {
                    let id = self.id("mcp_");
                    let mut item = vec![
                        part(
                            Kind::ServerCall,
                            text(rng),
                            "code_interpreter",
                            Some(id.clone()),
                        ),
                        part(Kind::Result, text(rng), "", Some(id.clone())),
                    ];
                    if rng.below(3) == 0 {
                        item.push(media(rng, Kind::Image, Some(id)));
                    }
                    item
                }
                13 => {
                    let id = self.id("ws_");
                    vec![part(Kind::ServerCall, text(rng), "web_search", Some(id))]
                }
                14 => {
                    let id = self.id("ts_");
                    self.server_open = Some(id.clone());
                    vec![part(Kind::ServerCall, text(rng), "tool_search", Some(id))]
                }
                15 => vec![media(rng, Kind::Image, None)],
                16 => vec![GPart {
                    stated: 1_600.0,
                    ..part(Kind::Opaque, String::new(), "item_reference", None)
                }],
                _ => vec![opaque(rng, "mcp_list_tools")],
            };
            out.push(one(item));
        }
        out
    }

    /// An AI SDK assistant message: reasoning, texts, calls, provider-executed calls with
    /// their results beside them, approval requests.
    fn ai_sdk(&mut self, rng: &mut Rng) -> Msg {
        let mut parts = Vec::new();
        for _ in 0..1 + rng.index(4) {
            match rng.below(12) {
                0..=1 => parts.push(part(Kind::Thinking, text(rng), "", None)),
                2..=4 => parts.push(part(Kind::Text, text(rng), "", None)),
                5..=7 => parts.push(self.call(rng, "aic_", true)),
                8 => {
                    let id = self.id("apr_");
                    self.open.push((Some(id.clone()), "approval".into()));
                    parts.push(part(Kind::Call, text(rng), "approval", Some(id)));
                }
                9..=10 => {
                    let id = self.id("pe_");
                    parts.push(part(
                        Kind::ServerCall,
                        text(rng),
                        "web_search",
                        Some(id.clone()),
                    ));
                    parts.push(part(Kind::Result, text(rng), "web_search", Some(id)));
                }
                _ => parts.push(media(rng, Kind::Image, None)),
            }
        }
        Msg {
            role: Role::Assistant,
            parts,
        }
    }
}

/// A batch with no empty message: a turn whose results were all left out says nothing.
fn nonempty(mut out: Vec<Msg>) -> Vec<Msg> {
    out.retain(|m| !m.parts.is_empty());
    out
}
