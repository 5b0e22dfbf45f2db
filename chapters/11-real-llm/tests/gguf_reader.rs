//! The GGUF reader on small files written in code: every value type read back, and every way a
//! file can be wrong refused with an error that names the field, never a panic, a hang or a
//! large allocation: every prefix of a valid file, hand-made bad headers, and random mutations.

use ch11_real_llm::gguf::write::Builder;
use ch11_real_llm::gguf::{Gguf, GgufError, Header, TensorType, Value};
use proptest::prelude::*;

/// A small valid file: metadata of every value type, and one tensor of each type.
fn sample() -> Builder {
    Builder::new()
        .meta("general.architecture", Value::String("llama".into()))
        .meta("u8", Value::U8(7))
        .meta("i8", Value::I8(-7))
        .meta("u16", Value::U16(700))
        .meta("i16", Value::I16(-700))
        .meta("u32", Value::U32(70_000))
        .meta("i32", Value::I32(-70_000))
        .meta("u64", Value::U64(7 << 40))
        .meta("i64", Value::I64(-(7 << 40)))
        .meta("f32", Value::F32(1e-5))
        .meta("f64", Value::F64(0.1))
        .meta("bool", Value::Bool(true))
        .meta("tokens", Value::Array(vec![Value::String("<s>".into()), Value::String("é".into())]))
        .meta("nested", Value::Array(vec![Value::Array(vec![Value::I32(1), Value::I32(2)])]))
        .meta("empty", Value::Array(vec![]))
        .tensor("norm", &[4], TensorType::F32, (0..16).collect())
        .tensor("half", &[2, 3], TensorType::F16, vec![0; 12])
        .tensor("q4", &[32, 2], TensorType::Q4_1, vec![1; 40])
        .tensor("q8", &[64], TensorType::Q8_0, vec![2; 68])
}

#[test]
fn every_value_and_tensor_reads_back() {
    let file = Gguf::parse(sample().bytes()).unwrap();
    let h = &file.header;
    assert_eq!((h.version, h.metadata.len(), h.tensors.len(), h.alignment), (3, 15, 4, 32));
    assert_eq!(file.get("i64"), Some(&Value::I64(-(7 << 40))));
    assert_eq!(file.get("f32").and_then(Value::as_f64), Some(1e-5f32 as f64));
    assert_eq!(file.get("tokens").and_then(Value::as_array).map(<[Value]>::len), Some(2));
    assert_eq!(file.get("tokens").unwrap().as_array().unwrap()[1].as_str(), Some("é"));
    let q4 = file.tensor("q4").unwrap();
    assert_eq!((q4.dims.as_slice(), q4.elements(), q4.bytes()), (&[32, 2][..], 64, 40));
    assert_eq!(file.tensor_data(file.tensor("norm").unwrap()), &(0..16).collect::<Vec<u8>>()[..]);
    assert_eq!(file.tensor_data(q4), &[1; 40][..]);
    // every tensor starts on a multiple of the alignment
    assert!(
        h.tensors.iter().all(|t| t.offset.is_multiple_of(32)) && h.data_start.is_multiple_of(32)
    );
}

#[test]
fn every_prefix_of_a_valid_file_is_refused_by_name() {
    let bytes = sample().bytes();
    let full = Header::parse(&bytes).unwrap();
    let last_tensor = full.tensors.iter().map(|t| t.offset + t.bytes()).max().unwrap() as usize;
    for len in 0..full.data_start + last_tensor {
        let err = Header::parse(&bytes[..len]).expect_err("a cut file");
        assert!(
            matches!(
                err,
                GgufError::Truncated { .. }
                    | GgufError::CountTooLarge { .. }
                    | GgufError::DataOutOfRange { .. }
            ),
            "cut at {len}: {err}"
        );
    }
}

/// `bytes` with `new` written over it at `at`.
fn patched(bytes: &[u8], at: usize, new: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[at..at + new.len()].copy_from_slice(new);
    out
}

#[test]
fn bad_headers_name_what_is_wrong() {
    let good = sample().bytes();
    let err = |bytes: &[u8]| Header::parse(bytes).expect_err("a bad file").to_string();
    assert!(err(&patched(&good, 0, b"GGML")).contains("not a GGUF file"));
    assert!(err(&patched(&good, 4, &9u32.to_le_bytes())).contains("version 9"));
    // 2^60 tensors, 2^60 metadata entries: refused before anything is allocated
    let e = err(&patched(&good, 8, &(1u64 << 60).to_le_bytes()));
    assert!(e.contains("the tensor count claims 1152921504606846976"), "{e}");
    let e = err(&patched(&good, 16, &(1u64 << 60).to_le_bytes()));
    assert!(e.contains("the metadata count"), "{e}");
    // a key of 2^40 bytes
    let e = err(&patched(&good, 24, &(1u64 << 40).to_le_bytes()));
    assert_eq!(e, "the file ends inside a metadata key: 1099511627776 bytes needed at byte 32");
    // the first value's type (after the 24-byte header and the key "general.architecture")
    let type_at = 24 + 8 + "general.architecture".len();
    let e = err(&patched(&good, type_at, &13u32.to_le_bytes()));
    assert!(e.contains("metadata \"general.architecture\": unknown value type 13"), "{e}");
    // a string that is not UTF-8
    let e = err(&patched(&good, type_at + 4 + 8, &[0xff]));
    assert!(e.contains("is not UTF-8"), "{e}");
}

#[test]
fn bad_tensor_tables_name_the_tensor() {
    let err = |b: Builder| Gguf::parse(b.bytes()).expect_err("a bad file").to_string();
    let f32s = |n: usize| vec![0u8; 4 * n];
    let e = err(Builder::new().tensor("a", &[2], TensorType::F32, f32s(2)).tensor(
        "a",
        &[2],
        TensorType::F32,
        f32s(2),
    ));
    assert!(e.contains("tensor \"a\" appears twice"), "{e}");
    let e = err(Builder::new().meta("k", Value::U8(1)).meta("k", Value::U8(2)));
    assert!(e.contains("metadata key \"k\" appears twice"), "{e}");
    let e = err(Builder::new().alignment(24));
    assert!(e.contains("general.alignment is 24"), "{e}");
    // a tensor type, a shape and an offset changed by hand in an otherwise good file
    let one = Builder::new().tensor("w", &[32], TensorType::Q8_0, vec![0; 34]).bytes();
    let at = 24 + 8 + 1; // after the header and the name "w"
    let set =
        |off: usize, v: &[u8]| Header::parse(&patched(&one, at + off, v)).unwrap_err().to_string();
    assert!(set(0, &5u32.to_le_bytes()).contains("bad dimensions [5]"));
    assert!(set(4, &0u64.to_le_bytes()).contains("bad dimensions [0]"));
    assert!(set(4, &31u64.to_le_bytes())
        .contains("31 elements per row is not a whole number of blocks of 32"));
    assert!(set(12, &2u32.to_le_bytes()).contains("unknown tensor type 2"));
    assert!(set(16, &8u64.to_le_bytes()).contains("offset 8 is not a multiple of the alignment 32"));
    assert!(set(16, &64u64.to_le_bytes()).contains("run past the data section"));
    assert!(set(16, &u64::MAX.to_le_bytes()).contains("not a multiple"));
    assert!(set(16, &(u64::MAX - 31).to_le_bytes()).contains("run past the data section"));
}

/// How many small files the byte mutations try per run (the page says so).
pub const MUTATED_SMALL_FILES: u32 = 4_000;

/// How many real headers the byte mutations try per run, where the model file is (the page says
/// so).
pub const MUTATED_REAL_HEADERS: u32 = 300;

proptest! {
    // none may panic, and any that parses must be consistent
    #![proptest_config(ProptestConfig::with_cases(MUTATED_SMALL_FILES))]

    /// Random byte changes, cuts and insertions of a valid file.
    #[test]
    fn mutated_files_never_panic(
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..8),
    ) {
        let mut bytes = sample().bytes();
        support::damage::apply(&mut bytes, &edits);
        if let Ok(h) = Header::parse(&bytes) {
            for t in &h.tensors {
                prop_assert!(h.data_start as u64 + t.offset + t.bytes() <= bytes.len() as u64);
            }
        }
    }
}

mod real_file {
    //! The same reader on SmolLM2's file (`cargo xtask models` fetches it; these tests are
    //! ignored under a plain `cargo test` and run by `cargo xtask test` after the fetch).
    use super::*;
    use ch11_real_llm::model_file;

    #[test]
    #[ignore = "needs SmolLM2's GGUF file: cargo xtask models"]
    fn smollm2s_header_is_what_the_page_says() {
        let file = Gguf::parse(model_file::read().unwrap()).unwrap();
        let h = &file.header;
        assert_eq!((h.version, h.metadata.len(), h.tensors.len(), h.alignment), (3, 33, 272, 32));
        let count = |kind| h.tensors.iter().filter(|t| t.kind == kind).count();
        assert_eq!(
            (count(TensorType::Q4_1), count(TensorType::Q8_0), count(TensorType::F32)),
            (210, 1, 61)
        );
        let u = |key: &str| file.get(key).and_then(Value::as_u64).unwrap();
        assert_eq!(
            [u("llama.block_count"), u("llama.embedding_length"), u("llama.feed_forward_length")],
            [30, 576, 1536]
        );
        assert_eq!([u("llama.attention.head_count"), u("llama.attention.head_count_kv")], [9, 3]);
        assert_eq!(
            [u("llama.context_length"), u("llama.vocab_size"), u("llama.rope.dimension_count")],
            [8192, 49152, 64]
        );
        assert_eq!(file.get("llama.rope.freq_base").and_then(Value::as_f64), Some(100_000.0));
        assert_eq!(
            file.get("llama.attention.layer_norm_rms_epsilon").and_then(Value::as_f64),
            Some(1e-5f32 as f64)
        );
        assert_eq!(file.get("tokenizer.ggml.model").and_then(Value::as_str), Some("gpt2"));
        assert_eq!(file.get("tokenizer.ggml.pre").and_then(Value::as_str), Some("smollm"));
        let len = |key: &str| file.get(key).and_then(Value::as_array).map(<[Value]>::len);
        assert_eq!(
            (len("tokenizer.ggml.tokens"), len("tokenizer.ggml.merges")),
            (Some(49152), Some(48900))
        );
        assert_eq!([u("tokenizer.ggml.bos_token_id"), u("tokenizer.ggml.eos_token_id")], [1, 2]);
        // no output projection: tied to the embedding, which is the one Q8_0 tensor, 576 x 49,152
        assert!(file.tensor("output.weight").is_none());
        let embd = file.tensor("token_embd.weight").unwrap();
        assert_eq!((embd.dims.as_slice(), embd.kind), (&[576, 49152][..], TensorType::Q8_0));
        // the tensors' data fill the file to its end
        let end = h.tensors.iter().map(|t| t.offset + t.bytes()).max().unwrap();
        assert_eq!(h.data_start as u64 + end, 98_362_432);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(MUTATED_REAL_HEADERS))]

        /// The real file with a few bytes of its header changed, in place and put back after.
        #[test]
        #[ignore = "needs SmolLM2's GGUF file: cargo xtask models"]
        fn mutated_real_headers_never_panic(
            edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        ) {
            REAL.with_borrow_mut(|bytes| {
                if bytes.is_empty() {
                    *bytes = model_file::read().unwrap();
                }
                let header_len = Header::parse(bytes).unwrap().data_start;
                let saved: Vec<(usize, u8)> = edits
                    .iter()
                    .map(|(at, byte)| {
                        let i = at.index(header_len);
                        let old = bytes[i];
                        bytes[i] = *byte;
                        (i, old)
                    })
                    .collect();
                // whatever the edits: an error or a header whose tensors lie inside the file
                if let Ok(h) = Header::parse(bytes) {
                    for t in &h.tensors {
                        assert!(h.data_start as u64 + t.offset + t.bytes() <= bytes.len() as u64);
                    }
                }
                for (i, old) in saved.into_iter().rev() {
                    bytes[i] = old;
                }
            });
        }
    }

    thread_local! {
        /// The real file, read once per test thread.
        static REAL: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
}
