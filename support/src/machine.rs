//! The machine a measurement was taken on: CPU model, cores and the vector instruction sets that
//! matter for `f32` arithmetic. Every recorded time in the book carries this line.

/// `"AMD EPYC 9B14, 2 cores (avx2, fma, avx512f)"`: the CPU's model name, the cores this process
/// may use, and which of AVX2, FMA and AVX-512F it has (read from `/proc/cpuinfo` where there is
/// one; `unknown CPU` elsewhere).
pub fn describe() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map_or("unknown CPU", |m| m.trim_start_matches([' ', '\t', ':']));
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    format!("{model}, {cores} cores ({})", vector_isa(&cpuinfo).join(", "))
}

/// Which of `avx2`, `fma` and `avx512f` the `flags` line of `cpuinfo` lists.
fn vector_isa(cpuinfo: &str) -> Vec<&'static str> {
    let flags = cpuinfo.lines().find_map(|l| l.strip_prefix("flags")).unwrap_or("");
    ["avx2", "fma", "avx512f"]
        .into_iter()
        .filter(|f| flags.split_whitespace().any(|x| x == *f))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_vector_flags() {
        let info = "model name\t: Some CPU\nflags\t\t: sse avx2 fma bmi2\n";
        assert_eq!(vector_isa(info), vec!["avx2", "fma"]);
        assert_eq!(vector_isa("flags : sse4_2"), Vec::<&str>::new());
    }

    #[test]
    fn names_the_cores() {
        let cores = std::thread::available_parallelism().unwrap().get();
        assert!(describe().contains(&format!(", {cores} cores (")), "{}", describe());
    }
}
