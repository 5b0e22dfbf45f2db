//! [`trained_loaders!`](crate::trained_loaders): the `trained` module every training chapter
//! offers (the paths and command of its committed run, its model and report loaded, and a test
//! that the report reads back unchanged), written once for all of them.

/// The loaders of a chapter's committed run `$run` (a [`Committed`](crate::saved::Committed)),
/// for its model `$model<Dev>` and its report `$report`:
///
/// * `WEIGHTS`, `REPORT`, `TRAIN`: `$run`'s paths and command;
/// * `try_load_from(dev, path)`: the model with the weights of the safetensors file at `path`, or
///   a [`LoadError`](crate::LoadError) that names the file and `TRAIN`;
/// * `try_load_model(dev)`, `load_model(dev)`: the committed model (the second panics with the
///   error's message), after finishing a save that was stopped once the new pair was complete;
/// * `load_report()`: the committed report, panicking with a message that names the file;
/// * the test `committed_report_resaves_unchanged`: the committed report reads back as a
///   `$report` that writes the file again byte for byte.
///
/// The model is built untrained by `$new(&dev)` and given the weights with dfdx's
/// `load_safetensors` (the chapter depends on `dfdx` with its `safetensors` feature), or, where
/// the model has its own loader that checks more, `load: |dev, path| ...` calls that instead.
///
/// ```text
/// pub const RUN: Committed = Committed { weights: .., report: .., command: .. };
/// support::trained_loaders!(RUN, DigitsVit, DigitsVit::new, Report);
/// support::trained_loaders!(
///     RUN,
///     TinyLlama,
///     load: |dev, path| TinyLlama::load(dev, path, RUN.command),
///     Report
/// );
/// ```
#[macro_export]
macro_rules! trained_loaders {
    (@rest $run:ident, $model:ident, $report:ty) => {
        #[doc = concat!("Where the weights are: [`", stringify!($run), "`]`.weights`.")]
        pub const WEIGHTS: &str = $run.weights;
        #[doc = concat!("Where the report is: [`", stringify!($run), "`]`.report`.")]
        pub const REPORT: &str = $run.report;
        /// The command that trains the model and writes [`WEIGHTS`] and [`REPORT`].
        pub const TRAIN: &str = $run.command;

        #[doc = concat!("The committed [`", stringify!($model), "`], on `dev`.")]
        pub fn try_load_model<Dev: ::dfdx::tensor_ops::Device<f32>>(
            dev: &Dev,
        ) -> Result<$model<Dev>, $crate::LoadError> {
            $run.finish_interrupted_save()?;
            try_load_from(dev, WEIGHTS)
        }

        #[doc = concat!("The committed [`", stringify!($model), "`], on `dev`.")]
        ///
        /// # Panics
        /// With [`try_load_model`]'s error, if the weights do not load.
        pub fn load_model<Dev: ::dfdx::tensor_ops::Device<f32>>(dev: &Dev) -> $model<Dev> {
            try_load_model(dev).unwrap_or_else(|e| panic!("{e}"))
        }

        /// The report of the run that produced the weights.
        ///
        /// # Panics
        /// If the file is missing or not a report: the message names the file and the command
        /// that writes it.
        pub fn load_report() -> $report {
            $run.report()
        }

        /// The committed report reads back into this crate's types and writes again byte for
        /// byte: nothing in it is lost, reordered or rounded.
        #[cfg(test)]
        #[test]
        fn committed_report_resaves_unchanged() {
            $run.assert_report_resaves_unchanged::<$report>();
        }
    };
    ($run:ident, $model:ident, load: $load:expr, $report:ty) => {
        #[doc = concat!("A [`", stringify!($model), "`] with the weights of the safetensors \
                         file at `path`, read by its own loader.")]
        pub fn try_load_from<Dev: ::dfdx::tensor_ops::Device<f32>>(
            dev: &Dev,
            path: impl AsRef<::std::path::Path>,
        ) -> Result<$model<Dev>, $crate::LoadError> {
            let load: fn(&Dev, &::std::path::Path) -> Result<$model<Dev>, $crate::LoadError> =
                $load;
            load(dev, path.as_ref())
        }

        $crate::trained_loaders!(@rest $run, $model, $report);
    };
    ($run:ident, $model:ident, $new:expr, $report:ty) => {
        #[doc = concat!("A fresh [`", stringify!($model), "`] with the weights of the \
                         safetensors file at `path`.")]
        pub fn try_load_from<Dev: ::dfdx::tensor_ops::Device<f32>>(
            dev: &Dev,
            path: impl AsRef<::std::path::Path>,
        ) -> Result<$model<Dev>, $crate::LoadError> {
            $run.try_load_from(path, ($new)(dev), |model: &mut $model<Dev>, p| {
                ::dfdx::nn::LoadFromSafetensors::load_safetensors(model, p)
            })
        }

        $crate::trained_loaders!(@rest $run, $model, $report);
    };
}
