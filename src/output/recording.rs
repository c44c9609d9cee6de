//! The recorded time series of a run: what CSV and PNG writers consume.

/// One recorded scalar column.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// CSV header, per the model-format contract: `block.port`, `block.port[i]` or `block.port[i,j]`.
    pub name: String,
    /// Physical unit when known (e.g. "m", "N"), shown in plot legends.
    pub unit: Option<String>,
    /// Index into [`Recording::panels`] of the plot panel (Scope) this column belongs to;
    /// `None` for signals logged only through `[output] log` (they go to a panel of their own).
    pub panel: Option<usize>,
}

impl Column {
    /// The column's name as legends write it, the block's name first: `free.q[0]` →
    /// `"free: q[0]"` (the block is the part before the port's '.', which may itself hold
    /// brackets, `dom[2].out` → `"dom[2]: out"`); a name without '.' unchanged.
    pub fn label(&self) -> String {
        // Port names and element indices hold no '.', so the last '.' ends the block's name.
        match self.name.rfind('.') {
            Some(dot) => format!("{}: {}", &self.name[..dot], &self.name[dot + 1..]),
            None => self.name.clone(),
        }
    }

    /// What the column is, for legends: [`Column::label`], then in parentheses the quantity
    /// its unit measures and the unit (`"free: q[0] (angle, rad)"`, the table of
    /// `quantity`), or the unit alone when the table does not know it
    /// (`"(furlong)"`); nothing without a unit.
    pub fn legend(&self) -> String {
        let label = self.label();
        match self.unit.as_deref().filter(|u| !u.is_empty()) {
            None => label,
            Some(u) => match quantity(u) {
                Some(q) => format!("{label} ({q}, {u})"),
                None => format!("{label} ({u})"),
            },
        }
    }
}

/// Time series recorded at accepted steps and events. Rows are stored flat, row-major.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recording {
    /// Titles of the plot panels, one per Scope block (its name), in model order.
    pub panels: Vec<String>,
    /// The recorded columns (the CSV's columns after `time`).
    pub columns: Vec<Column>,
    /// Time of each row, s. Non-decreasing; an event gives two rows with equal time.
    pub times: Vec<f64>,
    /// `times.len() × columns.len()` values, row-major.
    pub values: Vec<f64>,
}

impl Recording {
    /// An empty recording with the given panels and columns.
    pub fn new(panels: Vec<String>, columns: Vec<Column>) -> Self {
        Self {
            panels,
            columns,
            times: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Number of rows recorded.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// True when no row was recorded.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// Removes every row, keeping the columns and the memory (a new run into the same buffers).
    pub fn clear(&mut self) {
        self.times.clear();
        self.values.clear();
    }

    /// Appends one row; `row.len()` must equal the number of columns.
    pub fn push_row(&mut self, time: f64, row: &[f64]) {
        debug_assert_eq!(row.len(), self.columns.len());
        self.times.push(time);
        self.values.extend_from_slice(row);
    }

    /// The values of row `i`.
    pub fn row(&self, i: usize) -> &[f64] {
        let n = self.columns.len();
        &self.values[i * n..(i + 1) * n]
    }

    /// Iterates over the values of column `j`, one per row.
    pub fn column_values(&self, j: usize) -> impl Iterator<Item = f64> + '_ {
        let n = self.columns.len();
        (0..self.times.len()).map(move |i| self.values[i * n + j])
    }

    /// Index of the column named `name`.
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }
}

/// What a signal in `unit` is, for legends: "angle" for rad, "force" for N, … (the table in
/// `docs/output.md`); `None` for a unit not in the table.
pub fn quantity(unit: &str) -> Option<&'static str> {
    Some(match unit {
        "rad" => "angle",
        "rad/s" => "angular velocity",
        "rad/s²" => "angular acceleration",
        "m" => "position",
        "m/s" => "velocity",
        "m/s²" => "acceleration",
        "N" => "force",
        "N·m" => "torque",
        "N·s" => "impulse",
        "s" => "time",
        "kg" => "mass",
        "J" => "energy",
        "W" => "power",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::Column;

    fn column(name: &str, unit: Option<&str>) -> Column {
        Column {
            name: name.into(),
            unit: unit.map(str::to_string),
            panel: None,
        }
    }

    #[test]
    fn legends_start_with_the_block_and_say_the_quantity() {
        assert_eq!(
            column("free.q[0]", Some("rad")).legend(),
            "free: q[0] (angle, rad)"
        );
        assert_eq!(
            column("cart.p[2]", Some("m")).legend(),
            "cart: p[2] (position, m)"
        );
        assert_eq!(
            column("dom[2].out", Some("furlong")).legend(),
            "dom[2]: out (furlong)"
        );
        assert_eq!(column("leg1/hip.tau", None).legend(), "leg1/hip: tau");
        assert_eq!(column("time", Some("")).legend(), "time");
    }
}
