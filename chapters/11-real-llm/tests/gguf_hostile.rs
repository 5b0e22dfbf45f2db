//! Hostile GGUF files built by hand, each refused with its own error naming what is wrong: arrays
//! nested a million deep, counts near the file's size, strings cut short, dimensions whose product
//! overflows, tensors whose data overlap, run past the end or sit off the alignment. The same
//! files under a counting allocator: the reader never holds more than
//! `MEMORY_PER_FILE_BYTE` times the file's size.

use ch11_real_llm::gguf::write::{nested_arrays, Builder, Part, Spot};
use ch11_real_llm::gguf::{
    GgufError, Header, TensorType, Value, MAX_ARRAY_DEPTH, MEMORY_PER_FILE_BYTE,
};
use std::mem::size_of;

/// How deep the hostile file nests its arrays: a million levels, 12 MB (the page says so).
const HOSTILE_DEPTH: usize = 1_000_000;

/// The error `bytes` is refused with.
fn refused(bytes: &[u8]) -> GgufError {
    Header::parse(bytes).expect_err("a hostile file")
}

/// The `index`-th spot of `part` in `spots`.
fn spot(spots: &[Spot], part: Part, index: usize) -> Spot {
    *spots.iter().filter(|s| s.part == part).nth(index).expect("the file has that number")
}

/// What the reader charges for a file's tables before any value: `tensors` table entries and
/// `metadata` entries, each with its place in the index the duplicate check sorts.
fn tables(tensors: u64, metadata: u64) -> u64 {
    let tensor = size_of::<ch11_real_llm::gguf::TensorInfo>() + 2 * size_of::<usize>();
    let entry = size_of::<(String, Value)>() + size_of::<usize>();
    tensors * tensor as u64 + metadata * entry as u64
}

#[test]
fn arrays_nested_a_million_deep_are_refused_at_the_limit() {
    let file = nested_arrays("deep", HOSTILE_DEPTH);
    // 12 MB: the header, the key, the value type, 12 bytes a level, padded to 32
    assert_eq!(file.len(), (24 + 8 + 4 + 4 + 12 * HOSTILE_DEPTH).div_ceil(32) * 32);
    let field = "metadata \"deep\"".to_string();
    assert_eq!(refused(&file), GgufError::TooDeep { field: field.clone(), limit: MAX_ARRAY_DEPTH });
    // the limit itself is read; one level more is refused
    let at_limit = Header::parse(&nested_arrays("deep", MAX_ARRAY_DEPTH)).unwrap();
    let mut v = at_limit.get("deep").unwrap();
    for _ in 1..MAX_ARRAY_DEPTH {
        v = &v.as_array().unwrap()[0];
    }
    assert_eq!(v, &Value::Array(vec![]));
    let over = nested_arrays("deep", MAX_ARRAY_DEPTH + 1);
    assert_eq!(refused(&over), GgufError::TooDeep { field, limit: MAX_ARRAY_DEPTH });
    assert_eq!(
        refused(&over).to_string(),
        "metadata \"deep\": arrays nested more than 8 levels deep (this reader's limit)"
    );
}

/// An array of `n` one-byte numbers: the value that costs most memory per byte of file.
fn bytes_array(n: usize) -> Vec<u8> {
    Builder::new().meta("big", Value::Array(vec![Value::U8(1); n])).bytes()
}

#[test]
fn counts_near_the_files_size_are_refused_before_they_allocate() {
    // an array of 100,000 u8 that the file holds: in memory 32 bytes each, over the budget
    let n = 100_000;
    let file = bytes_array(n);
    let needed = tables(0, 1) + 3 + n as u64 * size_of::<Value>() as u64;
    assert_eq!(
        refused(&file),
        GgufError::OverMemoryBudget {
            field: "metadata \"big\"".into(),
            needed,
            budget: MEMORY_PER_FILE_BYTE * file.len() as u64,
        }
    );
    // a count of one more than the bytes left: refused by the file's size
    let (mut file, spots) =
        Builder::new().meta("big", Value::Array(vec![Value::U8(1); n])).bytes_and_spots();
    let count = spot(&spots, Part::ArrayCount, 0);
    let left = (file.len() - count.at - 8) as u64;
    count.set(&mut file, left + 1);
    assert_eq!(
        refused(&file),
        GgufError::CountTooLarge {
            field: "metadata \"big\"".into(),
            count: left + 1,
            min_bytes: 1,
            left,
        }
    );
    // the largest metadata count the bytes left could hold, 13 bytes an entry: allowed by the
    // budget (about 5 bytes of memory per byte of file), then the entries run out
    let (mut file, spots) = Builder::new().meta("k", Value::U8(0)).bytes_and_spots();
    file.resize(13_000 + 24, 0);
    let left = (file.len() - 24) as u64;
    spot(&spots, Part::MetadataCount, 0).set(&mut file, left / 13);
    // after "k" (14 bytes), the zeros read as entries of 13 bytes (an empty key, type 0, a u8
    // 0): the thousandth's value would be the file's 13,025th byte
    let field = "metadata \"\"".to_string();
    assert_eq!(refused(&file), GgufError::Truncated { field, at: 13_024, needed: 1 });
    // a tensor count of 2^60: refused before anything is read
    let (mut file, spots) = Builder::new().bytes_and_spots();
    spot(&spots, Part::TensorCount, 0).set(&mut file, 1 << 60);
    assert!(matches!(refused(&file), GgufError::CountTooLarge { count, .. } if count == 1 << 60));
}

#[test]
fn strings_cut_short_name_the_string() {
    let (file, spots) = Builder::new()
        .meta("name", Value::String("SmolLM2".into()))
        .tensor("w", &[8], TensorType::F32, vec![0; 32])
        .bytes_and_spots();
    // a key longer than the file
    let mut bad = file.clone();
    let key = spot(&spots, Part::KeyLength, 0);
    key.set(&mut bad, 1 << 40);
    let at = key.at + 8;
    let field = "a metadata key".to_string();
    assert_eq!(refused(&bad), GgufError::Truncated { field, at, needed: 1 << 40 });
    // a string value cut inside: the file ends 3 bytes into "SmolLM2"
    let value = spot(&spots, Part::StringLength, 0);
    let cut = &file[..value.at + 8 + 3];
    let field = "metadata \"name\"".to_string();
    assert_eq!(refused(cut), GgufError::Truncated { field, at: value.at + 8, needed: 7 });
    // a tensor's name that claims more bytes than are left
    let mut bad = file.clone();
    let name = spot(&spots, Part::TensorNameLength, 0);
    name.set(&mut bad, file.len() as u64);
    let field = "a tensor's name".to_string();
    let at = name.at + 8;
    assert_eq!(refused(&bad), GgufError::Truncated { field, at, needed: file.len() as u64 });
    // a string that is not UTF-8
    let mut bad = file.clone();
    bad[value.at + 8] = 0xff;
    let field = "metadata \"name\"".to_string();
    assert_eq!(refused(&bad), GgufError::NotUtf8 { field, at: value.at + 8 });
}

/// A file of one F32 tensor "w" of one value, its dimensions (as many as `new`) then written
/// over by `new`.
fn with_dims(new: &[u64]) -> GgufError {
    let dims: Vec<u64> = vec![1; new.len()];
    let data = vec![0; 4];
    let (mut file, spots) =
        Builder::new().tensor("w", &dims, TensorType::F32, data).bytes_and_spots();
    for (i, d) in new.iter().enumerate() {
        spot(&spots, Part::Dimension, i).set(&mut file, *d);
    }
    refused(&file)
}

#[test]
fn dimensions_whose_product_overflows_are_refused() {
    let bad = |dims: &[u64]| GgufError::BadShape { tensor: "w".into(), dims: dims.to_vec() };
    // 2^32 * 2^32 = 2^64: one more than u64 holds (and usize, on 64-bit machines)
    assert_eq!(with_dims(&[1 << 32, 1 << 32]), bad(&[1 << 32, 1 << 32]));
    assert_eq!(with_dims(&[u64::MAX, 2]), bad(&[u64::MAX, 2]));
    assert_eq!(with_dims(&[3, 1 << 21, 1 << 21, 1 << 21]), bad(&[3, 1 << 21, 1 << 21, 1 << 21]));
    // 2^41 elements fit in u64 but not in the reader's limit of 2^40 (4 TiB of f32)
    assert_eq!(with_dims(&[1 << 21, 1 << 20]), bad(&[1 << 21, 1 << 20]));
    // 2^40 elements pass the shape check, and then run past the file's end
    assert!(matches!(with_dims(&[1 << 20, 1 << 20]), GgufError::DataOutOfRange { bytes, .. }
        if bytes == 4 << 40));
}

/// Two F32 tensors "a" (16 values, 64 bytes) and "b" (8 values), the second's offset set to
/// `offset`.
fn with_second_offset(offset: u64) -> (GgufError, u64) {
    let (mut file, spots) = Builder::new()
        .tensor("a", &[16], TensorType::F32, vec![0; 64])
        .tensor("b", &[8], TensorType::F32, vec![0; 32])
        .bytes_and_spots();
    spot(&spots, Part::Offset, 1).set(&mut file, offset);
    let data_bytes = 96; // 64 of "a", 32 of "b"
    (refused(&file), data_bytes)
}

#[test]
fn tensors_whose_data_overlap_are_refused() {
    let overlap = |tensor: &str, other: &str| GgufError::Overlap {
        tensor: tensor.into(),
        other: other.into(),
    };
    // "b" at 0: both start at 0
    assert_eq!(with_second_offset(0).0, overlap("b", "a"));
    // "b" at 32: inside "a"'s 64 bytes
    assert_eq!(with_second_offset(32).0, overlap("b", "a"));
    assert_eq!(
        with_second_offset(32).0.to_string(),
        "tensor \"b\": its data overlaps the data of tensor \"a\""
    );
}

#[test]
fn offsets_past_the_end_or_off_the_alignment_are_refused() {
    let (err, data_bytes) = with_second_offset(96);
    let past =
        |offset| GgufError::DataOutOfRange { tensor: "b".into(), offset, bytes: 32, data_bytes };
    assert_eq!(err, past(96));
    // an offset whose end overflows u64
    assert_eq!(with_second_offset(u64::MAX - 31).0, past(u64::MAX - 31));
    let misaligned =
        |offset| GgufError::MisalignedTensor { tensor: "b".into(), offset, alignment: 32 };
    assert_eq!(with_second_offset(8).0, misaligned(8));
    assert_eq!(with_second_offset(u64::MAX).0, misaligned(u64::MAX));
}

#[test]
fn names_from_the_file_are_cut_in_messages() {
    let long = "x".repeat(10_000);
    let err = Header::parse(&nested_arrays(&long, 100)).unwrap_err();
    let field = format!("metadata {:?}... (10000 bytes)", &long[..64]);
    assert_eq!(err, GgufError::TooDeep { field, limit: 8 });
    // a key of control characters, escaped: still one short line
    let ugly = "\u{1}\n".repeat(5_000);
    let msg = Header::parse(&nested_arrays(&ugly, 100)).unwrap_err().to_string();
    assert_eq!(msg.lines().count(), 1);
    assert!(msg.len() < 400, "{} characters: {msg}", msg.len());
    assert!(
        msg.ends_with(
            "... (10000 bytes): arrays nested more than 8 levels deep (this reader's limit)"
        ),
        "{msg}"
    );
}

/// The page's paragraph on the reader states its limits and its tests as they are.
#[test]
fn the_page_states_the_readers_limits_and_tests() {
    use crate::{gguf_memory, gguf_reader, gguf_structured};
    let page = include_str!("../../../book/src/11-real-llm.md").split_whitespace();
    let page = page.collect::<Vec<_>>().join(" ");
    let thousands = |n: u32| format!("{},{:03}", n / 1000, n % 1000);
    let n = thousands(gguf_structured::STRUCTURED_HEADERS);
    assert_eq!(HOSTILE_DEPTH, 1_000_000, "the page says a million");
    for said in [
        format!("a budget of {MEMORY_PER_FILE_BYTE} times the file's size"),
        format!("nested at most {MAX_ARRAY_DEPTH} levels deep"),
        "arrays nested a million deep".to_string(),
        format!("98 MB file takes {} MB at the peak", gguf_memory::SMOLLM2_PEAK_MB),
        format!("generate {n} valid headers"),
        format!("and {n} more with their counts"),
        format!(
            "{} small files and {} real headers",
            thousands(gguf_reader::MUTATED_SMALL_FILES),
            gguf_reader::MUTATED_REAL_HEADERS
        ),
    ] {
        assert!(page.contains(&said), "the page should say {said:?}");
    }
}
