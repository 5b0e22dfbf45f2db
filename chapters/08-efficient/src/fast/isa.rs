//! Which instruction set the fast kernel runs on, chosen at run time: the widest the CPU has,
//! unless the environment variable `ATTENTION_ISA` names another (`portable`, `avx2`, `avx512`),
//! so that every path can be timed and tested on one machine. In WebAssembly the choice is made
//! when the module is built: with SIMD128 enabled (`cargo xtask wasm` enables it) the module
//! runs [`Isa::Simd128`], since a browser cannot be asked at run time.
#![allow(unsafe_code)]

use std::sync::OnceLock;

use super::lanes::{self, Lanes, Portable};

/// The environment variable that forces an instruction set.
pub const ISA_VARIABLE: &str = "ATTENTION_ISA";

/// Query rows per strip on each path: the rows of accumulators its registers hold (two vectors
/// per row, plus two vectors of keys and one broadcast).
const PORTABLE_ROWS: usize = 4;
const AVX2_ROWS: usize = 6;
const AVX512_ROWS: usize = 12;
/// WebAssembly's 128-bit vectors: four floats each, and the engine maps them onto the host's
/// registers (16 on x86-64, 32 on ARM64), so the rows of AVX2 fit.
const SIMD128_ROWS: usize = 6;

/// An instruction set the fast kernel has a compiled path for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Isa {
    /// Plain Rust, any CPU: 8 floats per vector as the compiler manages, strips of 4 rows.
    Portable,
    /// WebAssembly SIMD128 (every major browser since 2021-2023): 4 floats per vector, strips of
    /// 6 rows. Only in a module built with the `simd128` target feature.
    Simd128,
    /// AVX2 and FMA: 8 floats per register, strips of 6 rows (12 accumulators of 16 registers).
    Avx2,
    /// AVX-512F: 16 floats per register, strips of 12 rows (24 accumulators of 32 registers).
    Avx512,
}

impl Isa {
    pub const ALL: [Isa; 4] = [Isa::Portable, Isa::Simd128, Isa::Avx2, Isa::Avx512];

    /// The name `ATTENTION_ISA` takes.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::Simd128 => "simd128",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }

    /// Whether this CPU can run the path.
    pub fn supported(self) -> bool {
        match self {
            Isa::Portable => true,
            Isa::Simd128 => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("fma")
            }
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => std::arch::is_x86_feature_detected!("avx512f"),
            #[cfg(not(target_arch = "x86_64"))]
            Isa::Avx2 | Isa::Avx512 => false,
        }
    }

    /// Every path this CPU can run, narrowest first.
    pub fn available() -> Vec<Isa> {
        Isa::ALL.into_iter().filter(|isa| isa.supported()).collect()
    }

    /// The widest path this CPU can run.
    pub fn widest() -> Isa {
        *Isa::available().last().expect("the portable path runs everywhere")
    }

    /// The path named by `value` (`ATTENTION_ISA`'s value), or why it cannot run here.
    pub fn parse(value: &str) -> Result<Isa, String> {
        let names: Vec<&str> = Isa::ALL.iter().map(|isa| isa.name()).collect();
        let isa = Isa::ALL.into_iter().find(|isa| isa.name() == value.trim()).ok_or_else(|| {
            format!("{ISA_VARIABLE}={value:?} is not one of {}", names.join(", "))
        })?;
        if !isa.supported() {
            return Err(format!("{ISA_VARIABLE}={value}: this CPU does not have {value}"));
        }
        Ok(isa)
    }

    /// The path [`super::tiled`] takes: `ATTENTION_ISA` if set, else [`Isa::widest`]. Read once.
    ///
    /// # Panics
    /// If `ATTENTION_ISA` names no path, or one this CPU cannot run.
    pub fn chosen() -> Isa {
        static CHOSEN: OnceLock<Isa> = OnceLock::new();
        *CHOSEN.get_or_init(|| match std::env::var(ISA_VARIABLE) {
            Ok(value) => Isa::parse(&value).unwrap_or_else(|e| panic!("{e}")),
            Err(_) => Isa::widest(),
        })
    }

    /// Floats per vector register.
    pub fn lanes(self) -> usize {
        match self {
            Isa::Simd128 => 4,
            Isa::Portable | Isa::Avx2 => 8,
            Isa::Avx512 => 16,
        }
    }

    /// Query rows per strip: how many rows of accumulators the registers hold.
    pub fn strip_rows(self) -> usize {
        match self {
            Isa::Portable => PORTABLE_ROWS,
            Isa::Simd128 => SIMD128_ROWS,
            Isa::Avx2 => AVX2_ROWS,
            Isa::Avx512 => AVX512_ROWS,
        }
    }

    // ANCHOR: isa_run
    /// Runs `work` compiled for this path: the generic code is inlined into a function compiled
    /// with the path's target features.
    ///
    /// # Panics
    /// If this CPU cannot run the path.
    pub fn run<T: OnPath>(self, work: T) -> T::Output {
        assert!(self.supported(), "the {} path needs a CPU that has it", self.name());
        // SAFETY: the CPU has the instruction set, asserted just now
        unsafe {
            match self {
                Isa::Portable => work.run::<Portable, PORTABLE_ROWS>(),
                #[cfg(target_arch = "wasm32")]
                Isa::Simd128 => wasm::run_simd128(work),
                #[cfg(target_arch = "x86_64")]
                Isa::Avx2 => x86::run_avx2(work),
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512 => x86::run_avx512(work),
                #[cfg(not(target_arch = "wasm32"))]
                Isa::Simd128 => unreachable!("SIMD128 runs only in WebAssembly"),
                #[cfg(not(target_arch = "x86_64"))]
                Isa::Avx2 | Isa::Avx512 => unreachable!("AVX runs only on x86-64"),
            }
        }
    }
    // ANCHOR_END: isa_run

    /// `e^x` of every element, by this path's vector `exp` (the scalar one for a tail shorter
    /// than a vector).
    ///
    /// # Panics
    /// If this CPU cannot run the path.
    pub fn exp_in_place(self, xs: &mut [f32]) {
        self.run(ExpInPlace(xs))
    }
}

// ANCHOR: on_path
/// Work written once for any [`Lanes`] and strip height `MR`, run by [`Isa::run`].
pub trait OnPath {
    type Output;
    /// # Safety
    /// The CPU must have `L`'s instruction set, and `MR` must be the path's
    /// [`Isa::strip_rows`].
    unsafe fn run<L: Lanes, const MR: usize>(self) -> Self::Output;
}
// ANCHOR_END: on_path

struct ExpInPlace<'a>(&'a mut [f32]);

impl OnPath for ExpInPlace<'_> {
    type Output = ();
    #[inline(always)]
    unsafe fn run<L: Lanes, const MR: usize>(self) {
        let mut chunks = self.0.chunks_exact_mut(L::W);
        for c in &mut chunks {
            L::store(c.as_mut_ptr(), L::exp(L::load(c.as_ptr())));
        }
        chunks.into_remainder().iter_mut().for_each(|x| *x = lanes::exp(*x));
    }
}

/// The functions that switch on a vector instruction set.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::super::{avx2::Avx2, avx512::Avx512};
    use super::{OnPath, AVX2_ROWS, AVX512_ROWS};

    // ANCHOR: run_avx2
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn run_avx2<T: OnPath>(work: T) -> T::Output {
        work.run::<Avx2, AVX2_ROWS>()
    }
    // ANCHOR_END: run_avx2

    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn run_avx512<T: OnPath>(work: T) -> T::Output {
        work.run::<Avx512, AVX512_ROWS>()
    }
}

/// The function that switches on WebAssembly's vectors.
#[cfg(target_arch = "wasm32")]
mod wasm {
    use super::super::simd128::Simd128;
    use super::{OnPath, SIMD128_ROWS};

    #[target_feature(enable = "simd128")]
    pub(super) unsafe fn run_simd128<T: OnPath>(work: T) -> T::Output {
        work.run::<Simd128, SIMD128_ROWS>()
    }
}
