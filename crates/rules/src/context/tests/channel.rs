//! The channel between the rules and the shell: each answer crosses as the journal's own
//! encoding of its event, in the order `journal::ANSWERS` declares its fields (the shell's
//! `encodeAnswer` is written from that table), and a need as `need::NEEDS` declares it.

use super::super::codec::{Codec, Reader};
use super::super::journal::{ANSWERS, Event, decode_answer};
use super::super::{NEEDS, NeedKind};

/// Reads one value of `codec`; false when it is not there.
fn read(r: &mut Reader<'_>, codec: Codec) -> bool {
    match codec {
        Codec::Uint => r.uint().is_ok(),
        Codec::Float => r.float().is_ok(),
        Codec::Text => r.text().is_ok(),
        Codec::OptionalText => r.optional_text().is_ok(),
        Codec::Uints => {
            let Ok(n) = r.count() else { return false };
            (0..n).all(|_| r.uint().is_ok())
        }
        Codec::Floats => r.floats().is_ok(),
        Codec::Texts | Codec::OptionalTexts => {
            let Ok(n) = r.count() else { return false };
            (0..n).all(|_| {
                read(
                    r,
                    if codec == Codec::Texts {
                        Codec::Text
                    } else {
                        Codec::OptionalText
                    },
                )
            })
        }
    }
}

fn sample(name: &str) -> Event {
    let id = Some("id-1".to_string());
    match name {
        "Stored" => Event::Stored { id, line: 12.5 },
        "SpanStored" => Event::SpanStored { id, line: 3.0 },
        "Listed" => Event::Listed {
            id: None,
            line: f64::NAN,
        },
        "Merged" => Event::Merged { id, line: 4.0 },
        "Measured" => Event::Measured(41.0),
        "Summarized" => Event::Summarized(900.0),
        "SummaryFailed" => Event::SummaryFailed,
        "NoSummarizer" => Event::NoSummarizer,
        "Begin" => Event::Begin,
        "Plan" => Event::Plan,
        "Tail" => Event::Tail(7.0),
        "Compact" => Event::Compact,
        "Observed" => Event::Observed(1200.0),
        "Time" => Event::Time(1_700_000_000_000.0),
        "CalibrationReset" => Event::CalibrationReset,
        "HistoryRebuilt" => Event::HistoryRebuilt,
        "Defer" => Event::Defer,
        "Described" => Event::Described {
            text: "fn main() {}".into(),
            args: "{\"path\":\"a.rs\"}".into(),
            media: vec![640.0, 480.0],
        },
        "Carried" => Event::Carried {
            tokens: vec![12.0, 3.5],
        },
        other => panic!("no sample of answer {other}"),
    }
}

#[test]
fn every_answer_is_its_journal_event_as_the_table_declares_it() {
    for row in ANSWERS {
        let event = sample(row.name);
        let mut bytes = Vec::new();
        event.encode(&mut bytes);
        assert_eq!(bytes[0], row.tag, "{}", row.name);
        let mut r = Reader {
            bytes: &bytes,
            at: 1,
        };
        for (field, codec) in row.fields {
            assert!(read(&mut r, *codec), "{}.{field}", row.name);
        }
        assert_eq!(r.at, bytes.len(), "{}: fields left unread", row.name);
        let back = decode_answer(&bytes).expect(row.name);
        assert_eq!(format!("{back:?}"), format!("{event:?}"));
    }
}

#[test]
fn an_event_that_answers_no_need_is_refused_naming_it() {
    let mut bytes = Vec::new();
    Event::Commit.encode(&mut bytes);
    let e = decode_answer(&bytes).unwrap_err();
    assert_eq!(e.field, "answer");
    let mut cut = Vec::new();
    Event::Stored {
        id: Some("x".into()),
        line: 1.0,
    }
    .encode(&mut cut);
    cut.pop();
    assert!(decode_answer(&cut).unwrap_err().field.starts_with("answer"));
}

#[test]
fn every_need_kind_is_declared_once_with_its_fields() {
    assert_eq!(NEEDS.len(), NeedKind::ALL.len());
    for (row, kind) in NEEDS.iter().zip(NeedKind::ALL) {
        assert_eq!(row.code, kind.code());
        let mut names: Vec<&str> = row.fields.iter().map(|f| f.0).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), row.fields.len(), "{}", row.name);
    }
}

/// A need as encoded reads whole, field by field, as `NEEDS` declares it (what the shell's
/// `decodeNeed` is written from): every need the tests' builds meet is checked.
pub(super) fn reads_as_declared(bytes: &[u8]) {
    let row = NEEDS
        .iter()
        .find(|n| n.code == bytes[0])
        .expect("a declared need");
    let mut r = Reader { bytes, at: 1 };
    for (field, codec) in row.fields {
        assert!(read(&mut r, *codec), "{}.{field}", row.name);
    }
    assert_eq!(r.at, bytes.len(), "{}: bytes left unread", row.name);
}

#[test]
fn what_the_shell_says_on_the_way_to_an_answer_is_never_journaled() {
    use super::super::journal::{decode, encode};
    let aside = Event::Carried { tokens: vec![3.0] };
    assert!(!aside.kept());
    let e = decode(&encode(&[Event::Begin, aside])).unwrap_err();
    assert_eq!(e.field, "journal[1]");
}

#[test]
fn a_description_is_answered_with_the_body_the_rules_write_of_it() {
    use super::super::Need;
    use super::super::config::{Config, Options};
    use super::super::{Kind, Manager, NewMessage, Part, Role};
    let config = Config::new("options", 10_000.0, Options::default()).unwrap();
    let mut m = Manager::new("options", config, 0.0, 0.0).unwrap();
    let part = |kind, call| Part::new(kind, 400, 100.0, call);
    m.apply(&Event::Append(vec![
        NewMessage {
            role: Role::Assistant,
            framing: 3.0,
            parts: vec![part(Kind::Call, None)],
        },
        NewMessage {
            role: Role::User,
            framing: 3.0,
            parts: vec![part(Kind::Result, Some(0))],
        },
    ]))
    .unwrap();
    // Out of place with nothing pending: refused, nothing changes.
    let said = Event::Described {
        text: "fn parse_header() {}".into(),
        args: r#"{"path":"src/lib.rs"}"#.into(),
        media: vec![],
    };
    assert!(m.apply(&said).is_err());
    let need = Need::Persist {
        message: 1,
        part: 0,
    };
    assert!(
        m.describe(need, "fn parse_header() {}", "", &[])
            .contains("parse_header")
    );
    let placeholder = Need::Placeholder {
        message: 1,
        part: 0,
    };
    let body = m.describe(
        placeholder,
        "fn parse_header() {}",
        r#"{"path":"src/lib.rs"}"#,
        &[],
    );
    assert!(
        body.contains("src/lib.rs") && !body.contains("parse_header"),
        "{body}"
    );
}
