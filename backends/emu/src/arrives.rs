//! ARRIVES.LDGSTSBAR.64 (`cp.async.mbarrier.arrive`): an arrive on an mbarrier that fires once the
//! thread's earlier LDGSTS copies have landed. LDGSTS copies at issue here (`async_copy.rs`), so
//! the arrive fires as it issues, lane by lane. sm_90's `.ARVCNT` is one arrival and `.TRANSCNT`
//! one completed transaction on the SYNCS barrier word (`syncs.rs`); sm_80..89's plain form is one
//! arrival on the sm_80 barrier word (`barrier80.rs`).

use super::{Run, Warp, WARP};
use crate::decode::Inst;
use crate::EmuError;

impl Run<'_> {
    /// ARRIVES.LDGSTSBAR.64[.ARVCNT|.TRANSCNT] [Ra+URc+offset] in every executing lane.
    pub(crate) fn arrives(&mut self, w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
        for l in (0..WARP).filter(|&l| exec >> l & 1 == 1) {
            let addr = self.barrier_address(w, i, l)?;
            let old = self.barrier_word(addr, i, w, l)?;
            let new = match i.f(70, 2) {
                0 => crate::barrier80::arrive(old),
                1 => super::syncs::arrive_on(old, 1, 0),
                _ => super::syncs::arrive_on(old, 0, -1),
            };
            self.store("shared", addr, &new.to_le_bytes(), i, w, l)?;
        }
        Ok(())
    }
}
