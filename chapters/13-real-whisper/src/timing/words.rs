//! From the path through (token, frame) to words with a start and an end, with Whisper's own
//! adjustments (its `timing.py`; faster-whisper's `add_word_timestamps` is the same).

use super::POSITIONS_PER_SECOND;
use crate::tokenizer::WhisperTokenizer;

/// A word of the transcript and when it was said, in seconds from the start of the clip.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    /// as written, with its leading space and any punctuation merged into it
    pub text: String,
    pub tokens: Vec<u32>,
    pub start: f64,
    pub end: f64,
}

/// Python's `string.punctuation`.
const PUNCTUATION: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
/// Joined to the word after them (Whisper's `prepend_punctuations`).
pub const PREPEND: &str = "\"'“¿([{-";
/// Joined to the word before them (Whisper's `append_punctuations`).
pub const APPEND: &str = "\"'.。,，!！?？:：”)]}、";
/// The marks that end a sentence.
const SENTENCE_ENDS: &str = ".。!！?？";

/// The tokens (the transcript and `<|endoftext|>`) cut into words: a new word at a token that
/// starts with a space, is punctuation or is special; tokens that hold part of a character stay
/// with the next.
// ANCHOR: split_words
pub fn split_words(tokenizer: &WhisperTokenizer, tokens: &[u32]) -> Vec<(String, Vec<u32>)> {
    let mut pieces: Vec<(String, Vec<u32>)> = Vec::new();
    let mut current = Vec::new();
    for &t in tokens {
        current.push(t);
        let text = tokenizer.bpe.decode(&current);
        if !text.contains('\u{FFFD}') {
            pieces.push((text, std::mem::take(&mut current)));
        }
    }
    let mut words: Vec<(String, Vec<u32>)> = Vec::new();
    for (text, ids) in pieces {
        let special = ids[0] >= tokenizer.specials.end;
        // Python's `in`: a substring of the punctuation (the empty string too)
        let punctuation = PUNCTUATION.contains(text.trim());
        match words.last_mut() {
            Some(last) if !special && !text.starts_with(' ') && !punctuation => {
                last.0.push_str(&text);
                last.1.extend(ids);
            }
            _ => words.push((text, ids)),
        }
    }
    words
}
// ANCHOR_END: split_words

/// The median of the non-zero durations (at most 0.7 s), as numpy computes it.
fn median_duration(words: &[Word]) -> Option<f64> {
    let mut d: Vec<f64> = words.iter().map(|w| w.end - w.start).filter(|&d| d != 0.0).collect();
    if d.is_empty() {
        return None;
    }
    d.sort_by(f64::total_cmp);
    let n = d.len();
    let median = if n % 2 == 1 { d[n / 2] } else { (d[n / 2 - 1] + d[n / 2]) / 2.0 };
    Some(median.min(0.7))
}

/// Punctuation joined to its word: an opening mark to the word after it, a closing mark to the
/// word before; the mark's own entry is left empty (its times are dropped).
fn merge_punctuation(words: &mut [Word]) {
    let n = words.len();
    let (mut i, mut j) = (n as isize - 2, n as isize - 1);
    while i >= 0 {
        let (p, f) = (i as usize, j as usize);
        if words[p].text.starts_with(' ') && PREPEND.contains(words[p].text.trim()) {
            let (text, tokens) =
                (std::mem::take(&mut words[p].text), std::mem::take(&mut words[p].tokens));
            words[f].text.insert_str(0, &text);
            words[f].tokens.splice(0..0, tokens);
        } else {
            j = i;
        }
        i -= 1;
    }
    let (mut i, mut j) = (0, 1);
    while j < n {
        if !words[i].text.ends_with(' ') && APPEND.contains(words[j].text.as_str()) {
            let (text, tokens) =
                (std::mem::take(&mut words[j].text), std::mem::take(&mut words[j].tokens));
            words[i].text.push_str(&text);
            words[i].tokens.extend(tokens);
        } else {
            i = j;
        }
        j += 1;
    }
}

/// Each word's start and end from the path of [`dtw`](super::dtw) over `tokens` (the transcript)
/// and `<|endoftext|>`, then Whisper's adjustments: no word next to a sentence's end longer than
/// twice the median word (at most 1.4 s), punctuation merged, times rounded to 10 ms, the first
/// word not much longer than the rest, the last not past the speech (`duration` seconds).
// ANCHOR: word_times
pub fn word_times(
    tokenizer: &WhisperTokenizer,
    tokens: &[u32],
    path: &[(usize, usize)],
    duration: f64,
) -> Vec<Word> {
    let with_end: Vec<u32> = tokens.iter().copied().chain([tokenizer.specials.end]).collect();
    let split = split_words(tokenizer, &with_end);
    // a token starts where the path first reaches its row
    let starts: Vec<f64> = (0..path.len())
        .filter(|&k| k == 0 || path[k].0 != path[k - 1].0)
        .map(|k| path[k].1 as f64 / POSITIONS_PER_SECOND)
        .collect();
    let mut first_token = 0;
    let mut words: Vec<Word> = Vec::new();
    for pair in split.windows(2) {
        let next = first_token + pair[0].1.len();
        let (start, end) = (starts[first_token], starts[next]);
        words.push(Word { text: pair[0].0.clone(), tokens: pair[0].1.clone(), start, end });
        first_token = next;
    }
    let median = median_duration(&words);
    if let Some(median) = median {
        let longest = 2.0 * median;
        for i in 1..words.len() {
            if words[i].end - words[i].start > longest {
                if SENTENCE_ENDS.contains(words[i].text.as_str()) {
                    words[i].end = words[i].start + longest;
                } else if SENTENCE_ENDS.contains(words[i - 1].text.as_str()) {
                    words[i].start = words[i].end - longest;
                }
            }
        }
    }
    merge_punctuation(&mut words);
    let round = |x: f64| (x * 100.0).round() / 100.0;
    let mut words: Vec<Word> = (words.into_iter())
        .filter(|w| !w.text.is_empty())
        .map(|w| Word { start: round(w.start), end: round(w.end), ..w })
        .collect();
    let (median, longest) = median.map_or((0.0, 0.0), |m| (m, 2.0 * m));
    if let [first, rest @ ..] = words.as_mut_slice() {
        // the first word after a pause (here: the start of the clip) no longer than the rest
        let long_pair = rest.first().is_some_and(|second| second.end - first.start > 2.0 * longest);
        if first.end > 4.0 * median && (first.end - first.start > longest || long_pair) {
            if let Some(second) = rest.first_mut().filter(|s| s.end - s.start > longest) {
                let boundary = (second.end / 2.0).max(second.end - longest);
                (first.end, second.start) = (boundary, boundary);
            }
            first.start = (first.end - longest).max(0.0);
        }
    }
    if let Some(last) = words.last_mut() {
        if duration > last.start && duration + 0.5 < last.end {
            last.end = (last.start + median).max(duration);
        }
    }
    words
}
// ANCHOR_END: word_times
