//! The journal the manager's binding writes, in a file of its own: `ManagerCore`
//! (`context.rs`) holds one and its changing calls (`context_events.rs`) write to it, so
//! neither of the two imports the other for it.

use devs_context_rules::context::journal::Event;

/// The events applied since the shell last took them.
#[derive(Debug, Default)]
pub struct JournalOut {
    pub(crate) bytes: Vec<u8>,
    pub(crate) count: usize,
    /// Where the build in flight began: its events are dropped if it rolls back.
    pub(crate) open: Option<(usize, usize)>,
}

impl JournalOut {
    pub(crate) fn push(&mut self, e: &Event) {
        e.encode(&mut self.bytes);
        self.count += 1;
    }
}
