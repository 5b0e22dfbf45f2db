//! The book's vector code on each instruction set the module has, for the browser check: chapter
//! 8's fast kernel (its products, online softmax and vector `exp`) and chapter 11's quantized
//! products, on seeded inputs. In the browser the module runs them on WebAssembly's SIMD128 and on
//! the portable path; the check compares both with the portable path run natively.

use ch08_efficient::fast::{self, Isa};
use ch08_efficient::{Causal, Heads, Tiles};
use ch11_real_llm::decode::matrix::Matrix;
use ch11_real_llm::gguf::TensorType;
use rand::{Rng, SeedableRng};

/// What each call computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// chapter 8's fast kernel: 2 heads of 100 causal queries over 100 keys, width 64, in tiles
    /// of 32 by 48 (neither divides 100, so every edge case runs)
    Attention,
    /// chapter 11's products: Q4_1, Q8_0 and `f32` matrices of 40 × 96 times one token, then
    /// times three tokens
    Products,
    /// the vector `exp` on 2,001 points from -90 to 90
    Exp,
}

impl Work {
    pub const ALL: [Work; 3] = [Work::Attention, Work::Products, Work::Exp];

    /// The work numbered `n` by the page (its place in [`Work::ALL`]).
    pub fn numbered(n: u32) -> Result<Work, String> {
        Work::ALL.get(n as usize).copied().ok_or_else(|| format!("no work numbered {n}"))
    }
}

/// The path numbered `n` by the page (its place in [`Isa::ALL`]), if this module can run it.
pub fn path(n: u32) -> Result<Isa, String> {
    let isa = *Isa::ALL.get(n as usize).ok_or_else(|| format!("no path numbered {n}"))?;
    if !isa.supported() {
        return Err(format!("this module cannot run the {} path", isa.name()));
    }
    Ok(isa)
}

/// [`Work`] on `isa`.
///
/// # Panics
/// If this CPU (or this module) cannot run `isa`.
pub fn run(work: Work, isa: Isa) -> Vec<f32> {
    match work {
        Work::Attention => {
            let [q, k, v] = [1, 2, 3].map(|seed| Heads::random(seed, 2, 100, 64));
            fast::tiled_on(isa, &q, &k, &v, &Causal, Tiles { q: 32, k: 48 }).data
        }
        Work::Products => {
            let (rows, cols) = (40, 96);
            let mut rng = rand::rngs::StdRng::seed_from_u64(11);
            let xs: Vec<f32> = (0..3 * cols).map(|_| rng.gen_range(-1.0..1.0)).collect();
            let matrices = [
                quantized(TensorType::Q4_1, 20, rows, cols, &mut rng),
                quantized(TensorType::Q8_0, 34, rows, cols, &mut rng),
                Matrix::f32(
                    rows,
                    cols,
                    (0..rows * cols).map(|_| rng.gen_range(-1.0..1.0)).collect(),
                ),
            ];
            matrices
                .iter()
                .flat_map(|m| [m.apply(isa, &xs[..cols], 1), m.apply(isa, &xs, 3)].concat())
                .collect()
        }
        Work::Exp => {
            let mut xs: Vec<f32> = (0..=2000).map(|i| -90.0 + i as f32 * 0.09).collect();
            isa.exp_in_place(&mut xs);
            xs
        }
    }
}

/// A matrix of seeded blocks of `kind` (`bytes` per block): half-precision scales of 1/128 to
/// 1/32 (and a minimum of -1/64 for Q4_1), random codes.
fn quantized(
    kind: TensorType,
    bytes: usize,
    rows: usize,
    cols: usize,
    rng: &mut impl Rng,
) -> Matrix {
    const SCALES: [[u8; 2]; 3] = [[0x00, 0x20], [0x00, 0x24], [0x00, 0x28]]; // 2^-7, 2^-6, 2^-5
    let mut data = Vec::new();
    for _ in 0..rows * cols / 32 {
        data.extend(SCALES[rng.gen_range(0..3u32) as usize]); // u32: the same draws on 32-bit WebAssembly
        if kind == TensorType::Q4_1 {
            data.extend([0x00, 0xA4]); // -2^-6
        }
        let codes = bytes - data.len() % bytes;
        data.extend((0..codes).map(|_| rng.gen::<u8>()));
    }
    Matrix::from_stored(kind, rows, cols, &data, false).expect("whole blocks")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_work_runs_on_every_path_here_and_agrees() {
        let reference = Work::ALL.map(|w| run(w, Isa::Portable));
        assert_eq!(reference.each_ref().map(Vec::len), [2 * 100 * 64, 3 * 4 * 40, 2001]);
        for isa in Isa::available() {
            for (work, want) in Work::ALL.iter().zip(&reference) {
                let got = run(*work, isa);
                let worst = got.iter().zip(want).map(|(a, b)| (a - b).abs() / b.abs().max(1.0));
                let worst = worst.fold(0.0f32, f32::max);
                assert!(worst < 1e-5, "{work:?} on {}: {worst:e}", isa.name());
            }
        }
        assert_eq!(path(0), Ok(Isa::Portable));
        assert_eq!(path(1).unwrap_err(), "this module cannot run the simd128 path");
        assert!(path(9).is_err() && Work::numbered(3).is_err());
    }
}
