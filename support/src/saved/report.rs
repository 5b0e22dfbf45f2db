//! [`RunReport`]: what every training run's report records first (the configuration, the model's
//! size, the machine), and then what its chapter measured, in one flat JSON object.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

/// A training run's report: `config`, `parameters` and `machine`, then the fields of `results`
/// at the same level, as the training examples write it:
///
/// ```json
/// { "config": { "seed": 0 }, "parameters": 98624, "machine": "…", "losses": [2.1, 1.7] }
/// ```
///
/// The results' fields read through it (`report.losses`, by [`Deref`](std::ops::Deref)).
///
/// Read back, the results are deserialised straight from the file, as if they stood alone, and
/// not through the buffer serde's `#[serde(flatten)]` reads into: that buffer parses every
/// number as an `f64` (an `f32` is then rounded a second time), where read directly,
/// `serde_json`'s `float_roundtrip` parses an `f32` as an `f32`, in one step, as the reports
/// have always been read.
///
/// # Generics
/// - `C`: the run's configuration (the chapter's `TrainConfig`).
/// - `R`: what the run measured: the chapter's results, a struct.
///
/// PyTorch has no counterpart: a training script writes its own JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunReport<C, R> {
    pub config: C,
    /// trainable parameters of the model
    pub parameters: usize,
    /// the CPU, its cores and vector instruction sets ([`describe`](crate::machine::describe))
    pub machine: String,
    #[serde(flatten)]
    pub results: R,
}

impl<C, R> std::ops::Deref for RunReport<C, R> {
    type Target = R;

    fn deref(&self) -> &R {
        &self.results
    }
}

impl<'de, C: Deserialize<'de>, R: Deserialize<'de>> Deserialize<'de> for RunReport<C, R> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ReportVisitor(PhantomData))
    }
}

struct ReportVisitor<C, R>(PhantomData<(C, R)>);

impl<'de, C: Deserialize<'de>, R: Deserialize<'de>> Visitor<'de> for ReportVisitor<C, R> {
    type Value = RunReport<C, R>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a training report: config, parameters, machine and the run's results")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let mut header = Header { map, config: None, parameters: None, machine: None };
        let results = R::deserialize(de::value::MapAccessDeserializer::new(&mut header))?;
        Ok(RunReport {
            config: header.config.ok_or_else(|| de::Error::missing_field("config"))?,
            parameters: header.parameters.ok_or_else(|| de::Error::missing_field("parameters"))?,
            machine: header.machine.ok_or_else(|| de::Error::missing_field("machine"))?,
            results,
        })
    }
}

/// The report's entries as the results see them: the header's three taken out on the way.
struct Header<A, C> {
    map: A,
    config: Option<C>,
    parameters: Option<usize>,
    machine: Option<String>,
}

/// Reads the value of a header entry into `slot`, once.
fn take<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
    map: &mut A,
    slot: &mut Option<T>,
    name: &'static str,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

impl<'de, A: MapAccess<'de>, C: Deserialize<'de>> MapAccess<'de> for &mut Header<A, C> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        while let Some(key) = self.map.next_key::<String>()? {
            match key.as_str() {
                "config" => take(&mut self.map, &mut self.config, "config")?,
                "parameters" => take(&mut self.map, &mut self.parameters, "parameters")?,
                "machine" => take(&mut self.map, &mut self.machine, "machine")?,
                _ => return seed.deserialize(key.into_deserializer()).map(Some),
            }
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Config {
        seed: u64,
        dropout: f32,
    }

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Results {
        losses: Vec<f32>,
        accuracy: Option<f64>,
    }

    type Report = RunReport<Config, Results>;

    #[test]
    fn the_header_comes_first_and_the_results_follow_at_the_same_level() {
        let report = Report {
            config: Config { seed: 3, dropout: 0.1 },
            parameters: 42,
            machine: "a CPU".into(),
            results: Results { losses: vec![2.5, 0.1], accuracy: None },
        };
        let json = serde_json::to_string_pretty(&report).unwrap();
        let expected = r#"{
  "config": {
    "seed": 3,
    "dropout": 0.1
  },
  "parameters": 42,
  "machine": "a CPU",
  "losses": [
    2.5,
    0.1
  ],
  "accuracy": null
}"#;
        assert_eq!(json, expected);
        assert_eq!(serde_json::from_str::<Report>(&json).unwrap(), report);
        assert_eq!(report.losses, [2.5, 0.1], "the results read through");
        // in any order
        let shuffled = r#"{"losses": [1], "machine": "m", "accuracy": 0.5, "parameters": 1,
                           "config": {"seed": 0, "dropout": 0}}"#;
        let r: Report = serde_json::from_str(shuffled).unwrap();
        assert_eq!((r.parameters, r.accuracy, r.config.seed), (1, Some(0.5), 0));
    }

    #[test]
    fn every_float_reads_back_bit_for_bit() {
        // finite f32s of every magnitude, subnormals included, and both signs
        let spread = (0..0x7f80_0000u32).step_by(7_919).map(f32::from_bits);
        let losses: Vec<f32> = spread.flat_map(|x| [x, -x]).collect();
        let report = Report {
            config: Config { seed: u64::MAX, dropout: 0.1 },
            parameters: 0,
            machine: String::new(),
            results: Results { losses, accuracy: Some(1.0 / 3.0) },
        };
        let json = serde_json::to_string_pretty(&report).unwrap();
        let back: Report = serde_json::from_str(&json).unwrap();
        let bits = |r: &Report| r.losses.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back), bits(&report));
        assert_eq!(back.accuracy.map(f64::to_bits), report.accuracy.map(f64::to_bits));
        assert_eq!(serde_json::to_string_pretty(&back).unwrap(), json, "re-saved unchanged");
    }

    #[test]
    fn missing_and_repeated_header_fields_are_named() {
        let e = serde_json::from_str::<Report>(
            r#"{"parameters": 1, "machine": "m",
            "losses": [], "accuracy": null}"#,
        )
        .unwrap_err();
        assert!(e.to_string().contains("missing field `config`"), "{e}");
        let e = serde_json::from_str::<Report>(r#"{"machine": "m", "machine": "n"}"#).unwrap_err();
        assert!(e.to_string().contains("duplicate field `machine`"), "{e}");
        let e = serde_json::from_str::<Report>(
            r#"{"config": {"seed": 0, "dropout": 0},
            "parameters": 1, "machine": "m", "accuracy": null}"#,
        )
        .unwrap_err();
        assert!(e.to_string().contains("missing field `losses`"), "{e}");
    }
}
