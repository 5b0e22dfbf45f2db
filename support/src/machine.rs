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

/// Whether `line` is a machine as [`describe`] writes it, `"<CPU>, N cores (<sets>)"`: what every
/// committed measurement must say about where it ran. The error quotes the line.
pub fn check_line(line: &str) -> Result<(), String> {
    let rest = line.split_once(", ").map_or("", |(_, rest)| rest);
    let count = rest.split_once(" cores (").map_or("", |(n, _)| n);
    if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) || !rest.ends_with(')') {
        return Err(format!("machine {line:?} is not '<CPU>, N cores (...)'"));
    }
    Ok(())
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

    #[test]
    fn a_machine_line_is_checked() {
        assert_eq!(check_line(&describe()), Ok(()));
        assert_eq!(check_line("Intel(R) Xeon(R) Processor, 2 cores (avx2, fma, avx512f)"), Ok(()));
        for bad in ["", "my laptop", "Xeon, two cores (avx2)", "Xeon, 2 cores", "Xeon, cores ()"] {
            let e = check_line(bad).unwrap_err();
            assert_eq!(e, format!("machine {bad:?} is not '<CPU>, N cores (...)'"));
        }
    }
}
