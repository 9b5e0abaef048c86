//! PTX interpreter: runs a kernel of a parsed PTX module for a grid and block over simulated memory.
