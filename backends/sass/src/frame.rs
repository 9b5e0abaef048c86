//! The per-function stack frame: slots of local memory below the stack pointer R1.
//!
//! A function that needs local memory (PTX `.local` variables such as nvcc's `__local_depot`,
//! and later the register allocator's spill slots) gets a [`Frame`]: slots are allocated at
//! aligned offsets from R1, and the prologue ptxas writes sets R1 up:
//!
//! ```text
//! MOV R1, c[0x0][0x28]      // LDC on sm_90: the top of this thread's stack
//! IADD3 R1, R1, -size, RZ   // the frame
//! ```
//!
//! Before register allocation R1 is the virtual register [`Frame::stack_ptr`]; the allocator
//! pins it to R1 ([`Frame::pinned`]), which it never hands out otherwise. Local addresses are
//! 32-bit offsets in the thread's local window (`LDL`/`STL`); a generic address is the local one
//! plus the window base at `c[0x0][0x20]` ([`LOCAL_WINDOW_CBUF`]).
//! A pass that adds slots after lowering (spilling) calls [`resize_prologue`] so that the frame
//! allocation matches the final size. The frame size goes to EIATTR_FRAME_SIZE and
//! EIATTR_MIN_STACK_SIZE and to `-v`'s "N bytes stack frame" line.

use crate::ir::*;

/// Bank-0 offset of the initial stack pointer (the top of this thread's local memory).
pub const STACK_TOP_CBUF: u16 = 0x28;
/// Bank-0 offset of the generic address of local offset 0 (64-bit).
pub const LOCAL_WINDOW_CBUF: u16 = 0x20;
/// The physical register that holds the stack pointer.
pub const STACK_PTR_PHYS: u32 = 1;

/// What a frame slot holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// A PTX `.local` variable of the function.
    Local(String),
    /// A register spilled by the allocator.
    Spill,
}

/// One slot: `size` bytes at `offset` from the stack pointer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameSlot {
    pub offset: u32,
    pub size: u32,
    pub kind: SlotKind,
}

/// A function's stack frame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frame {
    pub slots: Vec<FrameSlot>,
    /// End of the highest slot.
    end: u32,
    /// Largest slot alignment.
    align: u32,
    /// The register that stands for R1 (None while the function has no frame).
    pub stack_ptr: Option<Reg>,
    /// Bytes stored to and loaded from spill slots (`-v`'s spill stores / spill loads).
    pub spill_store_bytes: u32,
    pub spill_load_bytes: u32,
}

impl Frame {
    /// Allocates `size` bytes aligned to `align` and returns their offset from the stack pointer.
    pub fn allocate(&mut self, size: u32, align: u32, kind: SlotKind) -> u32 {
        let align = align.max(1);
        let offset = self.end.div_ceil(align) * align;
        self.end = offset + size;
        self.align = self.align.max(align);
        self.slots.push(FrameSlot { offset, size, kind });
        offset
    }

    /// The offset of the `.local` variable `name`.
    pub fn local_offset(&self, name: &str) -> Option<u32> {
        self.slots.iter().find_map(|s| match &s.kind {
            SlotKind::Local(n) if n == name => Some(s.offset),
            _ => None,
        })
    }

    /// Bytes the prologue takes off R1: the slots' extent rounded up to the largest slot
    /// alignment, and to at least 8 bytes, as ptxas sizes frames (`.align 16 .b8 d[36]`: 48;
    /// 22 bytes of 4-aligned slots: 24), so that R1 keeps every slot aligned (0 when there is no
    /// slot).
    pub fn size(&self) -> u32 {
        let unit = self.align.max(8);
        self.end.div_ceil(unit) * unit
    }

    /// Whether the function needs a stack pointer.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Virtual registers the allocator must map to fixed physical registers: `(vreg, phys)`.
    pub fn pinned(&self) -> Option<(u32, u32)> {
        self.stack_ptr.map(|r| (r.idx, STACK_PTR_PHYS))
    }
}

/// The prologue's frame allocation: the `IADD3 sp, sp, -size, RZ` that reads and writes the
/// stack pointer (None if the function has no frame).
fn prologue_allocation(f: &mut Function) -> Option<&mut Instr> {
    let sp = match f.frame.stack_ptr? {
        _ if f.allocated => Reg::gpr(STACK_PTR_PHYS),
        sp => sp,
    };
    f.blocks.first_mut()?.instrs.iter_mut().find(|i| {
        matches!(i.op, Opcode::Iadd3 { x: false })
            && i.dsts[0] == Dst::Reg(sp)
            && i.srcs[0] == Src::reg(sp)
    })
}

/// Makes the prologue allocate the frame's current size (after slots were added).
pub fn resize_prologue(f: &mut Function) {
    let size = f.frame.size();
    if let Some(i) = prologue_allocation(f) {
        i.srcs[1] = Src::imm(size.wrapping_neg());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(name: &str) -> SlotKind {
        SlotKind::Local(name.into())
    }

    /// Offsets and sizes as ptxas 13.5 gives them (`-v` and the STL offsets of its code).
    #[test]
    fn slots_and_sizes_follow_ptxas() {
        let mut f = Frame::default();
        assert_eq!((f.size(), f.is_empty()), (0, true));
        assert_eq!(f.allocate(8, 8, local("b")), 0);
        assert_eq!(f.allocate(4, 4, local("e")), 8);
        assert_eq!(f.allocate(4, 4, local("c")), 12);
        assert_eq!(f.allocate(4, 4, local("a")), 16);
        assert_eq!(f.allocate(2, 2, local("d")), 20);
        assert_eq!((f.size(), f.local_offset("a")), (24, Some(16)));
        let mut g = Frame::default();
        g.allocate(36, 16, local("__local_depot0"));
        assert_eq!(g.size(), 48);
        let spill = g.allocate(4, 4, SlotKind::Spill);
        assert_eq!((spill, g.size()), (36, 48));
    }
}
