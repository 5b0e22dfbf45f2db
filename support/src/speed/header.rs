//! [`Header`]: where and how a comparison was measured.

use serde::Deserialize;

use crate::machine::check_line;

/// The fields every committed comparison starts with; a chapter's run reads them with
/// `#[serde(flatten)]` beside its own.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Header {
    /// [`describe()`](crate::machine::describe): CPU, cores, instruction sets
    pub machine: String,
    /// the instruction set the chapter's kernels ran on
    pub isa: String,
    /// the threads each program was given
    pub threads: usize,
    /// how many rounds each program ran, the programs alternating
    pub rounds: usize,
}

impl Header {
    /// Whether the run names its machine as [`describe()`](crate::machine::describe) does, gave
    /// each program `threads` threads, and ran at least `min_rounds` rounds.
    pub fn check(&self, threads: usize, min_rounds: usize) -> Result<(), String> {
        check_line(&self.machine)?;
        if self.threads != threads {
            return Err(format!("{} threads, not {threads}", self.threads));
        }
        if self.rounds < min_rounds {
            return Err(format!("{} rounds: a median needs at least {min_rounds}", self.rounds));
        }
        Ok(())
    }

    /// `"1 round"` or `"7 alternating rounds"`.
    pub fn rounds_phrase(&self) -> String {
        match self.rounds {
            1 => "1 round".to_string(),
            n => format!("{n} alternating rounds"),
        }
    }

    /// The sentence a table starts with: `"Measured on <machine>, with <versions>; <workload>,
    /// 2 threads each, 7 alternating rounds; <ours> on <isa>."`.
    pub fn measured(&self, versions: &str, workload: &str, ours: &str) -> String {
        format!(
            "Measured on {}, with {versions}; {workload}, {} threads each, {}; {ours} on {}.",
            self.machine,
            self.threads,
            self.rounds_phrase(),
            self.isa
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(rounds: usize) -> Header {
        let machine = "AMD EPYC 9B14, 2 cores (avx2, fma, avx512f)".to_string();
        Header { machine, isa: "avx512".into(), threads: 2, rounds }
    }

    #[test]
    fn a_header_is_read_from_a_file_beside_other_fields() {
        let json = r#"{"machine": "Xeon, 2 cores (avx2)", "isa": "avx2", "threads": 2,
                       "rounds": 3, "programs": []}"#;
        let read: Header = serde_json::from_str(json).unwrap();
        let want =
            Header { machine: "Xeon, 2 cores (avx2)".into(), isa: "avx2".into(), ..header(3) };
        assert_eq!(read, want);
    }

    #[test]
    fn the_checks_name_what_is_wrong() {
        assert_eq!(header(3).check(2, 3), Ok(()));
        assert_eq!(header(1).check(2, 1), Ok(()));
        assert_eq!(header(2).check(2, 3), Err("2 rounds: a median needs at least 3".into()));
        assert_eq!(header(3).check(4, 3), Err("2 threads, not 4".into()));
        let laptop = Header { machine: "my laptop".into(), ..header(3) };
        let e = laptop.check(2, 3).unwrap_err();
        assert_eq!(e, "machine \"my laptop\" is not '<CPU>, N cores (...)'");
    }

    #[test]
    fn the_first_sentence_of_a_table() {
        assert_eq!(header(1).rounds_phrase(), "1 round");
        assert_eq!(
            header(7).measured("torch 2.15.0", "5 clips", "the fast path"),
            "Measured on AMD EPYC 9B14, 2 cores (avx2, fma, avx512f), with torch 2.15.0; 5 clips, \
             2 threads each, 7 alternating rounds; the fast path on avx512."
        );
    }
}
