//! Codes that cross the boundary: as numbers (a need's kind, a plan's op, how a part is
//! shown, a part's kind, a message's role, an error's class, a seed's need or step, a
//! recall's refusal), each a fieldless enum declared through [`codes!`](crate::codes), and
//! as texts (a warning's code), declared through [`text_codes!`](crate::text_codes). Each defines its
//! codes here, once, with a table of names to codes. The shell's side is not written by
//! hand: `crates/protocol` writes it from these tables (`pkg/src/core/protocol.ts`), and
//! its test fails when the committed file is not what it writes.

/// A fieldless enum of codes: `code()`, `from_code()`, `ALL` (every variant, in
/// declaration order) and `TABLE`, every variant's name and code in order. The codes are
/// written once, in the declaration.
#[macro_export]
macro_rules! codes {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$vmeta:meta])* $variant:ident = $code:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(u8)]
        $vis enum $name {
            $($(#[$vmeta])* $variant = $code,)+
        }
        $crate::codes!(@impl $name, u8, u8, $($variant = $code),+);
    };
    // What both kinds of code have, written once: the code's type and the type it is read from.
    (@impl $name:ident, $ty:ty, $read:ty, $($variant:ident = $code:literal),+) => {
        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [Self] = &[$(Self::$variant,)+];

            /// Every variant's name and code, in declaration order.
            pub const TABLE: &'static [(&'static str, $ty)] = &[$((stringify!($variant), $code),)+];

            /// The code that crosses the boundary (and, for some, the durable encodings).
            pub fn code(self) -> $ty {
                match self {
                    $(Self::$variant => $code,)+
                }
            }

            pub fn from_code(code: $read) -> Option<Self> {
                match code {
                    $($code => Some(Self::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

/// [`codes!`](crate::codes) for codes that are texts (a warning's). A variant's place in
/// `ALL` may be a durable number, so new ones go last.
#[macro_export]
macro_rules! text_codes {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$vmeta:meta])* $variant:ident = $code:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)+
        }
        $crate::codes!(@impl $name, &'static str, &str, $($variant = $code),+);
    };
}

#[cfg(test)]
#[path = "tests/codes.rs"]
mod tests;
