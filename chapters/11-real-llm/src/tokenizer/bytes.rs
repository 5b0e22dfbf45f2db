//! GPT-2's byte-level alphabet: every byte is shown as one printable character, so that any text
//! (any bytes) can be split into tokens that are strings. Printable ASCII and most of Latin-1
//! stand for themselves; the other 68 bytes (controls, space, ...) are moved to U+0100 and up,
//! which is why a space shows as `Ġ` (U+0120) and a newline as `Ċ` (U+010A).

/// The character each byte is shown as.
pub fn byte_to_char() -> [char; 256] {
    let mut out = ['\0'; 256];
    let mut next = 256u32;
    for b in 0..=255u8 {
        let printable = matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF);
        out[b as usize] = if printable {
            char::from(b)
        } else {
            next += 1;
            char::from_u32(next - 1).expect("U+0100..U+0143 are characters")
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn space_and_newline_are_moved_and_every_byte_is_distinct() {
        let map = byte_to_char();
        assert_eq!((map[b' ' as usize], map[b'\n' as usize], map[b'a' as usize]), ('Ġ', 'Ċ', 'a'));
        let distinct: std::collections::HashSet<char> = map.iter().copied().collect();
        assert_eq!(distinct.len(), 256);
    }
}
