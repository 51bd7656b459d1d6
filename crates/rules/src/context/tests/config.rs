use super::*;

fn all(value: f64) -> Vec<(&'static str, f64)> {
    OPTION_NAMES.iter().map(|&n| (n, value)).collect()
}

#[test]
fn the_rules_options_are_options_of_the_manager() {
    for name in OPTION_NAMES {
        assert!(MANAGER_OPTION_NAMES.contains(&name), "{name}");
    }
}

#[test]
fn every_named_option_reaches_its_own_field() {
    assert_eq!(
        Options::named("options", &all(f64::NAN)),
        Ok(Options::default())
    );
    let mut seen = Vec::new();
    for (i, &name) in OPTION_NAMES.iter().enumerate() {
        let mut named = all(f64::NAN);
        named[i].1 = 0.5;
        if name == "protectedShare" {
            named[i - 1].1 = 1.0;
        }
        let o = Options::named("options", &named).unwrap();
        assert_ne!(o, Options::default(), "{name} set nothing");
        assert!(!seen.contains(&o), "{name} set another option's field");
        seen.push(o);
    }
}

#[test]
fn an_unknown_repeated_or_missing_option_is_an_error_naming_it() {
    let mut named = all(f64::NAN);
    named.push(("lowWaterMark", 0.2));
    let e = Options::named("options.bounded", &named).unwrap_err();
    assert_eq!(e.field, "options.bounded.lowWaterMark");
    let mut named = all(f64::NAN);
    named.push(("partShare", 0.2));
    assert_eq!(
        Options::named("options", &named).unwrap_err().field,
        "options.partShare"
    );
    let named: Vec<_> = all(f64::NAN)
        .into_iter()
        .filter(|&(n, _)| n != "recentShare")
        .collect();
    let e = Options::named("options", &named).unwrap_err();
    assert_eq!(e.field, "options.recentShare");
    assert_eq!(
        e.to_string(),
        "options.recentShare was not given to the rules"
    );
}
