//! CTranslate2's `model.bin` reader on small files written by hand: what it reads back, and each
//! way a hostile file is refused (with its own error, never a panic); then random damage to a
//! valid file, which must never panic either.

use ch13_real_whisper::ct2::write::{string, Builder};
use ch13_real_whisper::ct2::{Ct2Error, DType, ModelBin};
use proptest::prelude::*;

/// How many damaged files the fuzz test tries.
const MUTATED_FILES: u32 = 2_000;

/// A small valid file: an f32 matrix, an f16 vector, a scalar, an alias.
fn sample() -> Builder {
    Builder::new(6, "WhisperSpec")
        .variable("a/weight", &[2, 3], DType::F32, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
        .variable("a/bias", &[3], DType::F16, &[0.5, -0.25, 65504.0])
        .scalar("a/num_heads", 6)
        .alias("b/weight", "a/weight")
}

fn refused(bytes: Vec<u8>) -> Ct2Error {
    ModelBin::parse(bytes).expect_err("a hostile file")
}

#[test]
fn a_small_file_reads_back() {
    let bin = ModelBin::parse(sample().bytes()).unwrap();
    assert_eq!((bin.version, bin.spec.as_str(), bin.revision), (6, "WhisperSpec", 1));
    assert_eq!(bin.variables.len(), 3);
    assert_eq!(bin.f32s("a/weight", &[2, 3]).unwrap(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(bin.f32s("b/weight", &[2, 3]).unwrap(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(bin.f32s("a/bias", &[3]).unwrap(), [0.5, -0.25, 65504.0]);
    assert_eq!(bin.scalar("a/num_heads").unwrap(), 6);
    assert_eq!(bin.parameters(), 9);
    // the wrong shape, a float read as a scalar, a missing name
    let e = bin.f32s("a/weight", &[3, 2]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "variable \"a/weight\" is missing or not a float tensor of shape [3, 2]"
    );
    assert!(bin.scalar("a/bias").is_err());
    assert!(bin.f32s("nothing", &[1]).is_err());
}

#[test]
fn each_hostile_file_is_refused_with_its_own_error() {
    let b = || Builder::new(6, "WhisperSpec");
    assert_eq!(
        refused(b().bytes()[..2].to_vec()).to_string(),
        "the file ends inside the format version: 4 bytes needed at byte 0"
    );
    assert_eq!(refused(Builder::new(3, "x").bytes()), Ct2Error::UnknownVersion(3));
    // a count of variables that the rest of the file cannot hold
    let mut huge = 6u32.to_le_bytes().to_vec();
    huge.extend(string("WhisperSpec"));
    huge.extend(1u32.to_le_bytes());
    huge.extend(u32::MAX.to_le_bytes());
    let e = refused(huge);
    assert!(
        matches!(e, Ct2Error::CountTooLarge { count, .. } if count == u32::MAX as usize),
        "{e}"
    );
    assert_eq!(
        refused(b().raw("v", &[2], 9, vec![0; 2]).bytes()).to_string(),
        "variable \"v\" has type code 9: this reader knows 0 (f32), 1 (i8), 2 (i16), 3 (i32), 4 \
         (f16) and 5 (bf16)"
    );
    assert_eq!(
        refused(b().raw("v", &[2, 3], 0, vec![0; 20]).bytes()).to_string(),
        "variable \"v\" of shape [2, 3] holds 20 bytes; its shape and type make 24"
    );
    // dimensions whose product overflows
    let e = refused(b().raw("v", &[u32::MAX, u32::MAX, u32::MAX], 0, vec![]).bytes());
    assert!(matches!(e, Ct2Error::WrongByteCount { expected: None, .. }), "{e}");
    assert_eq!(
        refused(b().scalar("v", 1).scalar("v", 2).bytes()),
        Ct2Error::Duplicate { name: "v".into() }
    );
    assert_eq!(
        refused(b().scalar("v", 1).alias("w", "nothing").bytes()),
        Ct2Error::DanglingAlias { alias: "w".into(), target: "nothing".into() }
    );
    // an alias of an alias is not a variable
    let e = refused(b().scalar("v", 1).alias("w", "v").alias("x", "w").bytes());
    assert_eq!(e, Ct2Error::DanglingAlias { alias: "x".into(), target: "w".into() });
    let mut trailing = sample().bytes();
    trailing.push(0);
    assert!(matches!(refused(trailing), Ct2Error::TrailingBytes { left: 1, .. }));
    // a string without its NUL, and one that is not UTF-8
    let mut no_nul = 6u32.to_le_bytes().to_vec();
    no_nul.extend([2, 0, b'a', b'b']);
    assert_eq!(refused(no_nul), Ct2Error::BadString { field: "the spec name".into(), at: 4 });
    let mut bad_utf8 = 6u32.to_le_bytes().to_vec();
    bad_utf8.extend([2, 0, 0xFF, 0]);
    assert!(matches!(refused(bad_utf8), Ct2Error::BadString { .. }));
}

#[test]
fn every_cut_of_a_valid_file_is_refused() {
    let bytes = sample().bytes();
    for len in 0..bytes.len() {
        let e = refused(bytes[..len].to_vec());
        let cut = matches!(e, Ct2Error::Truncated { .. } | Ct2Error::BadString { .. });
        assert!(cut || matches!(e, Ct2Error::CountTooLarge { .. }), "{len}: {e}");
        assert!(!e.to_string().contains('\n'));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(MUTATED_FILES))]

    /// Random byte changes, cuts and insertions of a valid file: refused or read, never a panic,
    /// and what is read is consistent.
    #[test]
    fn damaged_files_never_panic(
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..8),
    ) {
        let mut bytes = sample().bytes();
        support::damage::apply(&mut bytes, &edits);
        let len = bytes.len();
        if let Ok(bin) = ModelBin::parse(bytes) {
            for v in &bin.variables {
                prop_assert!(v.data.end <= len);
                let elements: usize = v.shape.iter().product();
                prop_assert_eq!(v.data.len(), elements * v.dtype.size());
            }
        }
    }
}
