use super::*;

#[test]
fn stamps_strictly_increase_even_when_the_clock_stalls_or_goes_back() {
    let mut clock = MonotonicClock::new();
    let readings = [100, 100, 100, 50, 400, 399];
    let stamps: Vec<u64> = readings.iter().map(|&r| clock.stamp(r)).collect();
    assert_eq!(stamps, vec![100, 101, 102, 103, 400, 401]);
}
