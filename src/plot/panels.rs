//! Which panels a plot has and which recorded columns each shows: one panel per Scope, one for
//! the columns logged without a Scope, each split by unit so that one value axis never mixes
//! units (drawn by `render`; the browser view groups its signals the same way).

use crate::output::Recording;

/// Title of the panel that shows columns with `panel: None` (signals logged without a Scope).
pub const LOGGED_PANEL_TITLE: &str = "logged";

/// One panel to draw: its title and the indices of its columns in the recording.
#[derive(Clone, Debug, PartialEq)]
pub struct PanelPlan {
    /// Panel title (the Scope's name, or [`LOGGED_PANEL_TITLE`]).
    pub title: String,
    /// Indices into `Recording::columns`.
    pub columns: Vec<usize>,
}

/// Assigns the recording's columns to panels: one panel per entry of `rec.panels` (possibly without
/// columns), plus a "logged" panel when some column has `panel: None`; a panel whose columns have
/// different units is split into one panel per unit (in the order the units first appear), titled
/// "scope [unit]", so that a force and a displacement never share a value axis; a panel whose
/// columns share one unit is titled "scope [unit]" too. A recording with
/// neither gets one empty panel titled "no signals recorded". Err when a column names a panel that
/// does not exist.
pub fn plan_panels(rec: &Recording) -> Result<Vec<PanelPlan>, String> {
    Ok(plan_scope_panels(rec)?
        .into_iter()
        .flat_map(|plan| split_by_unit(rec, plan))
        .collect())
}

/// `plan` as one panel per unit of its columns (itself, its title with the unit, when they share
/// one).
fn split_by_unit(rec: &Recording, plan: PanelPlan) -> Vec<PanelPlan> {
    let unit = |j: usize| rec.columns[j].unit.as_deref().unwrap_or("");
    let mut units: Vec<&str> = Vec::new();
    for &j in &plan.columns {
        if !units.contains(&unit(j)) {
            units.push(unit(j));
        }
    }
    match units[..] {
        [] => return vec![plan],
        // One unit: the title says it, as a split panel's does ("forces [N]").
        [""] => return vec![plan],
        [u] => {
            return vec![PanelPlan {
                title: format!("{} [{u}]", plan.title),
                ..plan
            }]
        }
        _ => {}
    }
    units
        .into_iter()
        .map(|u| PanelPlan {
            title: if u.is_empty() {
                format!("{} (no unit)", plan.title)
            } else {
                format!("{} [{u}]", plan.title)
            },
            columns: plan
                .columns
                .iter()
                .copied()
                .filter(|&j| unit(j) == u)
                .collect(),
        })
        .collect()
}

/// One panel per Scope and one for the logged columns (see [`plan_panels`]).
fn plan_scope_panels(rec: &Recording) -> Result<Vec<PanelPlan>, String> {
    let mut plans: Vec<PanelPlan> = rec
        .panels
        .iter()
        .map(|title| PanelPlan {
            title: title.clone(),
            columns: Vec::new(),
        })
        .collect();
    let mut logged = Vec::new();
    for (j, column) in rec.columns.iter().enumerate() {
        match column.panel {
            Some(p) if p < plans.len() => plans[p].columns.push(j),
            Some(p) => {
                return Err(format!(
                    "column '{}' belongs to panel {p}, but the recording has {} panels",
                    column.name,
                    plans.len()
                ))
            }
            None => logged.push(j),
        }
    }
    if !logged.is_empty() {
        plans.push(PanelPlan {
            title: LOGGED_PANEL_TITLE.to_string(),
            columns: logged,
        });
    }
    if plans.is_empty() {
        plans.push(PanelPlan {
            title: "no signals recorded".to_string(),
            columns: Vec::new(),
        });
    }
    Ok(plans)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Column;

    fn column(name: &str, panel: Option<usize>) -> Column {
        Column {
            name: name.to_string(),
            unit: None,
            panel,
        }
    }

    #[test]
    fn columns_go_to_their_panels_and_unassigned_to_logged() {
        let rec = Recording::new(
            vec!["a".into(), "b".into()],
            vec![
                column("x", Some(1)),
                column("y", None),
                column("z", Some(1)),
            ],
        );
        let plans = plan_panels(&rec).unwrap();
        assert_eq!(
            plans,
            vec![
                PanelPlan {
                    title: "a".into(),
                    columns: vec![]
                },
                PanelPlan {
                    title: "b".into(),
                    columns: vec![0, 2]
                },
                PanelPlan {
                    title: "logged".into(),
                    columns: vec![1]
                },
            ]
        );
    }

    #[test]
    fn bad_panel_index_is_an_error_and_nothing_gives_one_panel() {
        let rec = Recording::new(vec![], vec![column("x", Some(0))]);
        assert!(plan_panels(&rec).unwrap_err().contains("'x'"));
        assert_eq!(plan_panels(&Recording::default()).unwrap().len(), 1);
    }
}
