//! The CUDA driver API as the hardware check uses it (through `cudarc`, loaded with dlopen at run
//! time): open the first GPU, or say why there is none; run one entry of a cubin on buffers laid
//! out by the differential check's own marshalling, and read every buffer back.

use std::ffi::{c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use cudarc::driver::{result, sys};
use ptxforge_sim::setup::Inputs;
use ptxforge_sim::DeviceBuffer;

/// An open GPU: the first device, with its primary context current on this thread.
pub struct Gpu {
    /// Compute capability as `major * 10 + minor` (90 for an H100).
    pub sm: u32,
    pub name: String,
}

/// Opens the first GPU, or says why there is none: the driver library does not load, the driver
/// finds no device, or a call fails. Never panics for a missing library or symbol (cudarc panics
/// there; the panic is caught).
pub fn open_gpu() -> Result<Gpu, String> {
    // SAFETY: only tries to dlopen the driver library by its usual names.
    if !unsafe { sys::is_culib_present() } {
        return Err("the CUDA driver library (libcuda.so.1) does not load".into());
    }
    let opened = catch_unwind(AssertUnwindSafe(open_first_device));
    match opened {
        Ok(result) => result,
        Err(_) => Err("the CUDA driver library lacks a function the check calls".into()),
    }
}

fn open_first_device() -> Result<Gpu, String> {
    result::init().map_err(|e| format!("cuInit: {e}"))?;
    let count = result::device::get_count().map_err(|e| format!("cuDeviceGetCount: {e}"))?;
    if count < 1 {
        return Err("the driver finds no device".into());
    }
    let device = result::device::get(0).map_err(|e| format!("cuDeviceGet: {e}"))?;
    let attribute = |a| unsafe { result::device::get_attribute(device, a) };
    let major = attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
        .map_err(|e| format!("compute capability: {e}"))?;
    let minor = attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
        .map_err(|e| format!("compute capability: {e}"))?;
    let name = result::device::get_name(device).unwrap_or_else(|_| "unnamed GPU".into());
    // SAFETY: `device` came from cuDeviceGet.
    unsafe {
        let ctx = result::primary_ctx::retain(device).map_err(|e| format!("context: {e}"))?;
        result::ctx::set_current(ctx).map_err(|e| format!("context: {e}"))?;
    }
    Ok(Gpu {
        sm: (major * 10 + minor) as u32,
        name,
    })
}

/// Device memory freed when dropped (errors ignored: a faulted context fails every call).
struct Allocations(Vec<sys::CUdeviceptr>);

impl Drop for Allocations {
    fn drop(&mut self) {
        for &ptr in &self.0 {
            // SAFETY: each pointer came from cuMemAlloc and is freed once.
            let _ = unsafe { result::free_sync(ptr) };
        }
    }
}

/// A loaded module, unloaded when dropped.
struct Module(sys::CUmodule);

impl Drop for Module {
    fn drop(&mut self) {
        // SAFETY: the module came from cuModuleLoadData and is unloaded once.
        let _ = unsafe { result::module::unload(self.0) };
    }
}

impl Gpu {
    /// Runs `entry` of `cubin` with `grid` x `block` threads on copies of `inputs`' buffers (the
    /// parameters laid out by [`Inputs::params_for`] with the device addresses), and returns the
    /// buffers read back, under their simulated addresses so that they compare with the
    /// interpreter's. `Err` says which driver call failed (a fault, a bad image, a launch error).
    pub fn run(
        &self,
        cubin: &[u8],
        entry: &str,
        grid: [u32; 3],
        block: [u32; 3],
        inputs: &Inputs,
    ) -> Result<Vec<DeviceBuffer>, String> {
        catch_unwind(AssertUnwindSafe(|| {
            self.run_unguarded(cubin, entry, grid, block, inputs)
        }))
        .unwrap_or_else(|_| Err("a driver call panicked".into()))
    }

    fn run_unguarded(
        &self,
        cubin: &[u8],
        entry: &str,
        grid: [u32; 3],
        block: [u32; 3],
        inputs: &Inputs,
    ) -> Result<Vec<DeviceBuffer>, String> {
        // The image 8-byte aligned, as ELF readers expect.
        let image = aligned_words(cubin);
        // SAFETY: `image` is a whole cubin that outlives the call.
        let module = Module(
            unsafe { result::module::load_data(image.as_ptr() as *const c_void) }
                .map_err(|e| format!("cuModuleLoadData: {e}"))?,
        );
        let name = CString::new(entry).map_err(|_| "entry name has a NUL".to_string())?;
        // SAFETY: the module is loaded.
        let function = unsafe { result::module::get_function(module.0, name) }
            .map_err(|e| format!("cuModuleGetFunction({entry}): {e}"))?;
        let mut allocations = Allocations(Vec::new());
        for buffer in &inputs.buffers {
            // SAFETY: plain allocation and a copy of `bytes.len()` bytes into it.
            let ptr = unsafe { result::malloc_sync(buffer.bytes.len().max(1)) }
                .map_err(|e| format!("cuMemAlloc: {e}"))?;
            allocations.0.push(ptr);
            unsafe { result::memcpy_htod_sync(ptr, &buffer.bytes) }
                .map_err(|e| format!("cuMemcpyHtoD: {e}"))?;
        }
        let params = inputs.params_for(&allocations.0);
        launch(function, grid, block, &params)?;
        result::ctx::synchronize().map_err(|e| format!("kernel: {e}"))?;
        let mut contents = Vec::with_capacity(inputs.buffers.len());
        for (buffer, &ptr) in inputs.buffers.iter().zip(&allocations.0) {
            let mut bytes = vec![0u8; buffer.bytes.len()];
            // SAFETY: `ptr` holds `bytes.len()` bytes.
            unsafe { result::memcpy_dtoh_sync(&mut bytes, ptr) }
                .map_err(|e| format!("cuMemcpyDtoH: {e}"))?;
            contents.push(bytes);
        }
        Ok(inputs.with_contents(contents.into_iter()))
    }
}

/// Launches `function` with the whole parameter buffer at once (`CU_LAUNCH_PARAM_BUFFER_POINTER`):
/// the bytes go to the kernel exactly as laid out, as ptxas's parameter layout says.
fn launch(
    function: sys::CUfunction,
    grid: [u32; 3],
    block: [u32; 3],
    params: &[u8],
) -> Result<(), String> {
    let mut words = aligned_words(params);
    let mut size = params.len();
    let mut extra: [*mut c_void; 5] = [
        sys::CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT as usize as *mut c_void,
        words.as_mut_ptr() as *mut c_void,
        sys::CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT as usize as *mut c_void,
        &mut size as *mut usize as *mut c_void,
        sys::CU_LAUNCH_PARAM_END_AS_INT as usize as *mut c_void,
    ];
    // SAFETY: `extra` points at live data for the duration of the call, which copies it.
    unsafe {
        sys::cuLaunchKernel(
            function,
            grid[0],
            grid[1],
            grid[2],
            block[0],
            block[1],
            block[2],
            0,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            extra.as_mut_ptr(),
        )
        .result()
    }
    .map_err(|e| format!("cuLaunchKernel: {e}"))
}

/// `bytes` copied into 8-byte words (zero-padded).
fn aligned_words(bytes: &[u8]) -> Vec<u64> {
    let mut words = vec![0u64; bytes.len().div_ceil(8).max(1)];
    for (word, chunk) in words.iter_mut().zip(bytes.chunks(8)) {
        let mut b = [0u8; 8];
        b[..chunk.len()].copy_from_slice(chunk);
        *word = u64::from_le_bytes(b);
    }
    words
}
