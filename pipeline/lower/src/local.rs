//! Local memory: the function's `.local` variables (nvcc's `__local_depot`, plain local arrays)
//! laid out in the stack frame (`ptxforge_sass::frame`), the prologue that sets up R1, local
//! addresses (`mov %SPL, __local_depot0`: R1 plus the variable's offset, high half 0) and the
//! conversions between local and generic addresses (`cvta.local`, `cvta.to.local`: plus or minus
//! the local window base at `c[0x0][0x20]`), as ptxas emits them.

use ptxforge_ptx::ast::{self, Instruction, StateSpace};
use ptxforge_sass::frame::{SlotKind, LOCAL_WINDOW_CBUF, STACK_TOP_CBUF};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// Places the function's `.local` variables in the frame as ptxas does: the most aligned first,
/// and among equally aligned ones the last declared first (`.align 4 a; .align 8 b; .align 4 c`
/// gives b at 0, c at 8, a at 12).
pub fn lay_out_locals(f: &mut Function, func: &ast::Function) {
    let mut locals: Vec<&ast::VarDecl> = func
        .vars
        .iter()
        .filter(|v| v.space == StateSpace::Local)
        .rev()
        .collect();
    locals.sort_by_key(|v| std::cmp::Reverse(v.alignment().max(1)));
    for v in locals {
        let size = v.size_bytes() as u32;
        let align = v.alignment().max(1);
        f.frame
            .allocate(size, align, SlotKind::Local(v.name.to_string()));
    }
    if !f.frame.is_empty() {
        f.frame.stack_ptr = Some(f.new_vreg(RegFile::Gpr, 1));
    }
}

impl Ctx<'_> {
    /// The prologue of a function with a frame: `MOV R1, c[0x0][0x28]` (LDC on sm_90), then
    /// `IADD3 R1, R1, -size, RZ`.
    pub fn set_up_frame(&mut self) {
        let Some(sp) = self.f.frame.stack_ptr else {
            return;
        };
        let saved = std::mem::replace(&mut self.guard, Src::TRUE);
        self.load_const(sp, STACK_TOP_CBUF as u32);
        let size = self.f.frame.size();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(sp), Dst::None],
            &[Src::reg(sp), Src::imm(size.wrapping_neg()), Src::ZERO],
        );
        self.guard = saved;
    }

    /// The frame offset of the `.local` variable `name`, if it is one.
    pub fn local_variable(&self, name: &str) -> Option<u32> {
        self.f.frame.local_offset(name)
    }

    /// `[base + offset]` of the local address `offset` bytes into the frame.
    pub fn frame_operand(&self, offset: i32) -> (Src, i32) {
        match self.f.frame.stack_ptr {
            Some(sp) => (Src::reg(sp), offset),
            None => (Src::ZERO, offset),
        }
    }

    /// The 32-bit local address of frame offset `offset` (R1 itself, or R1 + offset).
    pub fn local_address(&mut self, offset: u32) -> Src {
        let (sp, _) = self.frame_operand(0);
        if offset == 0 {
            return sp;
        }
        let t = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(t), Dst::None],
            &[sp, Src::imm(offset), Src::ZERO],
        );
        Src::reg(t)
    }

    /// `cvta.local.u64 d, a` (generic = window base + local address) and `cvta.to.local.u64 d, a`
    /// (local = generic - window base; local addresses are 32 bits, the high half is 0).
    pub fn cvta_local(&mut self, i: &Instruction, d: Reg, a: &ast::Operand) -> LResult<()> {
        if d.comps != 2 {
            return Err(format!(
                "'{}.{}' to a 32-bit register is not supported yet",
                i.opcode(),
                i.mods().join(".")
            ));
        }
        let (lo, _) = self.src64(a)?;
        let lo = self.in_reg(lo);
        let window = |half: u16| Src::cbuf(0, LOCAL_WINDOW_CBUF + 4 * half);
        if i.has_mod("to") {
            self.emit(
                Opcode::Iadd3 { x: false },
                &[Dst::Reg(d.part(0)), Dst::None],
                &[lo, window(0).negated(), Src::ZERO],
            );
            self.emit(Opcode::Mov, &[Dst::Reg(d.part(1))], &[Src::ZERO]);
            return Ok(());
        }
        let p = self.temp_pred();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d.part(0)), Dst::Reg(p)],
            &[lo, window(0), Src::ZERO],
        );
        self.emit(
            Opcode::Iadd3 { x: true },
            &[Dst::Reg(d.part(1)), Dst::None],
            &[Src::ZERO, window(1), Src::ZERO, Src::reg(p), Src::FALSE],
        );
        Ok(())
    }
}
