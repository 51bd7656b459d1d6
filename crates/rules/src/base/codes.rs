//! Codes that cross the boundary as numbers: a need's kind, a plan's op, how a part is
//! shown, a part's kind, a message's role, an error's class. Each is a fieldless enum
//! declared through [`codes!`](crate::codes), which defines its codes here, once, and a table of names
//! to codes. The shell's constants (`pkg/src/context/codes.ts`, `pkg/src/errors/index.ts`)
//! are checked against those tables by `crates/rules/tests/codes.rs`: a code added,
//! removed or renumbered on one side only fails it.

/// A fieldless enum of codes: `code()`, `from_code()`, and `TABLE`, every variant's name and
/// code in order. The codes are written once, in the declaration.
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

        impl $name {
            /// Every variant's name and code, in declaration order.
            pub const TABLE: &'static [(&'static str, u8)] = &[$((stringify!($variant), $code),)+];

            /// The code that crosses the boundary (and, for some, the durable encodings).
            pub fn code(self) -> u8 {
                self as u8
            }

            pub fn from_code(code: u8) -> Option<Self> {
                match code {
                    $($code => Some(Self::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::codes! {
        enum Sample {
            A = 0,
            B = 2,
        }
    }

    #[test]
    fn a_code_round_trips_and_the_table_lists_every_variant() {
        assert_eq!(Sample::TABLE, &[("A", 0), ("B", 2)]);
        for &(_, code) in Sample::TABLE {
            assert_eq!(Sample::from_code(code).map(Sample::code), Some(code));
        }
        assert_eq!(Sample::from_code(1), None);
    }
}
