//! Asking the book: the paragraphs it is built from, and a question answered from chapter 1.

use ch12_real_bert::book_index::{book_paragraphs, book_src, fingerprint, paragraphs, plain};
use ch12_real_bert::search::{current_index, Hit, Index};

#[test]
fn paragraphs_are_prose_with_their_chapter_and_section() {
    let page = "# Masks\n\nIntro words that make a paragraph of prose here.\n\n## Padding\n\n\
                A [link](x.md#y) and `code` and $x^2$ in one\nparagraph over two lines.\n\n\
                ```rust\nlet ignored = 1; // a listing is not prose at all\n```\n\n\
                | a | table | row | is | not | prose |\n\n> Tests: `a_test` names are not prose either.\n\n\
                - a list item is a paragraph of its own\n- and so is the second item here\n\n\
                Short caption.\n\n![A figure's caption is not a paragraph of prose](f.svg)\n\n\
                <div class=\"widget\" data-widget=\"x\">\nThe note a reader without JavaScript \
                would see.\n</div>\n";
    let got = paragraphs(page, "06-masks.md");
    let texts: Vec<&str> = got.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "Intro words that make a paragraph of prose here.",
            "A link and code and x^2 in one paragraph over two lines.",
            "a list item is a paragraph of its own",
            "and so is the second item here",
        ]
    );
    assert_eq!((got[0].chapter.as_str(), got[0].section.as_str()), ("6 Masks", "6 Masks"));
    assert_eq!(got[1].section, "Padding");
    assert_eq!(plain("1. **Score** every pair"), "Score every pair");
    // brackets that open no link stay, even with a link after them; an image keeps its caption
    assert_eq!(
        plain("The **`[CLS]` token** of [Dosovitskiy et al. 2021](references.md#d) (ViT)"),
        "The [CLS] token of Dosovitskiy et al. 2021 (ViT)"
    );
    assert_eq!(plain("![Weight on [CLS] and [SEP]](figures/a.svg)"), "Weight on [CLS] and [SEP]");
    assert_eq!(plain("a [b] c [d](e"), "a [b] c [d](e");
}

#[test]
fn the_book_has_hundreds_of_paragraphs_from_every_chapter() {
    let all = book_paragraphs(&book_src()).unwrap();
    assert!(all.len() > 500, "{} paragraphs", all.len());
    for n in 1..=12 {
        assert!(all.iter().any(|p| p.chapter.starts_with(&format!("{n} "))), "chapter {n}");
    }
    assert!(all.iter().all(|p| !p.text.contains("{{#include") && !p.text.contains("```")));
    // the fingerprint follows the text
    let mut changed = all.clone();
    changed[0].text.push('!');
    assert_ne!(fingerprint(&all), fingerprint(&changed));
}

#[test]
fn ranking_is_by_cosine_best_first() {
    let p = |t: &str| ch12_real_bert::book_index::Paragraph {
        page: "x.md".into(),
        chapter: "1 X".into(),
        section: "S".into(),
        text: t.into(),
    };
    let paragraphs = vec![p("a"), p("b"), p("c")];
    let index = Index {
        fingerprint: fingerprint(&paragraphs),
        paragraphs,
        vectors: vec![vec![1.0, 0.0], vec![0.6, 0.8], vec![0.0, 1.0]],
    };
    let hits = index.rank(&[0.0, 1.0], 2);
    let got: Vec<(&str, f32)> = hits.iter().map(|h| (h.paragraph.text.as_str(), h.score)).collect();
    assert_eq!(got, [("c", 1.0), ("b", 0.8)]);
}

/// The page's question.
const QUESTION: &str = "why divide by the square root of d_k?";

#[test]
#[ignore = "needs all-MiniLM-L6-v2's files: cargo xtask models"]
fn worked_example_asking_the_book() {
    let encoder = crate::real_model::encoder();
    // the whole book, as the search example indexes it (read from target/book-index/ when it
    // was built from the book as it is now, otherwise built and saved)
    let index = current_index(encoder, |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert!(index.paragraphs.len() > 500, "{} paragraphs", index.paragraphs.len());
    let q = &encoder.embed(&[QUESTION])[0];
    let hits = index.rank(q, 10);
    assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
    // the best hits quote the question: paragraphs of this chapter's page that mention it
    let quotes = |h: &Hit<'_>| h.paragraph.text.to_lowercase().contains(QUESTION);
    assert!(quotes(&hits[0]), "{:?}", hits[0]);
    assert_eq!(
        (hits[0].paragraph.page.as_str(), hits[0].paragraph.section.as_str()),
        ("12-real-bert.md", "Summary")
    );
    let answer = hits.iter().position(|h| !quotes(h)).expect("a hit that does not quote it");
    for quoting in &hits[..answer] {
        assert_eq!(quoting.paragraph.page, "12-real-bert.md", "{quoting:?}");
    }
    // and the first that does not is chapter 1's, which introduces the division
    assert_eq!(hits[answer].paragraph.page, "01-attention.md", "{:?}", hits[answer]);
    assert!(hits[answer].score > 0.5, "{:?}", hits[answer]);
}

/// The online book's copy of the index reads back bit for bit, and a copy that does not fit is
/// refused with the reason.
#[test]
fn the_pages_index_reads_back_as_written() {
    use ch12_real_bert::web_index::{self, find_words, MANIFEST, VECTORS};
    let p = |t: &str| ch12_real_bert::book_index::Paragraph {
        page: "01-attention.md".into(),
        chapter: "1 Dot-product attention".into(),
        section: "Scaling".into(),
        text: t.into(),
    };
    let paragraphs = vec![p("Each score is divided by the square root of d_k."), p("b")];
    let vectors: Vec<Vec<f32>> =
        (0..2).map(|r| (0..384).map(|i| (r * 384 + i) as f32 / 7.0).collect()).collect();
    let index = Index { fingerprint: fingerprint(&paragraphs), paragraphs, vectors };
    let dir = std::env::temp_dir().join(format!("ch12-web-index-{}", std::process::id()));
    web_index::write(&index, &dir).unwrap();
    let manifest = std::fs::read(dir.join(MANIFEST)).unwrap();
    let floats = std::fs::read(dir.join(VECTORS)).unwrap();
    assert_eq!(floats.len(), 2 * 384 * 4);
    let back = web_index::read(&manifest, &floats).unwrap();
    assert_eq!((back.paragraphs, back.vectors), (index.paragraphs.clone(), index.vectors.clone()));
    let err = web_index::read(&manifest, &floats[4..]).unwrap_err();
    assert_eq!(err, "book-index.f32: 3068 bytes, but 2 paragraphs of 384 floats take 3072");
    let tampered = String::from_utf8(manifest).unwrap().replace("square", "cube");
    let err = web_index::read(tampered.as_bytes(), &floats).unwrap_err();
    assert!(err.contains("not the ones it was built from"), "{err}");
    assert!(web_index::read(b"{}", &floats).unwrap_err().starts_with("book-index.json: not"));
    std::fs::remove_dir_all(&dir).unwrap();
    // the words that find a paragraph in its page stop at a formula, and need four in a row
    assert_eq!(find_words(&index.paragraphs[0].text), "Each score is divided by the square root");
    assert_eq!(find_words("With \\sqrt{d_k} = 2, each row sums to one."), "each row sums to one.");
    assert_eq!(find_words("q_0 = [1.0, 0.5] and q_1"), "");
}
