//! Lowering of parsed PTX functions to SASS machine IR with virtual registers.
