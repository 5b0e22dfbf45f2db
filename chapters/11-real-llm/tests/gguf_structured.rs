//! Structured fuzzing of the GGUF reader: random valid headers (keys, values of every type,
//! strings, arrays nested in arrays, tensors of every type and shape, an alignment) that must read
//! back as written, then the same headers with their counts, lengths, types, dimensions and
//! offsets changed, which must never panic and must fail with an error that fits what was changed.

use ch11_real_llm::gguf::write::{code, Builder, Part, Spot};
use ch11_real_llm::gguf::{Gguf, GgufError, Header, TensorType, Value, MAX_ARRAY_DEPTH};
use proptest::prelude::*;

/// How many generated headers each of the two properties tries per run (the page says so).
pub const STRUCTURED_HEADERS: u32 = 2_000;

/// One value of any of the twelve scalar types; floats from any bit pattern (NaN included).
fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<u8>().prop_map(Value::U8),
        any::<i8>().prop_map(Value::I8),
        any::<u16>().prop_map(Value::U16),
        any::<i16>().prop_map(Value::I16),
        any::<u32>().prop_map(Value::U32),
        any::<i32>().prop_map(Value::I32),
        any::<u64>().prop_map(Value::U64),
        any::<i64>().prop_map(Value::I64),
        any::<u32>().prop_map(|b| Value::F32(f32::from_bits(b))),
        any::<u64>().prop_map(|b| Value::F64(f64::from_bits(b))),
        any::<bool>().prop_map(Value::Bool),
        "\\PC{0,12}".prop_map(Value::String),
    ]
}

/// A value: a scalar, or an array (up to 3 levels of arrays, a few items each) whose items all
/// have the type of its first, as the format wants; an array of arrays holds arrays of any types.
fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(3, 48, 6, |inner| {
        prop::collection::vec(inner, 0..6).prop_map(|items| {
            let first = items.first().map(code);
            Value::Array(items.into_iter().filter(|v| Some(code(v)) == first).collect())
        })
    })
}

/// A tensor: a type, one to four dimensions (the first a whole number of blocks) and bytes.
fn tensor() -> impl Strategy<Value = (TensorType, Vec<u64>, u8)> {
    let kind = prop_oneof![
        Just(TensorType::F32),
        Just(TensorType::F16),
        Just(TensorType::Q4_1),
        Just(TensorType::Q8_0)
    ];
    (kind, prop::collection::vec(1u64..4, 1..=4), any::<u8>()).prop_map(|(kind, mut dims, seed)| {
        dims[0] *= kind.block_elements();
        (kind, dims, seed)
    })
}

/// A valid file's builder, and what it holds.
#[derive(Debug, Clone)]
struct Written {
    builder: Builder,
    metadata: Vec<(String, Value)>,
    tensors: Vec<(String, Vec<u64>, TensorType, Vec<u8>)>,
    alignment: u64,
}

fn written() -> impl Strategy<Value = Written> {
    let keys = "[a-z]{1,8}(\\.[a-z_]{1,8}){0,2}";
    let alignment = prop_oneof![Just(None), (0u32..7).prop_map(|p| Some(1u64 << p))];
    (
        prop::collection::btree_map(keys, value(), 0..6),
        prop::collection::vec(tensor(), 0..5),
        alignment,
    )
        .prop_map(|(metadata, tensors, alignment)| {
            let mut builder = Builder::new();
            let mut all = Vec::new();
            if let Some(a) = alignment {
                builder = builder.alignment(a);
                all.push(("general.alignment".to_string(), Value::U32(a as u32)));
            }
            for (key, value) in metadata {
                builder = builder.meta(&key, value.clone());
                all.push((key, value));
            }
            let mut made = Vec::new();
            for (i, (kind, dims, seed)) in tensors.into_iter().enumerate() {
                let len = kind.bytes_of(dims.iter().product()) as usize;
                let data: Vec<u8> = (0..len).map(|j| (j as u8).wrapping_mul(seed)).collect();
                let name = format!("blk.{i}.weight");
                builder = builder.tensor(&name, &dims, kind, data.clone());
                made.push((name, dims, kind, data));
            }
            Written { builder, metadata: all, tensors: made, alignment: alignment.unwrap_or(32) }
        })
}

/// `a` and `b` are the same value, floats compared bit for bit (so NaN equals itself).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::F32(x), Value::F32(y)) => x.to_bits() == y.to_bits(),
        (Value::F64(x), Value::F64(y)) => x.to_bits() == y.to_bits(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        _ => a == b,
    }
}

/// How deep arrays nest in `v`.
fn depth(v: &Value) -> usize {
    v.as_array().map_or(0, |items| 1 + items.iter().map(depth).max().unwrap_or(0))
}

/// A number written over one spot of the header: small, at the edges of its width, near the
/// file's size, or near the number that was there.
fn new_number() -> impl Strategy<Value = (prop::sample::Index, u8, u64)> {
    (any::<prop::sample::Index>(), 0u8..8, any::<u64>())
}

fn pick(kind: u8, random: u64, old: u64, file_len: u64, width: usize) -> u64 {
    let max = if width == 4 { u32::MAX as u64 } else { u64::MAX };
    match kind {
        0 => random % 4,
        1 => max,
        2 => max - random % 64,
        3 => file_len + random % 64,
        4 => file_len.saturating_sub(random % 64),
        5 => old.wrapping_add(1 + random % 8) & max,
        6 => old.wrapping_sub(1 + random % 8) & max,
        _ => random & max,
    }
}

/// Whether `err` is an error that changing numbers of `part` alone can cause.
fn fits(part: Part, err: &GgufError) -> bool {
    use GgufError::*;
    match part {
        Part::Version => matches!(err, UnknownVersion(_)),
        // the table's numbers change where one tensor's data lies or how long it is
        Part::Offset => {
            matches!(err, MisalignedTensor { .. } | DataOutOfRange { .. } | Overlap { .. })
        }
        Part::Dimension => {
            matches!(
                err,
                BadShape { .. } | NotWholeBlocks { .. } | DataOutOfRange { .. } | Overlap { .. }
            )
        }
        Part::TensorType => matches!(
            err,
            UnknownTensorType { .. }
                | NotWholeBlocks { .. }
                | DataOutOfRange { .. }
                | Overlap { .. }
        ),
        // counts, lengths and types move every later byte: any error may follow
        _ => true,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(STRUCTURED_HEADERS))]

    /// What was written is what is read: every key, value (bit for bit), tensor and tensor byte.
    #[test]
    fn generated_headers_read_back_as_written(w in written()) {
        let file = Gguf::parse(w.builder.bytes()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let h = &file.header;
        prop_assert_eq!((h.version, h.alignment), (3, w.alignment));
        prop_assert_eq!(h.metadata.len(), w.metadata.len());
        for ((key, value), (k, v)) in h.metadata.iter().zip(&w.metadata) {
            prop_assert_eq!(key, k);
            prop_assert!(same(value, v), "{key}: read {value:?}, wrote {v:?}");
            prop_assert!(depth(value) <= MAX_ARRAY_DEPTH);
        }
        prop_assert_eq!(h.tensors.len(), w.tensors.len());
        for (t, (name, dims, kind, data)) in h.tensors.iter().zip(&w.tensors) {
            prop_assert_eq!((&t.name, &t.dims, t.kind), (name, dims, *kind));
            prop_assert_eq!(file.tensor_data(t), &data[..]);
            prop_assert!(t.offset % w.alignment == 0);
        }
    }

    /// The same headers with one to three of their numbers changed: never a panic; an error fits
    /// what was changed and is one short line; a header that still reads is consistent.
    #[test]
    fn changed_headers_fail_by_name_or_stay_consistent(
        w in written(),
        changes in prop::collection::vec(new_number(), 1..4),
    ) {
        let (mut bytes, spots) = w.builder.bytes_and_spots();
        let mut parts = Vec::new();
        for (at, kind, random) in changes {
            let spot: Spot = spots[at.index(spots.len())];
            let old = u64::from_le_bytes({
                let mut b = [0u8; 8];
                b[..spot.width].copy_from_slice(&bytes[spot.at..spot.at + spot.width]);
                b
            });
            let new = pick(kind, random, old, bytes.len() as u64, spot.width);
            spot.set(&mut bytes, new);
            parts.push(spot.part);
        }
        match Header::parse(&bytes) {
            Err(e) => {
                let message = e.to_string();
                prop_assert!(message.lines().count() == 1 && message.len() < 400, "{message}");
                prop_assert!(parts.iter().any(|&p| fits(p, &e)), "{parts:?} gave {e:?}");
            }
            Ok(h) => {
                let data = (bytes.len() - h.data_start) as u64;
                let mut ranges: Vec<(u64, u64)> =
                    h.tensors.iter().map(|t| (t.offset, t.offset + t.bytes())).collect();
                ranges.sort_unstable();
                let inside = |&(start, end): &(u64, u64)| start % h.alignment == 0 && end <= data;
                prop_assert!(ranges.iter().all(inside));
                prop_assert!(ranges.windows(2).all(|w| w[0].1 <= w[1].0));
                prop_assert!(h.metadata.iter().all(|(_, v)| depth(v) <= MAX_ARRAY_DEPTH));
            }
        }
    }
}
