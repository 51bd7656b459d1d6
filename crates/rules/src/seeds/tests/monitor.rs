use super::*;

#[test]
fn fires_once_per_crossing_and_restarts_from_zero() {
    let mut m = ThresholdMonitor::new(1000.0);
    let fired = (0..100)
        .filter(|_| m.record(100.0).unwrap().is_some())
        .count();
    assert_eq!(fired, 10);
    assert_eq!(m.accumulated(), 0.0);
}

#[test]
fn reports_the_total_that_crossed() {
    let mut m = ThresholdMonitor::new(800_000.0);
    assert_eq!(m.record(799_999.0).unwrap(), None);
    assert_eq!(
        m.record(5.0).unwrap(),
        Some(Crossing {
            total_tokens: 800_004.0
        })
    );
    assert_eq!(m.record(10.0).unwrap(), None);
    assert_eq!(m.accumulated(), 10.0);
}

#[test]
fn rollback_keeps_every_token_and_fires_only_on_fresh_tokens() {
    let mut m = ThresholdMonitor::new(100.0);
    let crossing = m.record(120.0).unwrap().unwrap();
    m.record(30.0).unwrap();
    m.rollback(crossing);
    assert_eq!(m.accumulated(), 150.0);
    assert_eq!(m.record(0.0).unwrap(), None, "a put-back is not a crossing");
    assert_eq!(
        m.record(70.0).unwrap(),
        Some(Crossing {
            total_tokens: 220.0
        })
    );
    assert_eq!(m.accumulated(), 0.0);
}

/// Any order of records, crossings and callback outcomes: the total is what was
/// recorded less what successful refreshes took.
#[test]
fn any_interleaving_keeps_the_books() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..200 {
        let mut m = ThresholdMonitor::new(1000.0);
        let (mut recorded, mut consumed, mut crossings) = (0.0, 0.0, 0u32);
        let mut in_flight: Vec<Crossing> = Vec::new();
        for _ in 0..300 {
            match next() % 4 {
                0 | 1 => {
                    let t = (next() % 400) as f64;
                    recorded += t;
                    if let Some(c) = m.record(t).unwrap() {
                        crossings += 1;
                        in_flight.push(c);
                    }
                }
                _ if !in_flight.is_empty() => {
                    let c = in_flight.remove((next() as usize) % in_flight.len());
                    if next() % 2 == 0 {
                        consumed += c.total_tokens;
                    } else {
                        m.rollback(c);
                    }
                }
                _ => {}
            }
        }
        let pending: f64 = in_flight.iter().map(|c| c.total_tokens).sum();
        assert_eq!(m.accumulated() + pending, recorded - consumed);
        // Each crossing took at least a threshold of fresh tokens, and none is due.
        assert!(f64::from(crossings) * 1000.0 <= recorded - m.fresh);
        assert!(m.fresh < 1000.0);
    }
}

#[test]
fn rejects_negative_nan_and_infinite_tokens_without_changing_state() {
    let mut m = ThresholdMonitor::new(100.0);
    m.record(10.0).unwrap();
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(m.record(bad).unwrap_err().field, "tokens");
    }
    assert_eq!(m.accumulated(), 10.0);
}
