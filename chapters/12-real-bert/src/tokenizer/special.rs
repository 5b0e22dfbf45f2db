//! Special tokens typed in the text. Hugging Face's `tokenizer.json` lists `[PAD]`, `[UNK]`,
//! `[CLS]`, `[SEP]` and `[MASK]` as added tokens with `normalized: false`: before anything else,
//! its `AddedVocabulary` finds them in the raw text (exact, case-sensitive, leftmost-longest) and
//! each becomes its own id. The text between them is normalised and split on its own, so
//! `foo[MASK]bar` gives `foo`, `[MASK]`, `bar`, while `[mask]` gives `[`, `mask`, `]`.

/// A stretch of the raw text: ordinary text, or one special token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Segment<'a> {
    /// Text to normalise, split into words and cut into pieces.
    Text(&'a str),
    /// A special token, spelled exactly, with its id.
    Special(usize),
}

/// Cuts `text` at every occurrence of one of `specials` (token, id): the leftmost match first,
/// the longest one where two start at the same place. Empty stretches of text are left out.
pub fn split_special<'a>(text: &'a str, specials: &[(&str, usize)]) -> Vec<Segment<'a>> {
    let mut segments = Vec::new();
    let mut plain_start = 0; // where the pending ordinary text began
    let mut at = 0; // where the search goes on
    while at < text.len() {
        let rest = &text[at..];
        let found = specials
            .iter()
            .filter(|(token, _)| !token.is_empty() && rest.starts_with(token))
            .max_by_key(|(token, _)| token.len());
        match found {
            Some(&(token, id)) => {
                if plain_start < at {
                    segments.push(Segment::Text(&text[plain_start..at]));
                }
                segments.push(Segment::Special(id));
                at += token.len();
                plain_start = at;
            }
            // step over one character (never into the middle of one)
            None => at += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    if plain_start < text.len() {
        segments.push(Segment::Text(&text[plain_start..]));
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;
    use Segment::{Special, Text};

    #[test]
    fn special_tokens_are_cut_out_exactly() {
        let specials = [("[MASK]", 4), ("[CLS]", 2)];
        assert_eq!(
            split_special("foo[MASK]bar [mask][CLS]", &specials),
            [Text("foo"), Special(4), Text("bar [mask]"), Special(2)]
        );
        assert_eq!(split_special("", &specials), []);
        assert_eq!(split_special("é[MASK", &specials), [Text("é[MASK")]);
    }

    #[test]
    fn the_longest_match_wins() {
        let specials = [("<a>", 1), ("<a><b>", 2)];
        assert_eq!(split_special("<a><b><a>", &specials), [Special(2), Special(1)]);
    }
}
