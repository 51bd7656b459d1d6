//! The conversation as the context manager sees it: messages of parts, their sizes, how
//! each is shown, which calls each result answers. Texts stay with the host.

use super::gapped::Gapped;

crate::codes! {
    /// Who a message is from. `Tool` is a message that holds only results (OpenAI's `tool`
    /// role, the AI SDK's tool message); providers that put results in a user message use
    /// `User`. Its code is also the durable encodings' (the journal, a manager's state).
    pub enum Role {
        User = 0,
        Assistant = 1,
        System = 2,
        Tool = 3,
    }
}

crate::codes! {
    /// What a part of a message is. Its code is the durable encodings' too (journal, state).
    pub enum Kind {
        Text = 0,
        /// Signed reasoning (Anthropic `thinking`, `redacted_thinking`; OpenAI `reasoning`
        /// items): passed back byte for byte, never cut, only ever dropped whole.
        Thinking = 1,
        /// A tool call: its arguments.
        Call = 2,
        /// A tool call's result.
        Result = 3,
        /// Anything else (a provider's own block): passed through, counted by its content.
        Opaque = 4,
        /// An image, billed by its provider's image rule. Its `call` is the call whose
        /// result holds it (an image inside a tool result), none at the top of a message.
        /// It may be stored and replaced by a line naming it, never cut.
        Image = 5,
        /// A document (a PDF), billed by its pages; stored and replaced like an image.
        Document = 6,
        /// A call the provider runs itself (Anthropic's `server_tool_use`, an MCP call, a
        /// Responses `mcp_call`): answered by a result in the same assistant turn, never by
        /// the host, so it is never given a marked result.
        ServerCall = 7,
        /// The provider's own compaction of what came before it (an Anthropic `compaction`
        /// block, a Responses `compaction` item): kept byte for byte, never edited.
        Compaction = 8,
    }
}

impl Kind {
    /// Parts whose text may be stored, then cut or replaced by a placeholder: a call's
    /// input too, shortened as the JSON its tool takes (`shorten`).
    pub fn editable(self) -> bool {
        matches!(
            self,
            Kind::Text | Kind::Result | Kind::Call | Kind::ServerCall
        )
    }

    /// A call of either kind: its arguments, with the id a result names.
    pub fn call(self) -> bool {
        matches!(self, Kind::Call | Kind::ServerCall)
    }

    /// Images and documents: billed by the provider's media rules, stored whole and replaced
    /// by a line, never cut.
    pub fn media(self) -> bool {
        matches!(self, Kind::Image | Kind::Document)
    }
}

/// How a part is shown in the request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shown {
    Whole,
    /// Head and tail, in UTF-16 units, with a marker between them naming the store id.
    Cut {
        head: usize,
        tail: usize,
    },
    /// One line naming what it was and the store id of its text.
    Placeholder,
    /// Left out (a thinking block whose prefix changed).
    Dropped,
}

/// Where the part's whole text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    No,
    Yes,
    /// The store failed: the part may be cut, never replaced by a placeholder.
    Failed,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Part {
    pub kind: Kind,
    /// UTF-16 units and tokens of the whole text.
    pub units: usize,
    pub tokens: f64,
    pub shown: Shown,
    /// Tokens as shown: the cut or placeholder, once the host has counted it.
    pub shown_tokens: f64,
    /// A call's own index, or the call a result answers.
    pub call: Option<u32>,
    pub stored: Stored,
    /// A call or result of a tool the host protects (`protectedTools`): never masked, cut
    /// or folded away while the protected parts fit their share ([`super::Manager::held`]).
    pub protected: bool,
}

/// The high bit of a part's kind byte, in every encoding (the journal, a manager's state,
/// the shell's append): the part is protected. A kind's code stays below it, so data with
/// no protected part is byte for byte what it was, and an older reader refuses the byte
/// as a kind it does not know rather than read it as another.
pub const PROTECTED_BIT: u8 = 0x80;

/// The flags of a kind byte, by name, as the shell's constants name them (`PartFlag`).
pub const PART_FLAGS: [(&str, u8); 1] = [("Protected", PROTECTED_BIT)];

impl Part {
    pub fn new(kind: Kind, units: usize, tokens: f64, call: Option<u32>) -> Part {
        Part {
            kind,
            units,
            tokens,
            shown: Shown::Whole,
            shown_tokens: tokens,
            call,
            stored: Stored::No,
            protected: false,
        }
    }

    /// The kind's code, with [`PROTECTED_BIT`] for a protected part.
    pub fn kind_byte(&self) -> u8 {
        self.kind.code() | if self.protected { PROTECTED_BIT } else { 0 }
    }

    /// The kind and the protection a kind byte holds.
    pub fn read_kind_byte(byte: u8) -> Option<(Kind, bool)> {
        Kind::from_code(byte & !PROTECTED_BIT).map(|k| (k, byte & PROTECTED_BIT != 0))
    }

    pub fn visible_tokens(&self) -> f64 {
        if self.shown == Shown::Dropped {
            0.0
        } else {
            self.shown_tokens
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub role: Role,
    pub parts: Vec<Part>,
    /// The first message of its group: an assistant message and the messages that answer
    /// its calls are one group, never apart.
    pub group: usize,
    /// Tokens the provider adds around this message and its parts.
    pub framing: f64,
    /// Bumped each time a part is shown differently: a request repeats the previous one
    /// only up to the first message whose version changed.
    pub version: u32,
}

impl Message {
    /// What a message let go reads as: nothing of it is read again. It is in no group, so
    /// a walk of a group's messages (`next_group`) ends at it, even the walk of group 0.
    pub const STAND_IN: Message = Message {
        role: Role::Assistant,
        parts: Vec::new(),
        group: usize::MAX,
        framing: 0.0,
        version: 0,
    };

    pub fn tokens(&self) -> f64 {
        self.framing + self.parts.iter().map(Part::visible_tokens).sum::<f64>()
    }

    pub fn has_kind(&self, kind: Kind) -> bool {
        self.parts
            .iter()
            .any(|p| p.kind == kind && p.shown != Shown::Dropped)
    }
}

/// A tool call: where it is, and where its result is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call {
    pub message: usize,
    pub part: usize,
    pub answer: Option<(usize, usize)>,
}

impl Call {
    /// What a call let go reads as: answered, so never listed as waiting.
    pub const STAND_IN: Call = Call {
        message: 0,
        part: 0,
        answer: Some((0, 0)),
    };
}

/// Why a message cannot join the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejection {
    /// A result that names no call (`call` is none or unknown).
    UnknownCall,
    /// A result for a call that already has one.
    AnsweredTwice,
    /// A result whose call is not in the assistant message before it.
    NotTheLastCalls,
    /// A call outside an assistant message, or a result in an assistant or system message.
    Misplaced,
    /// A message with no parts.
    Empty,
    /// A host's result for a call the provider runs itself (a `server_tool_use`): the
    /// provider's result is in the assistant message.
    ServerCall,
}

impl Rejection {
    /// The words after the field's name.
    pub fn words(self) -> &'static str {
        match self {
            Rejection::UnknownCall => "answers no call of the conversation",
            Rejection::AnsweredTwice => "answers a call that already has its result",
            Rejection::NotTheLastCalls => {
                "answers a call of an earlier assistant message: a result must follow the assistant message that made the call, before any other message"
            }
            Rejection::Misplaced => "is not allowed in a message of this role",
            Rejection::Empty => "must hold at least one part",
            Rejection::ServerCall => {
                "answers a call the provider runs itself (a server tool's): its result comes from the provider, in the assistant message, and a request with a tool result for it is refused"
            }
        }
    }

    pub fn code(self) -> u8 {
        match self {
            Rejection::UnknownCall => 0,
            Rejection::AnsweredTwice => 1,
            Rejection::NotTheLastCalls => 2,
            Rejection::Misplaced => 3,
            Rejection::Empty => 4,
            Rejection::ServerCall => 5,
        }
    }

    pub fn from_code(code: u8) -> Option<Rejection> {
        Some(match code {
            0 => Rejection::UnknownCall,
            1 => Rejection::AnsweredTwice,
            2 => Rejection::NotTheLastCalls,
            3 => Rejection::Misplaced,
            4 => Rejection::Empty,
            5 => Rejection::ServerCall,
            _ => return None,
        })
    }
}

/// A message refused at `message` (its index in the batch), part `part`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused {
    pub message: usize,
    pub part: Option<usize>,
    pub why: Rejection,
}

/// The messages of a conversation and its calls. Those folded away are let go
/// ([`History::forget`]); their numbers stay.
#[derive(Debug, Clone, PartialEq)]
pub struct History {
    pub messages: Gapped<Message>,
    pub calls: Gapped<Call>,
}

impl Default for History {
    fn default() -> Self {
        History {
            messages: Gapped::new(Message::STAND_IN),
            calls: Gapped::new(Call::STAND_IN),
        }
    }
}

/// A result with no call id (Gemini's `functionResponse` may have none), and the calls of
/// its tool's name the host knows, in order: it answers the first of them still open in
/// the turn before it. The host only knows names; which call is open is the rules' word.
#[derive(Debug, Clone, PartialEq)]
pub struct ByName {
    pub message: usize,
    pub part: usize,
    pub candidates: Vec<u32>,
}

/// One message to append, as the host read it.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMessage {
    pub role: Role,
    pub framing: f64,
    pub parts: Vec<Part>,
}

impl History {
    /// The group of the last assistant message with calls, while its calls may still be
    /// answered: results follow their calls before any other message.
    fn open_calls_group(&self) -> Option<usize> {
        let group = self.messages.last()?.group;
        self.group_has(group, Role::Assistant, Kind::Call)
            .then_some(group)
    }

    /// Whether a call of the group that starts at `group` still waits for its result.
    fn has_open_calls(&self, group: usize) -> bool {
        self.messages[group..]
            .iter()
            .take_while(|m| m.group == group)
            .flat_map(|m| &m.parts)
            .any(|p| {
                p.kind == Kind::Call
                    && p.call
                        .is_some_and(|c| self.calls[c as usize].answer.is_none())
            })
    }

    /// Whether a message of `role` in the group that starts at `group` holds a `kind` part.
    pub fn group_has(&self, group: usize, role: Role, kind: Kind) -> bool {
        self.messages[group..]
            .iter()
            .take_while(|m| m.group == group)
            .any(|m| m.role == role && m.has_kind(kind))
    }

    /// Appends `batch` whole, or nothing: the first message that does not fit is refused,
    /// and what the batch had done is undone. Calls are numbered in order, from
    /// `self.calls.len()`; a result's `call` names the call it answers. The results of
    /// `by_name` are paired with a call first, message by message, so a batch holding both
    /// the calls and their results pairs as it would appended one message at a time.
    pub fn append(&mut self, batch: Vec<NewMessage>, by_name: &[ByName]) -> Result<(), Refused> {
        let (messages, calls) = (self.messages.len(), self.calls.len());
        let mut answered: Vec<usize> = Vec::new();
        for (i, mut m) in batch.into_iter().enumerate() {
            for b in by_name.iter().filter(|b| b.message == i) {
                let unpaired = m
                    .parts
                    .get(b.part)
                    .is_some_and(|p| p.kind == Kind::Result && p.call.is_none());
                if unpaired {
                    m.parts[b.part].call = self.first_open(&b.candidates, &m.parts, b.part);
                }
            }
            if let Err((part, why)) = self.push(m, &mut answered) {
                self.messages.truncate(messages);
                self.calls.truncate(calls);
                for n in answered {
                    if n < calls {
                        self.calls[n].answer = None;
                    }
                }
                return Err(Refused {
                    message: i,
                    part,
                    why,
                });
            }
        }
        Ok(())
    }

    /// The first of `candidates` a user result can answer: a client call of the open turn
    /// with no result yet, nor one from an earlier part of `parts` (its own message).
    pub(super) fn first_open(
        &self,
        candidates: &[u32],
        parts: &[Part],
        before: usize,
    ) -> Option<u32> {
        let open = self.open_calls_group()?;
        candidates.iter().copied().find(|&c| {
            self.calls.get(c as usize).is_some_and(|call| {
                call.answer.is_none()
                    && self.messages[call.message].group == open
                    && self.messages[call.message].parts[call.part].kind == Kind::Call
                    && !parts[..before].iter().any(|p| p.call == Some(c))
            })
        })
    }

    /// The first call of the open turn, or the count of calls when no turn is open: the
    /// host offers no candidate before it.
    pub fn open_from(&self) -> u32 {
        let Some(group) = self.open_calls_group() else {
            return self.calls.len() as u32;
        };
        // Its calls are the last ones: walk back from the end while they are in it.
        let mut from = self.calls.len();
        while from > self.calls.gap_to()
            && self
                .calls
                .get(from - 1)
                .is_some_and(|c| self.messages[c.message].group == group)
        {
            from -= 1;
        }
        from as u32
    }

    /// Writes the calls the rules paired into `batch`, appended as the messages from
    /// `from`: the journal replays them as they were paired, with no candidates.
    pub(super) fn settle(&self, from: usize, batch: &mut [NewMessage]) {
        for (i, m) in batch.iter_mut().enumerate() {
            for (k, p) in m.parts.iter_mut().enumerate() {
                if p.kind == Kind::Result {
                    p.call = self.messages[from + i].parts[k].call;
                }
            }
        }
    }

    fn push(
        &mut self,
        m: NewMessage,
        answered: &mut Vec<usize>,
    ) -> Result<(), (Option<usize>, Rejection)> {
        if m.parts.is_empty() {
            return Err((None, Rejection::Empty));
        }
        let index = self.messages.len();
        let open = self.open_calls_group();
        // Results of the host's calls (one in an assistant message is a server tool's own).
        let has_results =
            m.role != Role::Assistant && m.parts.iter().any(|p| p.kind == Kind::Result);
        let mut parts = m.parts;
        let first_call = self.calls.len();
        for k in 0..parts.len() {
            // Inside a result: the result that holds it comes first in this message.
            if parts[k].kind.media()
                && let Some(n) = parts[k].call
                && !parts[..k]
                    .iter()
                    .any(|r| r.kind == Kind::Result && r.call == Some(n))
            {
                return Err((Some(k), Rejection::Misplaced));
            }
            let part = &mut parts[k];
            match part.kind {
                Kind::Call if m.role != Role::Assistant => {
                    return Err((Some(k), Rejection::Misplaced));
                }
                Kind::Call => {
                    part.call = Some(self.calls.len() as u32);
                    self.calls.push(Call {
                        message: index,
                        part: k,
                        answer: None,
                    });
                }
                Kind::ServerCall if m.role != Role::Assistant => {
                    return Err((Some(k), Rejection::Misplaced));
                }
                Kind::ServerCall => {
                    part.call = Some(self.calls.len() as u32);
                    self.calls.push(Call {
                        message: index,
                        part: k,
                        answer: None,
                    });
                }
                Kind::Result if m.role == Role::System => {
                    return Err((Some(k), Rejection::Misplaced));
                }
                // The provider's own result, in its assistant turn: it answers a server call
                // of this message, or of the assistant turn this message continues.
                Kind::Result if m.role == Role::Assistant => {
                    let n = match part.call {
                        Some(n) if (n as usize) < self.calls.len() => n as usize,
                        _ => return Err((Some(k), Rejection::UnknownCall)),
                    };
                    let call = self.calls[n];
                    // A call let go reads as answered: checked first, its message is gone.
                    if call.answer.is_some() {
                        return Err((Some(k), Rejection::AnsweredTwice));
                    }
                    let turn = call.message == index
                        || self.messages.last().is_some_and(|last| {
                            last.role == Role::Assistant
                                && call.message < index
                                && self.messages[call.message].group == last.group
                        });
                    let server = if call.message == index {
                        parts[call.part].kind == Kind::ServerCall
                    } else {
                        self.messages[call.message].parts[call.part].kind == Kind::ServerCall
                    };
                    if !server || !turn {
                        return Err((Some(k), Rejection::Misplaced));
                    }
                    self.calls[n].answer = Some((index, k));
                    answered.push(n);
                }
                Kind::Result => {
                    let n = match part.call {
                        Some(n) if (n as usize) < first_call => n as usize,
                        _ => return Err((Some(k), Rejection::UnknownCall)),
                    };
                    let call = self.calls[n];
                    if call.answer.is_some() {
                        return Err((Some(k), Rejection::AnsweredTwice));
                    }
                    if self.messages[call.message].parts[call.part].kind == Kind::ServerCall {
                        return Err((Some(k), Rejection::ServerCall));
                    }
                    if open != Some(self.messages[call.message].group) {
                        return Err((Some(k), Rejection::NotTheLastCalls));
                    }
                    self.calls[n].answer = Some((index, k));
                    answered.push(n);
                }
                _ => {}
            }
        }
        // Results join the group of the calls they answer. An assistant message right after
        // another joins its turn while that one waits for results or holds no text (a
        // response written as several messages, the Responses API's reasoning and one item
        // per call); anything else opens a group.
        // An assistant message with the result of a call of the turn it continues joins it.
        let continues = m.role == Role::Assistant
            && parts.iter().any(|p| {
                p.kind == Kind::Result
                    && p.call
                        .is_some_and(|c| self.calls[c as usize].message < index)
            });
        let group = match (open, self.messages.last()) {
            (Some(g), _) if has_results => g,
            (_, Some(prev)) if continues => prev.group,
            (_, Some(prev))
                if m.role == Role::Assistant
                    && prev.role == Role::Assistant
                    && (self.has_open_calls(prev.group) || !prev.has_kind(Kind::Text)) =>
            {
                prev.group
            }
            _ => index,
        };
        self.messages.push(Message {
            role: m.role,
            parts,
            group,
            framing: m.framing,
            version: 0,
        });
        Ok(())
    }
}

impl History {
    /// Lets go of the messages before `first_live` but those of `opening` (sent before the
    /// summary) and of their calls: they are never read again.
    pub fn forget(&mut self, first_live: usize, opening: std::ops::Range<usize>) {
        self.messages.forget(opening, first_live);
        let calls = self.folded_calls(first_live);
        self.calls.forget(0..0, calls);
    }

    /// How many calls are in messages before `first_live`: the first ones, in order.
    pub fn folded_calls(&self, first_live: usize) -> usize {
        // Calls have no head: those kept are the tail, from the first not let go.
        self.calls.gap_to()
            + self
                .calls
                .kept()
                .take_while(|(_, c)| c.message < first_live)
                .count()
    }

    /// Calls with no result, in order: each gets a marked result in the request.
    pub fn unanswered(&self, from_message: usize) -> impl Iterator<Item = (u32, &Call)> + '_ {
        self.calls
            .kept()
            .filter(move |(_, c)| {
                c.answer.is_none()
                    && c.message >= from_message
                    && self.messages[c.message].parts[c.part].kind == Kind::Call
            })
            .map(|(i, c)| (i as u32, c))
    }

    /// The first message of the group after the one `message` is in.
    pub fn next_group(&self, message: usize) -> usize {
        let group = self.messages[message].group;
        let mut i = message + 1;
        while i < self.messages.len() && self.messages[i].group == group {
            i += 1;
        }
        i
    }
}
