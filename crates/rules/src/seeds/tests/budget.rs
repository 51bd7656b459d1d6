use super::*;

#[test]
fn splits_30_20_50_rounding_down() {
    let b = WindowBudget::split(800_000);
    assert_eq!(
        (b.total, b.goal, b.map, b.recent_past),
        (800_000.0, 240_000.0, 160_000.0, 400_000.0)
    );
    let odd = WindowBudget::split(7);
    assert_eq!((odd.goal, odd.map, odd.recent_past), (2.0, 1.0, 3.0));
}

#[test]
fn totals_are_checked() {
    assert!(WindowBudget::checked_total("total", 0.0).is_err());
    assert!(WindowBudget::checked_total("total", 10.5).is_err());
    assert_eq!(WindowBudget::checked_total("total", 100.0), Ok(100));
    assert_eq!(WindowBudget::default_split(None).unwrap().total, 800_000.0);
}

#[test]
fn shares_are_read_and_named() {
    let b = WindowBudget::from_shares("budget", &[10.0, 3.0, 2.0, 5.0]).unwrap();
    assert_eq!(b.shares(), [10.0, 3.0, 2.0, 5.0]);
    let err = WindowBudget::from_shares("context.budget", &[10.0, -3.0, 2.0, 5.0]).unwrap_err();
    assert_eq!(err.field, "context.budget.goalBudget");
}
