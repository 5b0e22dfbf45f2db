//! A safe face for the `gemm` crate (the matrix multiply dfdx itself runs on the CPU). `gemm`
//! takes raw pointers and strides; here every view checks, before the call, that each element the
//! multiply will touch lies inside its slice. This module and [`super::simd`] are the only places
//! in the book that allow `unsafe` code.
#![allow(unsafe_code)]

use gemm::Parallelism;

/// A read-only matrix view: element `(r, c)` is `data[r * rs + c * cs]`.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    data: &'a [f32],
    rows: usize,
    cols: usize,
    rs: usize,
    cs: usize,
}

impl<'a> View<'a> {
    /// # Panics
    /// If an element of the `rows x cols` view would lie outside `data`.
    pub fn new(data: &'a [f32], rows: usize, cols: usize, rs: usize, cs: usize) -> Self {
        if rows > 0 && cols > 0 {
            let last = (rows - 1) * rs + (cols - 1) * cs;
            assert!(
                last < data.len(),
                "View: element {last} of a {rows}x{cols} view is outside {} values",
                data.len()
            );
        }
        View { data, rows, cols, rs, cs }
    }

    /// `rows x cols`, row-major, rows `ld` apart.
    pub fn rows(data: &'a [f32], rows: usize, cols: usize, ld: usize) -> Self {
        View::new(data, rows, cols, ld, 1)
    }

    /// The transpose of a row-major `cols x rows` matrix whose rows are `ld` apart (`Kᵀ` from `K`).
    pub fn transposed(data: &'a [f32], rows: usize, cols: usize, ld: usize) -> Self {
        View::new(data, rows, cols, 1, ld)
    }
}

/// `dst = alpha · a · b`, or `dst += alpha · a · b` when `accumulate`. `dst` is row-major with rows
/// `ld` apart. One thread: the callers parallelise over tiles.
///
/// # Panics
/// If the inner sizes differ or `dst` is too small for `a.rows x b.cols`.
pub fn matmul(dst: &mut [f32], ld: usize, a: View<'_>, b: View<'_>, alpha: f32, accumulate: bool) {
    assert_eq!(
        a.cols, b.rows,
        "matmul: inner sizes differ ({}x{} · {}x{})",
        a.rows, a.cols, b.rows, b.cols
    );
    let (m, n, k) = (a.rows, b.cols, a.cols);
    if m == 0 || n == 0 {
        return;
    }
    assert!(
        n <= ld && (m - 1) * ld + n <= dst.len(),
        "matmul: dst holds {} values, too few for {m}x{n} rows {ld} apart",
        dst.len()
    );
    if k == 0 {
        if !accumulate {
            (0..m).for_each(|r| dst[r * ld..r * ld + n].fill(0.0));
        }
        return;
    }
    // SAFETY: the views and the assert above keep every element gemm reads or writes inside its
    // slice; `dst` is borrowed mutably, so it overlaps neither input.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.as_mut_ptr(),
            1,
            ld as isize,
            accumulate,
            a.data.as_ptr(),
            a.cs as isize,
            a.rs as isize,
            b.data.as_ptr(),
            b.cs as isize,
            b.rs as isize,
            1.0,
            alpha,
            false,
            false,
            false,
            Parallelism::None,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiplies_and_accumulates() {
        // [1 2; 3 4] · [5 6; 7 8]ᵀ-as-stored = [1 2; 3 4] · [5 7; 6 8]
        let a = [1.0, 2.0, 3.0, 4.0];
        let b = [5.0, 6.0, 7.0, 8.0];
        let mut c = [1.0; 4];
        matmul(&mut c, 2, View::rows(&a, 2, 2, 2), View::transposed(&b, 2, 2, 2), 1.0, false);
        assert_eq!(c, [17.0, 23.0, 39.0, 53.0]);
        matmul(&mut c, 2, View::rows(&a, 2, 2, 2), View::rows(&b, 2, 2, 2), 0.5, true);
        // + 0.5 · [19 22; 43 50]
        assert_eq!(c, [26.5, 34.0, 60.5, 78.0]);
    }

    #[test]
    #[should_panic(expected = "outside 3 values")]
    fn a_view_past_its_slice_panics() {
        View::rows(&[0.0; 3], 2, 2, 2);
    }
}
