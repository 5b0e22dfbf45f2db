//! Parameter tables whose formulas cannot disagree with their numbers: a [`Count`] is an
//! arithmetic expression that writes itself out and evaluates itself, and a [`ParamTable`]
//! is rows of them whose total is their sum. A chapter builds its table from its sizes, prints it
//! with an example (the book includes that output), and tests each row against dfdx's count of
//! the matching part of the built model.

use std::ops::{Add, Mul};

/// A count and the expression that computes it, e.g. `4(64 · 64 + 64)` = 16,640. The expression
/// is plain text (`·`, `²`, thousands separated by commas): the book includes generated tables
/// after its math has been rendered, so they carry no TeX.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    value: usize,
    text: String,
    /// the expression's outermost operation is a sum (it needs parentheses inside a product)
    is_sum: bool,
}

impl Count {
    /// A number, shown with thousands separators.
    pub fn n(value: usize) -> Count {
        Count { value, text: thousands(value), is_sum: false }
    }

    /// `base` squared, shown as `base²`.
    pub fn squared(base: usize) -> Count {
        Count { value: base * base, text: format!("{}²", thousands(base)), is_sum: false }
    }

    /// What the expression evaluates to.
    pub fn value(&self) -> usize {
        self.value
    }

    /// The expression, written out.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl Add for Count {
    type Output = Count;
    fn add(self, rhs: Count) -> Count {
        Count {
            value: self.value + rhs.value,
            text: format!("{} + {}", self.text, rhs.text),
            is_sum: true,
        }
    }
}

impl Mul for Count {
    type Output = Count;
    /// `a · b`, with a sum in parentheses; a number times a parenthesised sum is written
    /// `4(a + b)`.
    fn mul(self, rhs: Count) -> Count {
        let wrap = |c: &Count| if c.is_sum { format!("({})", c.text) } else { c.text.clone() };
        let text = if rhs.is_sum && !self.is_sum && !self.text.contains('·') {
            format!("{}{}", self.text, wrap(&rhs))
        } else {
            format!("{} · {}", wrap(&self), wrap(&rhs))
        };
        Count { value: self.value * rhs.value, text, is_sum: false }
    }
}

/// `16,640`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One row: a part of the model, its count, and whether the total adds it (a row that details
/// one of several identical blocks is shown, but the row for all of them is what is summed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamRow {
    pub part: String,
    pub count: Count,
    pub in_total: bool,
}

/// A parameter table: rows, then a total that is the sum of the rows marked `in_total`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParamTable {
    pub rows: Vec<ParamRow>,
}

impl ParamTable {
    /// Adds a row that the total counts.
    pub fn part(mut self, part: &str, count: Count) -> Self {
        self.rows.push(ParamRow { part: part.to_string(), count, in_total: true });
        self
    }

    /// Adds a row that details a part counted by another row (one of several equal blocks).
    pub fn detail(mut self, part: &str, count: Count) -> Self {
        self.rows.push(ParamRow { part: part.to_string(), count, in_total: false });
        self
    }

    /// The row named `part`.
    ///
    /// # Panics
    /// If there is none: the name is a typo in a test.
    pub fn row(&self, part: &str) -> &ParamRow {
        self.rows.iter().find(|r| r.part == part).unwrap_or_else(|| panic!("no row {part:?}"))
    }

    /// The total as an expression: the sum of the rows marked `in_total`.
    pub fn total(&self) -> Count {
        let mut summed = self.rows.iter().filter(|r| r.in_total).map(|r| Count::n(r.count.value()));
        let first = summed.next().unwrap_or_else(|| Count::n(0));
        summed.fold(first, |acc, c| acc + c)
    }

    /// The table in Markdown: part, formula, parameters; the total last, in bold.
    pub fn markdown(&self) -> String {
        let mut out = String::from("| part | formula | parameters |\n|---|---|---:|\n");
        for r in &self.rows {
            let name = if r.in_total { r.part.clone() } else { format!("*{}*", r.part) };
            out += &format!("| {name} | {} | {} |\n", r.count.text(), thousands(r.count.value()));
        }
        let total = self.total();
        out += &format!("| **total** | {} | **{}** |\n", total.text(), thousands(total.value()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_render_and_evaluate() {
        let d = || Count::n(64);
        let attention = Count::n(4) * (d() * d() + d());
        assert_eq!((attention.text(), attention.value()), ("4(64 · 64 + 64)", 16_640));
        let ffn = d() * Count::n(128) + Count::n(128) + Count::n(128) * d() + d();
        assert_eq!(ffn.value(), 16_576);
        let block = (Count::n(2) * (d() + d())) * Count::n(3);
        assert_eq!((block.text(), block.value()), ("2(64 + 64) · 3", 768));
        assert_eq!(Count::squared(128).text(), "128²");
        assert_eq!(Count::n(1_234_567).text(), "1,234,567");
    }

    #[test]
    fn the_total_sums_the_parts_not_the_details() {
        let t = ParamTable::default()
            .detail("one block", Count::n(10) + Count::n(5))
            .part("two blocks", Count::n(2) * Count::n(15))
            .part("head", Count::n(1_000));
        assert_eq!(t.total().value(), 1_030);
        assert_eq!(t.row("one block").count.value(), 15);
        let md = t.markdown();
        assert!(md.contains("| *one block* | 10 + 5 | 15 |"), "{md}");
        assert!(md.ends_with("| **total** | 30 + 1,000 | **1,030** |\n"), "{md}");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
    }
}
