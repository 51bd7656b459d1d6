use super::*;

/// The entries of `vocab`: every present rank of the direct tables and every slot.
fn entries(vocab: &Vocab) -> usize {
    let present = |ranks: &[u32]| ranks.iter().filter(|&&r| r != ABSENT).count();
    present(&vocab.single)
        + present(&vocab.pair)
        + vocab.table.iter().filter(|s| s.len != 0).count()
}

#[test]
fn cl100k_by_reference_to_o200k_is_the_shipped_vocabulary() {
    // The TKV1 frame as shipped, written by build.rs for this test only.
    static SHIPPED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.tkv"));
    let derived = Vocab::from_tkr(crate::vocab_blob(), crate::CL100K_FRAME, crate::O200K_FRAME);
    let Tkv1 {
        rank0,
        lengths,
        mut starts,
    } = tkv1(SHIPPED, 0..SHIPPED.len());
    assert_eq!(lengths.len(), 100_256);
    for (i, &len) in lengths.iter().enumerate() {
        let len = len as usize;
        let token = &SHIPPED[starts[len]..starts[len] + len];
        starts[len] += len;
        assert_eq!(derived.get(token), Some(rank0 + i as u32), "{token:?}");
    }
    // Every shipped token is there with its rank, and nothing else is.
    assert_eq!(entries(&derived), lengths.len());
    assert_eq!(
        entries(&Vocab::from_tkv(SHIPPED, 0..SHIPPED.len())),
        lengths.len()
    );
}
