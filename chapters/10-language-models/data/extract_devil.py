"""Extract Ambrose Bierce's *The Devil's Dictionary* as plain ASCII text for chapter 10.

Reads the dictd database of the Debian package ``dict-devil``:

* ``/usr/share/dictd/devil.index``: one line per headword, ``headword<TAB>offset<TAB>length``,
  with offset and length in dictd's base-64 digits (``A``-``Z``, ``a``-``z``, ``0``-``9``,
  ``+``, ``/``);
* ``/usr/share/dictd/devil.dict.dz``: the entries' text, dictzip-compressed (gzip-compatible).

and writes ``devils_dictionary.txt`` next to this script: Bierce's preface followed by every
entry, in the order the entries are stored in the database (alphabetical, ``ABASEMENT`` to
``ZOOLOGY``), each entry once.

What is left out: the dictd metadata entries (headwords beginning ``00database``: the format
version, the source URL, the short name, the alphabet, and the ``info`` entry's packaging note
and Internet Wiretap edition header). Of the ``info`` entry only Bierce's preface is kept, from
its ``PREFACE`` heading on. Headwords that share one entry (``BABE or BABY``,
``CONFIDANT, CONFIDANTE``, ``LAUREATE``/``laurel``, ``TZETZE (or TSETSE) FLY``) point at the
same bytes and are written once. The braces that the packaging put around cross-references
(``See {HUSBAND}.``) are removed, leaving the word (``See HUSBAND.``).

Normalisation, applied after the braces are removed, in this order:

1. typographic characters become ASCII: curly quotes ``'`` and ``"``, dashes ``-`` or ``--``,
   the ellipsis ``...``, no-break and thin spaces a space, the ligatures and the sharp s
   ``AE``, ``OE``, ``ss``; accented letters lose their accents (Unicode NFKD, combining marks
   dropped); tabs become spaces; any other character outside printable ASCII and ``\\n`` is
   dropped;
2. every run of spaces becomes one space (so indented verse keeps one leading space);
3. trailing spaces are stripped from every line;
4. every run of three or more newlines becomes two (one blank line between paragraphs);
5. the text starts with its first non-blank line and ends with exactly one newline.

The output is a function of the input bytes alone, so running the script twice gives
byte-identical files. It prints the file's size, its number of characters and its character
vocabulary.

To run it::

    apt-get install dict-devil
    python3 extract_devil.py   # from this folder; rewrites devils_dictionary.txt
"""

import gzip
import os
import re
import sys
import unicodedata

DICT_PATH = "/usr/share/dictd/devil.dict.dz"
INDEX_PATH = "/usr/share/dictd/devil.index"
OUTPUT_NAME = "devils_dictionary.txt"

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
METADATA_PREFIX = "00database"
INFO_HEADWORD = "00databaseinfo"
PREFACE_HEADING = "PREFACE"

# Characters mapped before NFKD; NFKD would drop or mangle these.
ASCII_MAP = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u00ab": '"', "\u00bb": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2212": "-",
    "\u2014": "--", "\u2015": "--",
    "\u2026": "...",
    "\u00a0": " ", "\u2009": " ", "\u200a": " ", "\u202f": " ", "\t": " ",
    "\u00c6": "AE", "\u00e6": "ae", "\u0152": "OE", "\u0153": "oe", "\u00df": "ss",
    "\u00d8": "O", "\u00f8": "o", "\u0141": "L", "\u0142": "l", "\u00d0": "D", "\u00f0": "d",
    "\u00de": "Th", "\u00fe": "th",
}


def b64_number(digits):
    """Decode one of dictd's base-64 numbers (most significant digit first)."""
    value = 0
    for ch in digits:
        value = value * 64 + B64.index(ch)
    return value


def read_entries(index_path, dict_path):
    """Return (headword, text) for each distinct entry, in the order the entries are stored."""
    with gzip.open(dict_path, "rb") as f:
        data = f.read()
    spans = {}
    with open(index_path, "r", encoding="utf-8") as f:
        for line in f:
            headword, offset, length = line.rstrip("\n").split("\t")
            span = (b64_number(offset), b64_number(length))
            # Several headwords may point at one entry: keep the first headword in index order.
            spans.setdefault(span, headword)
    entries = []
    end = 0
    for (offset, length), headword in sorted(spans.items()):
        if offset < end:
            sys.exit(f"entry {headword!r} at byte {offset} overlaps the previous entry")
        end = offset + length
        entries.append((headword, data[offset:end].decode("utf-8")))
    if end != len(data):
        sys.exit(f"the index covers {end} of the {len(data)} bytes of {dict_path}")
    return entries


def preface(info_text):
    """Bierce's preface: the info entry from its PREFACE heading on."""
    lines = info_text.split("\n")
    for i, line in enumerate(lines):
        if line.strip() == PREFACE_HEADING:
            return "\n".join(lines[i:])
    sys.exit(f"no {PREFACE_HEADING} heading in the {INFO_HEADWORD} entry")


def drop_cross_reference_braces(text):
    """``{WORD}`` -> ``WORD``: dictd markup for a link to another entry, not Bierce's text."""
    return re.sub(r"\{([^{}\n]*)\}", r"\1", text)


def to_ascii(text):
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = "".join(ASCII_MAP.get(ch, ch) for ch in text)
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if ch == "\n" or " " <= ch <= "~")


def normalise(text):
    text = to_ascii(text)
    text = re.sub(r" {2,}", " ", text)
    text = re.sub(r" +\n", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n") + "\n"


def main():
    parts = []
    n_entries = 0
    for headword, text in read_entries(INDEX_PATH, DICT_PATH):
        if headword == INFO_HEADWORD:
            parts.append(drop_cross_reference_braces(preface(text)))
        elif not headword.startswith(METADATA_PREFIX):
            parts.append(drop_cross_reference_braces(text))
            n_entries += 1
    # Entries end with a blank line already; the extra newline keeps one between any two.
    text = normalise("\n".join(parts))

    out_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), OUTPUT_NAME)
    raw = text.encode("ascii")
    with open(out_path, "wb") as f:
        f.write(raw)

    vocab = sorted(set(text))
    print(f"wrote {OUTPUT_NAME}: the preface and {n_entries} entries, {len(raw)} bytes, "
          f"{len(text)} characters")
    print(f"vocabulary: {len(vocab)} characters: {''.join(vocab)!r}")
    if len(vocab) > 96:
        sys.exit("vocabulary larger than 96 characters")


if __name__ == "__main__":
    main()
