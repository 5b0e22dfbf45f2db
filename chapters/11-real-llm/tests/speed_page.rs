//! The page's speed section against the committed runs: the ratios it states recomputed from the
//! rounds (by best and by median), every ratio in it one of the files', and no bound on the page
//! that the profile contradicts.

use ch11_real_llm::smollm2;
use ch11_real_llm::speed_table::{self, SpeedRun, DEFAULTS, NO_EXTRA_BUFFERS};

use super::speed_table::{amd_epyc, one, speed_section, two, xeon};

/// A decode ratio of `run`, `program` against `other`, by the best rounds and by the medians, to
/// two decimals.
fn both(run: &SpeedRun, program: &str, other: &str) -> (f64, f64) {
    (two(run.decode_ratio(program, other)), two(run.decode_median_ratio(program, other)))
}

#[test]
fn the_pages_ratios() {
    let run = xeon();
    assert_eq!(
        (run.header.rounds, run.header.machine.as_str()),
        (7, "Intel(R) Xeon(R) Processor, 2 cores (avx2, fma, avx512f)")
    );
    assert_eq!(both(&run, "quantized", "transformers"), (4.32, 4.27));
    assert_eq!(both(&run, "f32", "transformers"), (1.47, 1.49));
    assert_eq!(both(&run, "quantized", "llama.cpp"), (1.21, 1.18));
    assert_eq!(both(&run, "llama.cpp", "quantized"), (0.82, 0.85));
    // the goal, by every measure: the f32 path's slowest round beats transformers' fastest
    let decode = |p: &str| run.program(p).decode();
    assert_eq!((one(decode("f32").slowest), one(decode("transformers").best)), (28.4, 23.8));
    assert!(decode("f32").slowest > decode("transformers").best);
    let section = speed_section();
    let flat = section.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains(
        "the `f32` path's slowest round (28.4 tokens/s) faster than transformers' fastest (23.8)"
    ));
    // what ran: llama-cpp-python's version, and its defaults refused with the reason recorded
    let llama = run.program("llama.cpp");
    assert_eq!(llama.versions["llama-cpp-python"], "0.3.36");
    assert_eq!(llama.configuration.as_deref(), Some(NO_EXTRA_BUFFERS));
    assert_eq!(llama.configuration_why.as_deref(), Some("killed by SIGSEGV"));
    assert!(flat.contains("its first round was killed by SIGSEGV"));
    assert!(section.contains(
        "Every llama.cpp ratio of the Xeon run on this page\nis for that configuration, **extra buffer types off**"
    ));
    // the prompts against llama.cpp, by best and median: the goal of 1.2 met on each
    let (ours, theirs) = (run.program("quantized").prefill(), run.program("llama.cpp").prefill());
    assert_eq!((two(ours.best / theirs.best), two(ours.median / theirs.median)), (2.06, 1.91));
    let prompt = |n: usize| {
        let (best, median) = run.prompt(n).ratios();
        (two(best), two(median))
    };
    assert_eq!((prompt(256), prompt(1024)), ((1.96, 1.87), (1.27, 1.26)));
    for n in ch11_real_llm::speed::LONG_PROMPTS {
        let (best, median) = run.prompt(n).ratios();
        assert!(best >= 1.2 && median >= 1.2, "{n}");
        let p = run.prompt(n);
        assert!(p.next_equal_every_round && p.next["quantized"] == p.next["llama.cpp"], "{n}");
    }
    assert!(flat.contains("the goal of 1.2 times is met on each there as well"));
    // bytes per token, the three readers and what they allow
    let bytes = |p: &str| run.program(p).weight_bytes_per_token.unwrap() as f64;
    assert_eq!((bytes("f32"), bytes("quantized")), (537_919_488.0, 96_436_224.0));
    let bandwidth = run.read_bandwidth_bytes_per_s;
    let readers = run.bandwidth_readers.as_ref().unwrap();
    let gb: Vec<f64> = readers.iter().map(|r| one(r.bytes_per_s / 1e9)).collect();
    assert_eq!(gb, [25.2, 24.9, 27.5]);
    assert_eq!((one(bandwidth / 1e9), (bandwidth / bytes("f32")).round()), (27.5, 51.0));
    for said in [
        "moved 27.5 GB/s (the triad), 25.2 (the sum) and 24.9 (the product), about 51 tokens per second",
        "68 % of the triad's rate in its best round, and transformers 46 %",
        "(20.5 to 26.3 GB/s), 72 to 82 %, 77 % by the median round",
        "missed by 3 points by the median round against the sum of its moment, and by 12 against the triad",
        "and 36 % on the Xeon",
    ] {
        assert!(flat.contains(said), "the section should say {said:?}");
    }
    let share = |p: &str, b: f64| (decode(p).best * b / bandwidth * 100.0).round();
    let shares = (
        share("f32", bytes("f32")),
        share("transformers", bytes("f32")),
        share("quantized", bytes("quantized")),
    );
    assert_eq!(shares, (68.0, 46.0, 36.0));
    let paired = run.program("f32").paired_sum_reader_rounds.as_ref().unwrap();
    let rate = |f: fn(f64, f64) -> f64| one(paired.iter().copied().fold(paired[0], f) / 1e9);
    assert_eq!((rate(f64::min), rate(f64::max)), (20.5, 26.3));
    let s = support::rounds::Summary::of(&run.program("f32").paired_shares().unwrap()).unwrap();
    let pct = |x: f64| (100.0 * x).round();
    assert_eq!((pct(s.slowest), pct(s.best), pct(s.median)), (72.0, 82.0, 77.0));
    // the chapter's goal for f32, 80 %: missed here, by the median round and against the triad
    assert!(s.median < 0.8);
    assert_eq!((80.0 - pct(s.median), 80.0 - share("f32", bytes("f32"))), (3.0, 12.0));
    assert!(!run.profile_beats_bandwidth());
    // the profile's read rates: the vocabulary projection, the network, the attention output,
    // the q/k/v projections
    let profile = run.program("quantized").profile.as_ref().unwrap();
    let rate = |i: usize| one(profile[i].read_rate().unwrap() / 1e9);
    assert_eq!((rate(4), rate(3), rate(2), rate(0)), (16.7, 10.5, 4.5, 9.0));
    assert_eq!(profile[4].weight_bytes, 49_152 * 576 / 32 * 34);
    assert_eq!(run.new_tokens - 1, 63);
    // the software prefetch pays in the quantized kernel here: every round with it beats every
    // round without; in f32 the ratios stay inside the rounds' spread
    assert_eq!(both(&run, "quantized", "quantized, prefetch off"), (1.46, 1.43));
    assert_eq!(both(&run, "f32", "f32, prefetch off"), (1.02, 1.07));
    let (on, off) = (decode("quantized"), decode("quantized, prefetch off"));
    assert_eq!((one(on.slowest), one(off.best)), (86.6, 70.1));
    assert!(on.slowest > off.best);
    let (on, off) = (decode("f32"), decode("f32, prefetch off"));
    let spreads = ((one(on.slowest), one(on.best)), (one(off.slowest), one(off.best)));
    assert_eq!(spreads, ((28.4, 35.0), (30.3, 34.4)));
    let spread = (on.best / on.slowest).min(off.best / off.slowest);
    assert!(on.best / off.best < spread && on.median / off.median < spread);
    assert!(flat.contains("(28.4 to 35.0 tokens/s with it, 30.3 to 34.4 without)"));
    // the greedy tokens: every program of this chapter, and transformers, agree
    let tokens = &run.program("transformers").tokens;
    for p in ["quantized", "f32", "chapter 10"] {
        assert_eq!(&run.program(p).tokens, tokens, "{p}");
    }
    // llama.cpp's follow them for 33 tokens
    let same = tokens.iter().zip(&run.program("llama.cpp").tokens).take_while(|(a, b)| a == b);
    assert_eq!(same.count(), 33);
}

/// Every ratio a page may state of the committed runs, to two decimals: two programs' decode
/// speeds, by their best rounds or by their medians, and this chapter's prefill over llama.cpp's
/// (the 32-token prompt and the longer ones).
fn committed_ratios() -> Vec<f64> {
    let mut ratios = Vec::new();
    for (_, run) in &speed_table::committed() {
        for a in &run.programs {
            for b in &run.programs {
                ratios.push(two(run.decode_ratio(&a.program, &b.program)));
                ratios.push(two(run.decode_median_ratio(&a.program, &b.program)));
            }
        }
        let (ours, theirs) =
            (run.program("quantized").prefill(), run.program("llama.cpp").prefill());
        ratios.extend([two(ours.best / theirs.best), two(ours.median / theirs.median)]);
        for prompt in run.prompts.iter().flatten() {
            let (best, median) = prompt.ratios();
            ratios.extend([two(best), two(median)]);
        }
    }
    ratios
}

/// Each "N.NN×" that `text` states (a product sign, as in "Q4_1 × Q8_1", has no number before it).
fn stated_ratios(text: &str) -> Vec<f64> {
    let mut stated = Vec::new();
    for (at, _) in text.match_indices('×') {
        let number: String = text[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if !number.is_empty() {
            stated.push(number.parse().unwrap());
        }
    }
    stated
}

#[test]
fn every_ratio_in_the_speed_section_is_one_of_the_files() {
    // each "N.NN×" the section states is one of the committed runs' ratios: none is typed by
    // hand or left stale
    let ratios = committed_ratios();
    let stated = stated_ratios(&speed_section());
    for x in &stated {
        assert!(ratios.contains(x), "the page's {x}× is no ratio of the committed runs");
    }
    assert_eq!(stated.len(), 36);
}

#[test]
fn the_readmes_chapter_11_ratios_are_the_files() {
    let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    let readme = std::fs::read_to_string(readme).expect("README.md");
    let start = readme.find("Chapter 11 runs SmolLM2").expect("README's chapter 11 paragraph");
    let paragraph = &readme[start..start + readme[start..].find("\n\n").unwrap()];
    let ratios = committed_ratios();
    let stated = stated_ratios(paragraph);
    for x in &stated {
        assert!(ratios.contains(x), "README's {x}× is no ratio of the committed runs");
    }
    assert_eq!(stated.len(), 24);
}

#[test]
fn the_pages_ratios_on_the_amd_epyc() {
    let run = amd_epyc();
    let header = &run.header;
    assert_eq!(
        (header.rounds, header.machine.as_str()),
        (7, "AMD EPYC, 2 cores (avx2, fma, avx512f)")
    );
    assert_eq!(both(&run, "quantized", "transformers"), (8.80, 8.46));
    assert_eq!(both(&run, "f32", "transformers"), (3.33, 2.78));
    assert_eq!(both(&run, "llama.cpp", "quantized"), (0.66, 0.70));
    assert_eq!(both(&run, "quantized", "llama.cpp"), (1.52, 1.43));
    // the goal, by every measure: the f32 path's slowest round beats transformers' fastest
    let decode = |p: &str| run.program(p).decode();
    assert_eq!((one(decode("f32").slowest), one(decode("transformers").best)), (58.4, 25.0));
    assert!(decode("f32").slowest > decode("transformers").best);
    assert_eq!(one(xeon().program("transformers").decode().best), 23.8);
    // llama.cpp ran with its defaults, and its greedy tokens follow the others' for 33 tokens
    let llama = run.program("llama.cpp");
    assert_eq!(llama.configuration.as_deref(), Some(DEFAULTS));
    let tokens = &run.program("transformers").tokens;
    for p in ["quantized", "f32", "chapter 10"] {
        assert_eq!(&run.program(p).tokens, tokens, "{p}");
    }
    let same = tokens.iter().zip(&llama.tokens).take_while(|(a, b)| a == b);
    assert_eq!(same.count(), 33);
    // the bandwidth: three readers, the triad the fastest; what it allows, what each used
    let bandwidth = run.read_bandwidth_bytes_per_s;
    let readers = run.bandwidth_readers.as_ref().unwrap();
    assert_eq!(readers.len(), 3);
    let fastest = readers.iter().max_by(|a, b| a.bytes_per_s.total_cmp(&b.bytes_per_s)).unwrap();
    assert_eq!((fastest.reader.as_str(), (bandwidth / 1e8).round()), ("STREAM triad", 676.0));
    let bytes = |p: &str| run.program(p).weight_bytes_per_token.unwrap() as f64;
    assert_eq!((bandwidth / bytes("f32")).round(), 126.0);
    let share = |p: &str, b: f64| (decode(p).best * b / bandwidth * 100.0).round();
    let shares = (
        share("f32", bytes("f32")),
        share("transformers", bytes("f32")),
        share("quantized", bytes("quantized")),
    );
    assert_eq!(shares, (66.0, 20.0, 31.0));
    assert_eq!(share("f32, prefetch off", bytes("f32")), 61.0);
    assert!(!run.profile_beats_bandwidth());
    // the profile's read rates
    let profile = run.program("quantized").profile.as_ref().unwrap();
    let rate = |i: usize| one(profile[i].read_rate().unwrap() / 1e9);
    assert_eq!((rate(4), rate(3), rate(2), rate(0)), (39.7, 20.3, 16.5, 17.7));
    // what the software prefetch brings: little either way, each ratio smaller than the
    // rounds' own spread
    assert_eq!(both(&run, "quantized", "quantized, prefetch off"), (1.02, 1.06));
    assert_eq!(both(&run, "f32", "f32, prefetch off"), (1.09, 0.98));
    let off = decode("f32, prefetch off");
    assert_eq!((one(off.slowest), one(off.best)), (58.3, 76.2));
    assert_eq!((one(decode("f32").slowest), one(decode("f32").best)), (58.4, 83.1));
    for p in ["quantized", "f32"] {
        let (on, off) = (decode(p), decode(&format!("{p}, prefetch off")));
        let spread = (on.best / on.slowest).min(off.best / off.slowest);
        for (a, b) in [(on.best, off.best), (on.median, off.median)] {
            assert!(a.max(b) / a.min(b) < spread, "{p}");
        }
    }
    // the sum reader paired with each f32 round: the rate of its moment, and the share of it
    let paired = run.program("f32").paired_sum_reader_rounds.as_ref().unwrap();
    let gb = |f: fn(f64, f64) -> f64| one(paired.iter().copied().fold(paired[0], f) / 1e9);
    assert_eq!((gb(f64::min), gb(f64::max)), (37.5, 56.8));
    let shares = run.program("f32").paired_shares().unwrap();
    let s = support::rounds::Summary::of(&shares).unwrap();
    let pct = |x: f64| (100.0 * x).round();
    assert_eq!((pct(s.slowest), pct(s.best), pct(s.median)), (76.0, 89.0, 82.0));
    // the chapter's goal for f32, 80 %: met by the median round against the sum of its moment,
    // missed by 14 points against the run's best reader
    assert!(s.median >= 0.8);
    assert_eq!(80.0 - share("f32", bytes("f32")), 14.0);
    // the two readers that only read: the sum and the product
    let only_reading = |i: usize| one(readers[i].bytes_per_s / 1e9);
    assert_eq!((only_reading(0), only_reading(1)), (57.5, 55.6));
    // where a prefetch has room to pay, the kernel with more arithmetic per byte: one multiply-add per weight in
    // both, a Q4_1 weight 20 / 32 = 0.625 bytes against an f32 weight's 4, 6.4 times as many
    // multiply-adds per byte of weights
    let (q4_1, f32_weight) = (20.0 / 32.0, std::mem::size_of::<f32>() as f64);
    assert_eq!((q4_1, f32_weight / q4_1), (0.625, 6.4));
    let section = speed_section();
    assert!(section.contains("6.4 times as many multiply-adds per byte of weights"));
    // across the machines: the f32 path 58 % slower on the Xeon (35.0 tokens/s at best against
    // 83.1), and transformers a little slower (23.8 against 25.0)
    let f32_best = |run: &SpeedRun| run.program("f32").decode().best;
    let (xeon_f32, amd_f32) = (f32_best(&xeon()), f32_best(&run));
    assert_eq!((one(xeon_f32), one(amd_f32)), (35.0, 83.1));
    assert_eq!((100.0 * (1.0 - xeon_f32 / amd_f32)).round(), 58.0);
    let tf_best = |run: &SpeedRun| one(run.program("transformers").decode().best);
    assert_eq!((tf_best(&xeon()), tf_best(&run)), (23.8, 25.0));
    let flat = section.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains(
        "the `f32` path generates 58 % slower there (35.0 tokens/s at best against 83.1)"
    ));
    assert!(flat.contains("transformers a little slower (23.8 tokens/s at best against 25.0)"));
    for said in [
        "moved 67.6 GB/s, at which an `f32` program would generate about 126 tokens per second",
        "moved 57.5 and 55.6 GB/s",
        "the sum reader found anything from 37.5 to 56.8 GB/s",
        "76 to 89 %, 82 % by the median round",
        "it is missed by 14 points",
        "its prefetch-off rounds between 58.3 and 76.2 tokens/s",
        "its rounds with the prefetch (58.4 to 83.1)",
    ] {
        assert!(flat.contains(said), "the section should say {said:?}");
    }
    // the prompts against llama.cpp: the 32-token one, then the longer ones, by best and median
    let (ours, theirs) = (run.program("quantized").prefill(), run.program("llama.cpp").prefill());
    assert_eq!((two(ours.best / theirs.best), two(ours.median / theirs.median)), (1.98, 1.82));
    let prompt = |n: usize| {
        let (best, median) = run.prompt(n).ratios();
        (two(best), two(median))
    };
    assert_eq!((prompt(256), prompt(1024)), ((1.65, 1.70), (1.24, 1.25)));
    // the goal of 1.2 times: met on every prompt, by best and by median
    for n in ch11_real_llm::speed::LONG_PROMPTS {
        let (best, median) = run.prompt(n).ratios();
        assert!(best >= 1.2 && median >= 1.2, "{n}");
    }
    assert!(ours.best / theirs.best >= 1.2 && ours.median / theirs.median >= 1.2);
    assert!(section.contains("the goal of 1.2 times is met on each"));
    // both predict the same next token after each longer prompt, in every round
    for n in ch11_real_llm::speed::LONG_PROMPTS {
        let p = run.prompt(n);
        assert!(p.next_equal_every_round && p.next["quantized"] == p.next["llama.cpp"], "{n}");
    }
}

#[test]
fn the_summarys_split_of_the_speedup() {
    // the f32 path is already ahead of transformers on the same bytes; the quantized blocks add
    // their factor on top, by the best rounds: 3.33 x 2.64 = 8.80 on the AMD EPYC, and
    // 1.47 x 2.94 = 4.32 on the Xeon
    let split = |run: &SpeedRun| {
        (
            two(run.decode_ratio("f32", "transformers")),
            two(run.decode_ratio("quantized", "f32")),
            two(run.decode_ratio("quantized", "transformers")),
        )
    };
    assert_eq!(split(&amd_epyc()), (3.33, 2.64, 8.80));
    assert_eq!(split(&xeon()), (1.47, 2.94, 4.32));
    let page = concat!(env!("CARGO_MANIFEST_DIR"), "/../../book/src/11-real-llm.md");
    let page = std::fs::read_to_string(page).expect("the chapter's page");
    let page = page.split_whitespace().collect::<Vec<_>>().join(" ");
    let summary = &page[page.find("## Summary").expect("the summary")..];
    for said in [
        "already 3.33× as fast as transformers on an AMD EPYC (1.47× on an Intel Xeon)",
        "add 2.64× on top (2.94× on the Xeon), for 8.80× transformers' speed (4.32×)",
        "In `f32` the decode path beats transformers on both machines by every measure",
    ] {
        assert!(summary.contains(said), "the summary should say {said:?}");
    }
}

#[test]
fn the_page_calls_the_bound_an_estimate_where_the_profile_reads_faster() {
    // a bound drawn from a measured bandwidth holds only if no part of a decode step read its
    // weights faster than that bandwidth; where one did, the page must call it an estimate
    let section = speed_section();
    for (name, run) in speed_table::committed() {
        if run.profile_beats_bandwidth() {
            assert!(section.contains("That is an estimate, not a ceiling"), "{name}");
            for claim in ["no program can", "cannot exceed", "can at best"] {
                assert!(!section.contains(claim), "{name}: the page claims {claim:?}");
            }
        }
    }
}

#[test]
fn the_layers_matrix_sizes() {
    // the page: "576 rows (queries, attention output, the feed-forward network's down
    // projection), 192 (keys, values) or 1,536 (its gate and up projections)"
    let c = smollm2::CONFIG;
    assert_eq!(c.hidden_size, 576);
    assert_eq!(c.num_key_value_heads * c.head_dim, 192);
    assert_eq!(c.intermediate_size, 1536);
    assert_eq!(c.vocab_size, 49_152);
    let section = speed_section();
    assert!(section.contains("576 rows (queries,\nattention output"));
    assert!(section.contains("192 (keys, values) or 1,536"));
}
