//! What a fold leaves behind. Turns summarized or dropped leave the request, but nothing
//! of them is lost for the agent: the span is stored whole as a transcript, and every
//! stored text of it (its masked and cut outputs, the transcript itself) gets a line in the
//! index ([`index`](super::index)), which the request carries after the summary.

use super::index::{
    HEADER_TOKENS, INDEX_SHARE, LINE_TOKENS, MAX_NAMES_CHARS, NAMES_SHARE, SPAN_NAMES_CHARS,
    SPAN_NAMES_SHARE,
};
use super::ledger::Warning;
use super::{Manager, Need};

impl Manager {
    /// Messages `from..to` left the request: their transcript is asked to be stored next.
    pub(super) fn folded(&mut self, from: usize, to: usize) {
        // Chunks summarized one after another make one span.
        self.unindexed = match self.unindexed {
            Some((a, b)) if b == from => Some((a, to)),
            Some(span) => {
                // A second span in one build: the first is indexed without a transcript.
                self.index_span(span.0, span.1, None);
                Some((from, to))
            }
            None => Some((from, to)),
        };
    }

    /// What the index needs next: a span's transcript stored, or its oldest entries
    /// listed in a stored text of their own.
    pub(super) fn next_index_need(&mut self) -> Option<Need> {
        if let Some((from, to)) = self.unindexed {
            // The pinned messages stay: they are not the transcript's.
            let pinned = self.pinned();
            let from = if !pinned.is_empty() && pinned.start == from {
                pinned.end
            } else {
                from
            };
            if from >= to {
                self.unindexed = None;
                return None;
            }
            // An image or a document leaving unstored is stored first: the transcript names
            // it by its store id, never by its bytes, and the agent can recall it.
            if let Some((message, part)) = (from..to).find_map(|i| {
                self.history.messages[i]
                    .parts
                    .iter()
                    .position(|p| p.kind.media() && p.stored == super::Stored::No)
                    .map(|k| (i, k))
            }) {
                return Some(Need::Persist { message, part });
            }
            return Some(Need::PersistSpan { from, to });
        }
        if self.group_failed {
            return None;
        }
        // Past its share: the oldest outputs go to a listing first (their texts are in the
        // transcripts too); then the oldest transcripts merge into one, so each stays one
        // recall away; only then do transcripts go to a listing.
        let cap = self.index_cap();
        let count = self.index.outputs_to_group(cap);
        if count > 0 {
            return Some(Need::PersistGroup { count });
        }
        if !self.merge_failed {
            let count = self.index.spans_to_merge(cap, self.span_line_tokens());
            if count > 0 {
                return Some(Need::MergeSpans { count });
            }
        }
        let count = self.index.to_group(cap);
        (count > 0).then_some(Need::PersistGroup { count })
    }

    /// The host stored the merge of the transcripts asked for as `id` (`None`: it could not
    /// read them back, or store the merge).
    pub fn spans_merged(&mut self, id: Option<String>, line_tokens: f64) -> Need {
        if let Some(Need::MergeSpans { count }) = self.pending.take() {
            match id {
                Some(id) => {
                    self.note_line(&id, line_tokens);
                    let tokens = self.line_tokens(&id);
                    self.index.merge(count, id, tokens);
                    self.summary_version += 1;
                }
                None => self.merge_failed = true,
            }
        }
        self.advance()
    }

    /// Tokens the index gains when messages `from..to` fold away: a line for their
    /// transcript (assumed, the host has not written it) and one for each stored text of
    /// them it does not name yet, with its heading if it is the first.
    pub fn index_growth(&self, from: usize, to: usize) -> f64 {
        if from >= to {
            return 0.0;
        }
        let mut growth = self.span_line_tokens();
        if self.index.is_empty() {
            growth += HEADER_TOKENS;
        }
        for i in from..to {
            for k in 0..self.history.messages[i].parts.len() {
                if let Some(id) = self.store_ids.get(&(i, k))
                    && !self.index.names(id)
                {
                    growth += self.line_tokens(id);
                }
            }
        }
        growth.min(self.index_cap())
    }

    /// The characters a line gives the names it lists: a transcript's (`span`), or another's.
    pub fn names_chars(&self, span: bool) -> usize {
        let (share, most) = if span {
            (SPAN_NAMES_SHARE, SPAN_NAMES_CHARS)
        } else {
            (NAMES_SHARE, MAX_NAMES_CHARS)
        };
        ((self.config.budget * share * 3.0) as usize).min(most)
    }

    /// A transcript's line, assumed until the host writes it: its names make it the longest.
    fn span_line_tokens(&self) -> f64 {
        self.names_chars(true) as f64 / 3.0 + 40.0
    }

    pub fn index_cap(&self) -> f64 {
        (self.config.budget * INDEX_SHARE).floor()
    }

    /// Tokens of the line the host wrote for stored text `id`.
    fn line_tokens(&self, id: &str) -> f64 {
        self.lines.get(id).copied().unwrap_or(LINE_TOKENS)
    }

    /// Notes the line the host wrote for a text it stored as `id` (NaN: not counted).
    pub(super) fn note_line(&mut self, id: &str, tokens: f64) {
        let tokens = if tokens.is_finite() && tokens > 0.0 {
            tokens
        } else {
            LINE_TOKENS
        };
        if self.lines.insert(id.to_string(), tokens).is_none()
            && let Some(j) = self.journal.as_mut()
        {
            j.lines.push(id.to_string());
        }
    }

    /// The host stored the transcript of the span asked for as `id` (`None`: the store
    /// failed), with a line of `line_tokens`.
    pub fn span_persisted(&mut self, id: Option<String>, line_tokens: f64) -> Need {
        if let Some(Need::PersistSpan { from, to }) = self.pending.take() {
            self.unindexed = None;
            if let Some(id) = &id {
                self.note_line(id, line_tokens);
            } else {
                self.record.warn(Warning::StoreFailed);
            }
            self.index_span(from, to, id);
        }
        self.advance()
    }

    /// The span's transcript, then each stored text of it, join the index.
    fn index_span(&mut self, from: usize, to: usize, transcript: Option<String>) {
        let span = Some((from, to));
        let mut ids: Vec<(String, Option<(usize, usize)>)> =
            transcript.into_iter().map(|id| (id, span)).collect();
        let pinned = self.pinned();
        for i in from..to {
            if pinned.contains(&i) {
                continue;
            }
            for k in 0..self.history.messages[i].parts.len() {
                if self.named_by_working(i, k) {
                    continue;
                }
                if let Some(id) = self.store_ids.get(&(i, k)) {
                    ids.push((id.clone(), None));
                }
            }
        }
        let mut added = false;
        for (id, span) in ids {
            let tokens = self.line_tokens(&id);
            if self.index.add(&id, tokens, span) {
                added = true;
                self.record.compaction_mut().indexed.push(id);
            }
        }
        if added {
            self.summary_version += 1;
        }
    }

    /// The host stored the listing of the index's oldest `count` entries as `id`.
    pub fn group_persisted(&mut self, id: Option<String>, line_tokens: f64) -> Need {
        if let Some(Need::PersistGroup { count }) = self.pending.take() {
            match id {
                Some(id) => {
                    self.note_line(&id, line_tokens);
                    let tokens = self.line_tokens(&id);
                    self.index.group(count, id, tokens);
                    self.summary_version += 1;
                }
                None => {
                    // The index stays whole, past its share, rather than lose a line.
                    self.group_failed = true;
                    self.record.warn(Warning::StoreFailed);
                }
            }
        }
        self.advance()
    }

    /// The first call whose id a host keeps: the first call of the pinned messages (a
    /// request still sends them, with a marked result for a call that has none), or the
    /// first not folded away ([`History::folded_calls`](super::History::folded_calls)).
    pub fn kept_call_ids(&self) -> usize {
        let h = &self.history;
        let folded = h.folded_calls(self.first_live);
        self.opening()
            .flat_map(|i| h.messages[i].parts.iter())
            .filter(|p| p.kind.call())
            .filter_map(|p| p.call)
            .map(|c| c as usize)
            .min()
            .map_or(folded, |c| c.min(folded))
    }

    /// Whether `id` is one of this manager's stored texts: only those are recalled.
    pub fn owns(&self, id: &str) -> bool {
        self.lines.contains_key(id)
    }
}
