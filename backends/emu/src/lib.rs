//! SASS emulator: decodes the SASS of a cubin and runs it warp by warp, checking control bits.
