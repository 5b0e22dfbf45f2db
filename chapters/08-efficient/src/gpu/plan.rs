//! The host side of the GPU kernel, which needs no GPU: which configuration of the kernel a head
//! width gets, how many thread blocks and threads a call launches, how much shared memory each
//! block holds, and the checks on the arguments. The launch in [`super::cuda`] follows this plan.

use std::fmt;

/// Queries per thread block, in every kernel: 128, which the H200 ran faster than 64 in all three
/// (`xtask/gpu-kit/runs/2026-11-29-h200-a7a9ab0/ch08-variants.txt`, `compare/gpu_variants.py`).
pub const TILE_Q: usize = 128;

/// Shared memory a block may use without asking the driver for more: 48 KiB on every NVIDIA GPU
/// since compute capability 2.0.
pub const SHARED_LIMIT: usize = 48 * 1024;

/// The largest grid's second axis: CUDA allows 65,535 blocks along y, one per head here.
pub const MAX_HEADS: usize = 65_535;

/// What the kernel refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuAttentionError {
    /// no heads or no positions
    Empty { heads: usize, n: usize },
    /// the kernel is compiled for head widths of 64 and 128
    HeadWidth(usize),
    /// more heads (batch × heads) than one launch's grid holds
    TooManyHeads(usize),
    /// queries, keys and values of different lengths
    Lengths { q: usize, k: usize, v: usize },
    /// a tensor that is a view (permuted or broadcast) rather than row-major memory
    NotContiguous(&'static str),
    /// what the CUDA driver or nvrtc said
    Device(String),
}

impl fmt::Display for GpuAttentionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty { heads, n } => {
                write!(f, "nothing to attend over: {heads} heads of {n} positions")
            }
            Self::HeadWidth(d) => write!(f, "head width {d}: the kernel is built for 64 and 128"),
            Self::TooManyHeads(h) => {
                write!(f, "{h} heads (batch × heads): one launch holds at most {MAX_HEADS}")
            }
            Self::Lengths { q, k, v } => write!(
                f,
                "queries, keys and values must have one length (self-attention): {q}, {k}, {v}"
            ),
            Self::NotContiguous(which) => write!(
                f,
                "{which} is a view, not row-major memory: make it contiguous first (for example \
                 with `.realize()` after a permute, or a copy)"
            ),
            Self::Device(why) => write!(f, "the GPU refused the kernel: {why}"),
        }
    }
}

impl std::error::Error for GpuAttentionError {}

/// The half-precision type of the tensor-core kernel's inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// IEEE float16: 11 significant bits, largest value 65,504
    F16,
    /// bfloat16: float32's range with 8 significant bits
    Bf16,
}

/// Which of the chapter's two kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// `attention.cu`: float32, one thread per query row
    Plain,
    /// `attention_mma.cu`: half-precision inputs on the tensor cores, float32 sums, a warp per
    /// 16 query rows
    TensorCores(Half),
    /// `attention_tf32.cu`: float32 on the tensor cores, each product as three TF32 products
    /// (3xTF32), a warp per 16 query rows
    Tf32x3,
}

/// One configuration of a kernel: the source is compiled once per kernel and head width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub kernel: Kernel,
    /// `d_k`, which is also `d_v`
    pub head_dim: usize,
    /// keys (and values) per tile in shared memory
    pub tile_k: usize,
}

impl Config {
    /// Each kernel takes the widest key tile whose keys and values fit [`SHARED_LIMIT`], at most
    /// 64 keys: the plain kernel 64 for `d = 64` and 32 for `d = 128` (32 KiB each); the kernel
    /// on halves 64 for both (18 KiB and 35 KiB); the 3xTF32 kernel 64 and 32 (34 KiB and 33 KiB,
    /// its rows padded by 4 floats).
    pub fn new(kernel: Kernel, head_dim: usize) -> Result<Config, GpuAttentionError> {
        if head_dim != 64 && head_dim != 128 {
            return Err(GpuAttentionError::HeadWidth(head_dim));
        }
        let mut config = Config { kernel, head_dim, tile_k: 64 };
        while config.shared_bytes() > SHARED_LIMIT {
            config.tile_k /= 2;
        }
        Ok(config)
    }

    /// Bytes of shared memory per block: one tile of keys and one of values; the tensor-core
    /// kernel's rows are padded by 8 halves (so that a warp's 8 rows start in different banks).
    pub fn shared_bytes(&self) -> usize {
        let (k, d) = (self.tile_k, self.head_dim);
        match self.kernel {
            Kernel::Plain => 2 * k * d * 4,
            Kernel::TensorCores(_) => (k * (d + 8) + d * (k + 8)) * 2,
            Kernel::Tf32x3 => 2 * k * (d + 4) * 4,
        }
    }

    /// Threads per block: one per query row, or a warp per 16 rows (eight warps).
    pub fn threads(&self) -> usize {
        match self.kernel {
            Kernel::Plain => TILE_Q,
            Kernel::TensorCores(_) | Kernel::Tf32x3 => TILE_Q / 16 * 32,
        }
    }

    /// The lines put before the kernel's source when it is compiled for this configuration.
    pub fn defines(&self) -> String {
        let mut lines = format!(
            "#define HEAD_DIM {}\n#define TILE_K {}\n#define TILE_Q {TILE_Q}\n",
            self.head_dim, self.tile_k
        );
        if let Kernel::TensorCores(half) = self.kernel {
            lines += &format!("#define HALF_BF16 {}\n", (half == Half::Bf16) as u8);
        }
        lines
    }

    /// The kernel's CUDA C source.
    pub fn source(&self) -> &'static str {
        match self.kernel {
            Kernel::Plain => super::SOURCE,
            Kernel::TensorCores(_) => super::SOURCE_MMA,
            Kernel::Tf32x3 => super::SOURCE_TF32,
        }
    }

    /// The attention function's name in [`Config::source`].
    pub fn function(&self) -> &'static str {
        match self.kernel {
            Kernel::Plain => "tiled_attention_f32",
            Kernel::TensorCores(_) => "tiled_attention_mma",
            Kernel::Tf32x3 => "tiled_attention_tf32",
        }
    }

    /// Every configuration the chapter compiles: both kernels (the tensor-core one in both half
    /// types) at both head widths.
    pub fn all() -> Vec<Config> {
        let kernels = [
            Kernel::Plain,
            Kernel::TensorCores(Half::F16),
            Kernel::TensorCores(Half::Bf16),
            Kernel::Tf32x3,
        ];
        let widths = [64, 128];
        kernels
            .iter()
            .flat_map(|&k| widths.map(|d| Config::new(k, d).expect("64 and 128")))
            .collect()
    }

    /// The virtual architecture nvrtc compiles for: `compute_80` for the tensor-core kernels
    /// (`mma.sync` on halves and TF32, `cvt` to bfloat16 and TF32); nvrtc's own default
    /// (`compute_75` in CUDA 13) for the plain one.
    pub fn arch(&self) -> Option<&'static str> {
        (self.kernel != Kernel::Plain).then_some("compute_80")
    }

    /// Every function the compiled module holds: the attention kernel, and the tensor-core
    /// kernel's conversion to halves.
    pub fn functions(&self) -> &'static [&'static str] {
        match self.kernel {
            Kernel::Plain => &["tiled_attention_f32"],
            Kernel::TensorCores(_) => &["tiled_attention_mma", "to_halves"],
            Kernel::Tf32x3 => &["tiled_attention_tf32"],
        }
    }

    /// What nvrtc compiles: the defines, [`COMMON`](super::COMMON), for the tensor-core kernels
    /// [`WARP_SOFTMAX`](super::WARP_SOFTMAX), and the kernel's source.
    pub fn nvrtc_source(&self) -> String {
        let softmax = if self.kernel == Kernel::Plain { "" } else { super::WARP_SOFTMAX };
        self.defines() + super::COMMON + softmax + self.source()
    }

    /// The name of the compiled module, one per configuration.
    pub fn module(&self) -> String {
        let kind = match self.kernel {
            Kernel::Plain => "f32",
            Kernel::TensorCores(Half::F16) => "f16",
            Kernel::TensorCores(Half::Bf16) => "bf16",
            Kernel::Tf32x3 => "tf32x3",
        };
        format!("ch08_tiled_{kind}_d{}_k{}", self.head_dim, self.tile_k)
    }
}

/// One call: the configuration, the grid and the block.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Launch {
    pub config: Config,
    /// `(query blocks, heads, 1)`
    pub grid: (u32, u32, u32),
    /// `(threads, 1, 1)`
    pub block: (u32, u32, u32),
    /// the plain kernel's `1 / √d`, folded into each query row once; the tensor-core kernel's
    /// `log2(e) / √d`, for `exp2`
    pub scale: f32,
}

impl Launch {
    /// The launch of `kernel` for `heads` heads (batch × heads) of `n` queries, keys and values
    /// of width `d`.
    pub fn plan(
        kernel: Kernel,
        heads: usize,
        n: usize,
        d: usize,
    ) -> Result<Launch, GpuAttentionError> {
        if heads == 0 || n == 0 {
            return Err(GpuAttentionError::Empty { heads, n });
        }
        let config = Config::new(kernel, d)?;
        if heads > MAX_HEADS {
            return Err(GpuAttentionError::TooManyHeads(heads));
        }
        Ok(Launch {
            config,
            grid: (n.div_ceil(TILE_Q) as u32, heads as u32, 1),
            block: (config.threads() as u32, 1, 1),
            scale: match kernel {
                Kernel::Plain => 1.0 / (d as f32).sqrt(),
                Kernel::TensorCores(_) | Kernel::Tf32x3 => {
                    std::f32::consts::LOG2_E / (d as f32).sqrt()
                }
            },
        })
    }
}

/// Keys the thread block starting at query `q0` reads: all `n`, or with the causal mask only up to
/// its last query, so the key tiles after the diagonal are never loaded.
pub fn keys_read(q0: usize, n: usize, causal: bool) -> usize {
    match causal {
        true => n.min(q0 + TILE_Q),
        false => n,
    }
}

/// Key tiles loaded into shared memory over the whole call, per head.
pub fn tiles_loaded(n: usize, tile_k: usize, causal: bool) -> usize {
    (0..n).step_by(TILE_Q).map(|q0| keys_read(q0, n, causal).div_ceil(tile_k)).sum()
}

/// Floating-point operations of exact attention, `4 · heads · n² · d` (two products of
/// `n × n × d`, a multiply and an add each), halved with the causal mask; the measure of
/// throughput the timing program prints.
pub fn flops(heads: usize, n: usize, d: usize, causal: bool) -> f64 {
    let full = 4.0 * (heads * n * n * d) as f64;
    match causal {
        true => full / 2.0,
        false => full,
    }
}

/// The page's table of the kernels: per kernel, its inputs, threads a block, and at head widths
/// 64 and 128 its keys a tile and bytes of shared memory a block.
pub fn kernels_table() -> String {
    let rows = [
        ("plain (`attention.cu`)", "float32", Kernel::Plain, "one per query row"),
        (
            "tensor cores (`attention_mma.cu`)",
            "float16 or bfloat16",
            Kernel::TensorCores(Half::F16),
            "a warp per 16 rows",
        ),
        ("3xTF32 (`attention_tf32.cu`)", "float32", Kernel::Tf32x3, "a warp per 16 rows"),
    ];
    let mut out = format!(
        "Each kernel takes {TILE_Q} queries a block; at head width 64 and 128:\n\n\
         | kernel | inputs | threads a block | keys a tile | shared memory a block, bytes |\n\
         |---|---|---|---:|---:|\n"
    );
    for (name, inputs, kernel, threads) in rows {
        let [small, large] = [64, 128].map(|d| Config::new(kernel, d).expect("64 and 128"));
        assert_eq!(small.threads(), large.threads());
        out += &format!(
            "| {name} | {inputs} | {}, {threads} | {} / {} | {} / {} |\n",
            small.threads(),
            small.tile_k,
            large.tile_k,
            thousands(small.shared_bytes()),
            thousands(large.shared_bytes())
        );
    }
    out
}

/// `35840` as `35,840`.
fn thousands(x: usize) -> String {
    match x {
        0..=999 => x.to_string(),
        _ => format!("{},{:03}", thousands(x / 1000), x % 1000),
    }
}
