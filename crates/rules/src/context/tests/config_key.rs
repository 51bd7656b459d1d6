use super::*;

#[test]
fn the_key_is_the_one_earlier_versions_wrote() {
    // Keys as the shell wrote them before the rules did, `textKey(JSON.stringify(key))`
    // run in Node on the same options.
    let shares = [0.75, 0.25, f64::NAN, f64::NAN, 0.5, f64::NAN, f64::NAN];
    let o = KeyOptions {
        budget: 200_000.0,
        shares: &shares,
        system_tokens: 12.0,
        pinned_tokens: 0.0,
        cache_control: true,
        recall: false,
        protected_tools: &[],
    };
    assert_eq!(config_key(&o), "44:ufj4q0:bgu5mm");
    let shares = [f64::NAN, f64::NAN, 1e-7, f64::NAN, f64::NAN, f64::NAN, 1.0];
    let tools = ["say \"hi\"\n", "日本語 😀", "tab\there"];
    let o = KeyOptions {
        budget: 8_000.0,
        shares: &shares,
        system_tokens: 7.0,
        pinned_tokens: 5.0,
        cache_control: false,
        recall: true,
        protected_tools: &tools,
    };
    assert_eq!(config_key(&o), "109:1anahf6:19xbrg1");
}
