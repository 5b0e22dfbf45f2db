//! The character vocabulary, the committed text and the generate example's command line.

use ch10_language_models::char_model::chars::{
    char_id, decode, encode, id_char, split, TEXT, VOCAB,
};
use ch10_language_models::char_model::cli::{ArgError, GenerateArgs};

#[test]
fn every_character_round_trips() {
    for id in 0..VOCAB {
        assert_eq!(char_id(id_char(id)), Ok(id));
    }
    assert_eq!(encode("A b\n"), Ok(vec![34, 1, 67, 0]));
    assert_eq!(decode(&[34, 1, 67, 0]), "A b\n");
    let err = encode("café").unwrap_err();
    assert_eq!(
        err.to_string(),
        "character 'é' (U+00E9) is not in the vocabulary: newline and printable ASCII (space to '~') only"
    );
}

/// The text and its split as `data/README.md` describes them.
#[test]
fn the_text_and_its_split() {
    assert_eq!(TEXT.len(), 357_767);
    let (train, held_out) = split();
    assert_eq!((train.len(), held_out.len()), (322_017, 35_750));
    assert!(decode(&held_out[..20]).starts_with("by instruction of th"));
    let count = |ids: &[usize]| ids.iter().collect::<std::collections::BTreeSet<_>>().len();
    let whole = ch10_language_models::encode(TEXT).unwrap();
    assert_eq!(count(&whole), 81, "characters the whole text uses");
    assert_eq!(count(&train), 81, "characters its training part uses: all of them");
    assert_eq!(count(&held_out), 72, "characters the held-out part uses");
    assert!(TEXT.contains("\nLAWYER, n. One skilled in circumvention of the law.\n"));
}

fn parse(args: &[&str]) -> Result<GenerateArgs, ArgError> {
    GenerateArgs::parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>(), 128)
}

#[test]
fn generate_arguments() {
    let ok = parse(&["--prompt", "LAWYER, n.", "--tokens", "50", "--top-k", "5", "--seed", "3"]);
    let ok = ok.unwrap();
    assert_eq!((ok.tokens, ok.top_k, ok.seed, ok.temperature), (50, Some(5), 3, 0.8));
    let message = |args: &[&str]| parse(args).unwrap_err().to_string();
    assert!(message(&["--tokens", "5"]).starts_with("--prompt is required"));
    assert_eq!(
        message(&["--prompt", "naïve"]),
        "--prompt: character 'ï' (U+00EF) is not in the vocabulary: newline and printable ASCII (space to '~') only"
    );
    assert!(message(&["--prompt", "a", "--temperature", "0"])
        .starts_with("--temperature \"0\": expected a number above 0"));
    assert!(message(&["--prompt", "a", "--temperature", "-1"]).starts_with("--temperature \"-1\""));
    assert!(
        message(&["--prompt", "a", "--temperature", "NaN"]).starts_with("--temperature \"NaN\"")
    );
    assert_eq!(
        message(&["--prompt", "a", "--tokens", "ten"]),
        "--tokens \"ten\": expected a whole number from 1 to 10000"
    );
    // --top-k 0 draws among all the characters, as the page's widget's 0 does; 97 is refused
    assert_eq!(parse(&["--prompt", "a", "--top-k", "0"]).unwrap().top_k, None);
    assert_eq!(parse(&["--prompt", "a", "--top-k", "96"]).unwrap().top_k, Some(96));
    assert_eq!(
        message(&["--prompt", "a", "--top-k", "97"]),
        "--top-k \"97\": expected a whole number from 0 (all characters) to 96"
    );
    assert!(message(&["--prompt", "a", "--tokens"]).starts_with("--tokens needs a value"));
    assert!(message(&["--prompt", "a", "--steps", "3"]).starts_with("unknown argument \"--steps\""));
    assert_eq!(
        message(&["--prompt", &"x".repeat(129)]),
        "--prompt has 129 characters but the model's context is 128; give at most 128"
    );
}
