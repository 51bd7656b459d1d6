//! The texts made of the conversation itself: the summarizer's prompt, the instruction
//! that ends a summarizer request made of the last request, the transcript stored when
//! messages fold away, and the manager's own words a request carries.

use super::Manager;
use super::history::{Kind, Shown};
use crate::base::frame::Pieces;

/// The built-in summarizing instruction: the sections a summary keeps, as probe-based
/// evaluations of compaction find structure and the trail of artifacts are what summaries
/// lose most. A host's `summaryPrompt` replaces it, in both layouts below.
pub const DEFAULT_SUMMARY_INSTRUCTION: &str = "Summarize the earlier part of a coding agent's \
conversation, so that the agent can continue from your summary alone. Keep every store id you \
see. Write these sections, each a heading then short points:
### Task
What the user asked for, in the user's own words where they are short, and every constraint \
they set.
### Decisions
What was decided, and why.
### Files and artifacts
Every file read, created or changed, every command run, and every URL and store id that \
matters, exactly as written.
### Errors
The errors met, and how each was fixed or why it was left.
### Next steps
What is left to do, in order.";

/// Host texts of [`summarizer_prompt`]: the instruction (the built-in one or the host's),
/// the summary so far ("" for none), then, for each part of each message in the span, its
/// text as shown and its label (a tool's name for calls and results, "" otherwise).
pub const INSTRUCTION: usize = 0;
pub const SUMMARY_SO_FAR: usize = 1;

/// Asked of a later summary: update the last one's sections rather than summarize a summary.
const UPDATE: &str = "A summary so far is given: update its sections with what the newer \
messages add or change, keep what is still true, and drop nothing else.";

/// The summarizer's prompt for messages `from..to`; the fixed texts are not in it.
pub fn summarizer_prompt(p: &mut Pieces<'_>, m: &Manager, from: usize, to: usize) {
    p.host(INSTRUCTION)
        .lit("\n\n")
        .lit(super::working::PROMPT_NOTE)
        .lit("\n");
    if m.summary_tokens > 0.0 {
        p.lit("\n")
            .lit(UPDATE)
            .lit("\n\n## Summary so far\n")
            .host(SUMMARY_SO_FAR)
            .lit("\n");
    }
    p.lit("\n## Messages to add to it\n");
    messages_text(p, m, from, to, SUMMARY_SO_FAR + 1);
}

/// Host texts of [`summarizer_instruction`].
const FOLDED_START: usize = 0;
const REQUEST_INSTRUCTION: usize = 1;

/// The instruction that ends a summarizer request made of the last request itself (its
/// prefix read from the provider's cache), over `[the start of message to - 1's text, the
/// instruction]`: the summary replaces the earlier one and the oldest messages, up to that
/// one.
pub fn summarizer_instruction(p: &mut Pieces<'_>, m: &Manager, from: usize, to: usize) {
    p.lit(
        "[Context budget] Write a summary of the conversation above that replaces its earlier \
         summary, if any, and its oldest messages",
    );
    if to > from {
        p.lit(", up to and including the one that begins: \"")
            .host(FOLDED_START)
            .lit("\"");
    }
    p.lit(". The newest messages stay as they are.\n\n")
        .host(REQUEST_INSTRUCTION)
        .lit("\n");
    if m.summary_tokens > 0.0 {
        p.lit("\n").lit(UPDATE).lit("\n");
    }
    p.lit("\n")
        .lit(super::working::PROMPT_NOTE)
        .lit("\nAnswer with the summary only.");
}

/// The transcript of messages `from..to` as stored when they are folded away, over
/// `[(text as shown, label) per part of each message]`: what the agent reads back.
pub fn transcript(p: &mut Pieces<'_>, m: &Manager, from: usize, to: usize) {
    p.lit(&format!(
        "[Transcript of messages {}–{} of the conversation, as they were last sent]\n",
        from + 1,
        to
    ));
    messages_text(p, m, from, to, 0);
}

/// Messages `from..to`, each its role then its parts, over `(text, label)` per part from
/// host text `host` on. Thinking is left out; the kept opening message too.
fn messages_text(p: &mut Pieces<'_>, m: &Manager, from: usize, to: usize, mut host: usize) {
    let pinned = m.pinned();
    for i in from..to {
        let msg = &m.history.messages[i];
        if pinned.contains(&i) || msg.parts.is_empty() {
            // Kept in every request: not the summary's to repeat (nor a message let go).
            host += 2 * msg.parts.len();
            continue;
        }
        let role = match msg.role {
            super::Role::User => "user",
            super::Role::Assistant => "assistant",
            super::Role::System => "system",
            super::Role::Tool => "tool",
        };
        p.lit(&format!("\n[{role}]\n"));
        for part in &msg.parts {
            let (text, label) = (host, host + 1);
            host += 2;
            match (part.kind, part.shown) {
                (_, Shown::Dropped) | (Kind::Thinking, _) => {}
                (Kind::Call | Kind::ServerCall, _) => {
                    p.lit("call ").host(label).lit(" ").host(text).lit("\n");
                }
                (Kind::Compaction, _) => {
                    p.lit("[the provider's compaction of the conversation before it]\n")
                        .host(text)
                        .lit("\n");
                }
                (Kind::Result, _) => {
                    p.lit("result of ")
                        .host(label)
                        .lit(":\n")
                        .host(text)
                        .lit("\n");
                }
                (Kind::Opaque, _) => {
                    p.lit("[").host(label).lit("]\n");
                }
                // Its text is its store id, when it is stored (never its bytes).
                (Kind::Image | Kind::Document, _) => {
                    let what = if part.kind == Kind::Image {
                        "[image "
                    } else {
                        "[document "
                    };
                    p.lit(what).host(label);
                    if part.stored == super::Stored::Yes {
                        p.lit(", stored as ").host(text);
                    }
                    p.lit("]\n");
                }
                (Kind::Text, _) => {
                    p.host(text).lit("\n");
                }
            }
        }
    }
}

/// The texts a request carries in the manager's own words, over `[summary]`: the summary
/// as its message says it, a marked result of an unanswered call, and the first message of
/// a request whose earliest turns were dropped with no summary.
pub fn own_texts(f: &mut crate::base::frame::Frame) {
    f.text(|p| {
        p.lit("[Summary of the earlier conversation, folded away to fit the context budget]\n")
            .host(0);
    });
    f.text(|p| {
        p.lit("[No result was recorded for this call: it was interrupted.]");
    });
    f.text(|p| {
        p.lit("[The earliest turns of this conversation were left out to fit the context budget.]");
    });
}
