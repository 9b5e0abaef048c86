//! Moving the parser's reused buffers into the tree's exact-size blocks without spare capacity.

use super::*;

/// The contents of a reused buffer, moved into a shared block of exactly their length, leaving
/// the buffer empty with its capacity.
pub(super) fn take_shared<T>(buf: &mut Vec<T>) -> Arc<[T]> {
    let mut block: Arc<[MaybeUninit<T>]> = (0..buf.len()).map(|_| MaybeUninit::uninit()).collect();
    let slots = Arc::get_mut(&mut block).expect("a block just made has one owner");
    // SAFETY: the block has room for the buffer's elements; once they are in place, the
    // `MaybeUninit` slice is the initialized `[T]` it has the layout of.
    unsafe {
        move_out(buf, slots.as_mut_ptr().cast::<T>());
        Arc::from_raw(Arc::into_raw(block) as *const [T])
    }
}

/// The contents of a reused buffer, moved into a vector of exactly their length (a quarter of the
/// tree's memory otherwise goes to spare capacity), leaving the buffer empty with its capacity.
pub(super) fn take_exact<T>(buf: &mut Vec<T>) -> Vec<T> {
    let len = buf.len();
    let mut v = Vec::with_capacity(len);
    // SAFETY: `v` has room for the `len` elements moved in.
    unsafe {
        move_out(buf, v.as_mut_ptr());
        v.set_len(len);
    }
    v
}

/// Bytes copied at a time by [`move_out`]: copies of a few KiB run the C library's vector loop
/// (larger ones switch to `rep movsb`, which callgrind counts an instruction per byte, and
/// `collect` moves element by element).
const MOVE_CHUNK_BYTES: usize = 1024;

/// Moves the elements of `buf` to `dst`, leaving `buf` empty (its capacity kept).
///
/// # Safety
/// `dst` must be valid for writing `buf.len()` elements and must not overlap `buf`.
unsafe fn move_out<T>(buf: &mut Vec<T>, dst: *mut T) {
    let per_chunk = (MOVE_CHUNK_BYTES / std::mem::size_of::<T>().max(1)).max(1);
    let len = buf.len();
    // The elements move: the buffer forgets them before they are copied.
    buf.set_len(0);
    let src = buf.as_ptr();
    let mut at = 0;
    while at < len {
        let n = per_chunk.min(len - at);
        std::ptr::copy_nonoverlapping(src.add(at), dst.add(at), n);
        at += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_exact_moves_everything_once() {
        for n in 0..8 {
            let mut buf: Vec<String> = (0..n)
                .map(|i| format!("value number {i} on the heap"))
                .collect();
            let want = buf.clone();
            let cap = buf.capacity();
            let got = take_exact(&mut buf);
            assert_eq!(got, want);
            assert_eq!(got.capacity(), n);
            assert!(buf.is_empty() && buf.capacity() == cap);
        }
    }

    /// Blocks past one copy chunk too: every element arrives once, in order, and the buffer
    /// keeps its capacity.
    #[test]
    fn take_shared_moves_everything_once() {
        for n in [0, 1, 7, 31, 32, 33, 100, 1000] {
            let mut buf: Vec<String> = (0..n).map(|i| format!("value {i} on the heap")).collect();
            let want = buf.clone();
            let cap = buf.capacity();
            let got = take_shared(&mut buf);
            assert_eq!(&got[..], &want[..]);
            assert!(buf.is_empty() && buf.capacity() == cap);
            let got = take_exact(&mut want.clone());
            assert_eq!(got, want);
        }
    }
}
