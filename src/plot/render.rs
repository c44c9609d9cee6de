//! Drawing a [`Recording`] into an RGB pixel buffer with plotters.
//!
//! Layout: an optional figure title on top, then the panels stacked vertically, each the full width.
//! Every panel is a chart (title, time axis "time (s)", value axis) on the left and its legend on the
//! right. All panels share the time range, the width of the value-axis labels and the legend width,
//! so one x pixel is one instant in every panel.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{time_range, value_range, Extent, TickFormat};
use super::decimate::{polylines, Reduction};
use super::font::FONT_FAMILY;
/// The panels' plan, here for the users of `render` (the browser view groups its signals so).
pub use super::panels::{plan_panels, PanelPlan};
use crate::output::Recording;

/// Rows above this multiple of the plot's pixel width are reduced per pixel column before drawing.
pub const DECIMATION_ROWS_PER_PIXEL: usize = 4;

/// Smallest height of one panel, px; a taller image is made when the requested height is less.
pub const MIN_PANEL_HEIGHT: u32 = 140;

/// Most labels on a value axis.
const MAX_Y_TICKS: usize = 10;

/// A drawing step of plotters failed; the message is plotters' description.
#[derive(Debug)]
pub struct DrawFailure(pub String);

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for DrawFailure {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        Self(e.to_string())
    }
}

/// Colour of the `k`-th line of a panel: ten well-separated colours (the "tab10" set), then hues
/// spaced by the golden ratio.
pub fn series_color(k: usize) -> RGBColor {
    const TAB10: [(u8, u8, u8); 10] = [
        (31, 119, 180),
        (255, 127, 14),
        (44, 160, 44),
        (214, 39, 40),
        (148, 103, 189),
        (140, 86, 75),
        (227, 119, 194),
        (127, 127, 127),
        (188, 189, 34),
        (23, 190, 207),
    ];
    if let Some(&(r, g, b)) = TAB10.get(k) {
        return RGBColor(r, g, b);
    }
    let hue = (k as f64 * 0.618_033_988_75).fract();
    let (r, g, b) = HSLColor(hue, 0.65, 0.45).to_backend_color().rgb;
    RGBColor(r, g, b)
}

/// The bold face at `size` px. (`FontDesc::style` would keep the regular glyphs: plotters loads the
/// face only when the description is created.)
fn bold_font(size: f64) -> FontDesc<'static> {
    FontDesc::new(FontFamily::Name(FONT_FAMILY), size, FontStyle::Bold)
}

/// Sizes (px) shared by all panels.
struct Layout {
    label_size: f64,
    title_size: f64,
    y_label_area: u32,
    legend_width: u32,
    /// Reduce long columns per pixel column (see [`DECIMATION_ROWS_PER_PIXEL`]).
    decimate: bool,
}

/// Draws `rec` (already split into `plans`) onto `root`, which is filled white first. With
/// `decimate`, columns longer than [`DECIMATION_ROWS_PER_PIXEL`] rows per pixel column are reduced
/// (see [`super::decimate`]); without, every row is drawn (slow for long recordings; for tests).
pub fn draw_recording(
    root: &DrawingArea<BitMapBackend<'_>, Shift>,
    rec: &Recording,
    plans: &[PanelPlan],
    figure_title: Option<&str>,
    decimate: bool,
) -> Result<(), DrawFailure> {
    root.fill(&WHITE)?;
    let (width, height) = root.dim_in_pixel();
    let panel_height = height / plans.len().max(1) as u32;
    // plotters places glyphs on whole pixels, which garbles text below ~14 px (a "." drifts up).
    let label_size = (f64::from(panel_height) / 14.0).round().clamp(14.0, 18.0);
    let title_size = label_size + 3.0;

    let root = match figure_title {
        Some(title) => root
            .margin(6, 0, 0, 0)
            .titled(title, bold_font(title_size + 3.0))?,
        None => root.clone(),
    };

    let mut time_extent = Extent::default();
    rec.times.iter().for_each(|&t| time_extent.add(t));
    let (t_start, t_end) = time_range(time_extent);

    let y_ranges: Vec<(f64, f64)> = plans
        .iter()
        .map(|plan| {
            let mut extent = Extent::default();
            for &j in &plan.columns {
                for (t, v) in rec.times.iter().zip(rec.column_values(j)) {
                    if t.is_finite() {
                        extent.add(v);
                    }
                }
            }
            value_range(extent)
        })
        .collect();

    // The legend's labels, with the curves that another one covers named (the plotting area's
    // height is estimated: the panel less its title and time axis).
    let plot_height = f64::from(panel_height) - 1.5 * title_size - 2.8 * label_size - 10.0;
    let labels: Vec<Vec<String>> = plans
        .iter()
        .zip(&y_ranges)
        .map(|(plan, &(lo, hi))| {
            let tolerance = COVER_PIXELS * (hi - lo) / plot_height.max(50.0);
            let covers = covered_by(rec, &plan.columns, tolerance);
            plan.columns
                .iter()
                .zip(covers)
                .map(|(&j, cover)| legend_label(rec, j, cover))
                .collect()
        })
        .collect();

    let mut layout = compute_layout(&root, &labels, &y_ranges, label_size, title_size)?;
    layout.decimate = decimate;
    let areas = root.split_evenly((plans.len(), 1));
    for (((area, plan), &y_range), labels) in areas.iter().zip(plans).zip(&y_ranges).zip(&labels) {
        let chart_width = width.saturating_sub(layout.legend_width);
        let (chart_area, legend_area) = area.split_horizontally(chart_width);
        draw_panel(
            &chart_area,
            &legend_area,
            rec,
            (plan, labels),
            (t_start, t_end),
            y_range,
            &layout,
        )?;
    }
    root.present()?;
    Ok(())
}

/// Curves closer than this many pixels everywhere cover each other (the stroke is 2 px wide).
const COVER_PIXELS: f64 = 0.75;

/// Panels with more columns than this are not searched for covered curves (the search compares
/// pairs of columns).
const MAX_COVER_CHECK: usize = 32;

/// For each of a panel's `columns` (drawn in this order, each over the ones before), the last
/// column drawn after it that lies within `tolerance` of it at every row where it is drawn: its
/// colour does not show, and the legend says which curve hides it. A column without data is
/// covered by nothing.
pub fn covered_by(rec: &Recording, columns: &[usize], tolerance: f64) -> Vec<Option<usize>> {
    if columns.len() > MAX_COVER_CHECK || tolerance.is_nan() || tolerance < 0.0 {
        return vec![None; columns.len()];
    }
    let covers = |below: usize, above: usize| {
        let mut drawn = false;
        let rows = rec.column_values(below).zip(rec.column_values(above));
        for (&t, (a, b)) in rec.times.iter().zip(rows) {
            if !(t.is_finite() && a.is_finite()) {
                continue;
            }
            if !(b.is_finite() && (a - b).abs() <= tolerance) {
                return false;
            }
            drawn = true;
        }
        drawn
    };
    columns
        .iter()
        .enumerate()
        .map(|(k, &below)| {
            columns[k + 1..]
                .iter()
                .rev()
                .copied()
                .find(|&above| covers(below, above))
        })
        .collect()
}

/// The legend text of column `j`: [`crate::output::Column::legend`] (the block's name, the port
/// and element, the quantity and unit: `"free: q[0] (angle, rad)"`), then "(no data)" when it
/// has no finite value at a finite time, or "(hidden by X)" when column `cover` is drawn over it
/// everywhere (X short for an element of the same signal:
/// `"free: v[0] (velocity, m/s) (hidden by [1])"`, else the other's label, `"check: out"`).
pub fn legend_label(rec: &Recording, j: usize, cover: Option<usize>) -> String {
    let column = &rec.columns[j];
    let mut label = column.legend();
    let has_data = rec
        .times
        .iter()
        .zip(rec.column_values(j))
        .any(|(t, v)| t.is_finite() && v.is_finite());
    if !has_data {
        label.push_str(" (no data)");
    } else if let Some(k) = cover {
        let other = &rec.columns[k].name;
        // The element's '[' is the one after the port's '.' (a block may be `dom[2]`).
        let signal = |name: &str| {
            let dot = name.rfind('.')?;
            name[dot..].find('[').map(|k| name[..dot + k].to_string())
        };
        let short = match (signal(&column.name), signal(other)) {
            (Some(a), Some(b)) if a == b => other[b.len()..].to_string(),
            _ => rec.columns[k].label(),
        };
        label.push_str(&format!(" (hidden by {short})"));
    }
    label
}

/// Number of tick labels for an axis `pixels` long with labels every `spacing` px or more.
fn tick_count(pixels: u32, spacing: u32, max: usize) -> usize {
    ((pixels / spacing) as usize).clamp(2, max)
}

fn compute_layout(
    root: &DrawingArea<BitMapBackend<'_>, Shift>,
    labels: &[Vec<String>],
    y_ranges: &[(f64, f64)],
    label_size: f64,
    title_size: f64,
) -> Result<Layout, DrawFailure> {
    let (width, _) = root.dim_in_pixel();
    let font = TextStyle::from((FONT_FAMILY, label_size).into_font());

    // Value-axis labels: the widest of the axis ends' labels over all panels, at the most labels
    // a panel draws (the most decimals).
    let mut widest_tick = 0;
    for &(lo, hi) in y_ranges {
        let format = TickFormat::new(lo, hi, MAX_Y_TICKS);
        for x in [lo, hi, 0.5 * (lo + hi)] {
            widest_tick = widest_tick.max(root.estimate_text_size(&format.format(x), &font)?.0);
        }
    }
    // Room for tick labels, tick marks and the rotated axis description (one text line).
    let y_label_area = widest_tick + (2.5 * label_size) as u32 + 10;

    let swatch = swatch_width(label_size);
    let mut widest_label = 0;
    for label in labels.iter().flatten() {
        widest_label = widest_label.max(root.estimate_text_size(label, &font)?.0);
    }
    let wanted = widest_label + swatch + 24;
    let legend_width = wanted.clamp(width / 8, (width as f64 * 0.3) as u32);
    Ok(Layout {
        label_size,
        title_size,
        y_label_area,
        legend_width,
        decimate: true,
    })
}

fn swatch_width(label_size: f64) -> u32 {
    (1.8 * label_size) as u32
}

/// A panel's chart: time (s) against value.
type PanelChart<'a, 'b> =
    ChartContext<'a, BitMapBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Draws one panel: its chart (mesh, event markers, the signals, or a message when there are
/// none) in `chart_area` over the time and value ranges, and its legend in `legend_area`.
fn draw_panel(
    chart_area: &DrawingArea<BitMapBackend<'_>, Shift>,
    legend_area: &DrawingArea<BitMapBackend<'_>, Shift>,
    rec: &Recording,
    (plan, labels): (&PanelPlan, &[String]),
    (t_start, t_end): (f64, f64),
    (y_lo, y_hi): (f64, f64),
    layout: &Layout,
) -> Result<(), DrawFailure> {
    let label_size = layout.label_size;
    let x_label_area = (2.8 * label_size) as u32;
    let mut chart = ChartBuilder::on(chart_area)
        .caption(&plan.title, bold_font(layout.title_size))
        .margin_top(4)
        .margin_bottom(6)
        .margin_left(6)
        .margin_right(16)
        .x_label_area_size(x_label_area)
        .y_label_area_size(layout.y_label_area)
        .build_cartesian_2d(t_start..t_end, y_lo..y_hi)?;

    let plot_size = chart.plotting_area().dim_in_pixel();
    let y_desc = common_unit(rec, &plan.columns)
        .map(|u| format!("[{u}]"))
        .unwrap_or_default();
    draw_mesh(
        &mut chart,
        ((t_start, t_end), (y_lo, y_hi)),
        y_desc,
        plot_size,
        label_size,
    )?;

    draw_event_markers(&mut chart, rec, (y_lo, y_hi), plot_size)?;
    let plot_width = plot_size.0;
    let reduction =
        if layout.decimate && rec.len() > DECIMATION_ROWS_PER_PIXEL * plot_width as usize {
            Reduction::PerPixelColumn {
                t_start,
                t_end,
                buckets: plot_width.max(1) as usize,
            }
        } else {
            Reduction::None
        };
    let drew_anything = draw_signals(
        &mut chart,
        rec,
        &plan.columns,
        reduction,
        ((t_start, t_end), (y_lo, y_hi)),
    )?;
    if !drew_anything {
        let message = if plan.columns.is_empty() {
            "no signals"
        } else {
            "no data"
        };
        let center = (0.5 * t_start + 0.5 * t_end, 0.5 * y_lo + 0.5 * y_hi);
        draw_centered_message(&chart, message, center, label_size)?;
    }

    // The legend starts level with the top of the plotting area.
    let top = chart.plotting_area().get_base_pixel().1 - chart_area.get_base_pixel().1;
    draw_legend(legend_area, labels, top, label_size)
}

/// The panel's grid and axes over its time and value ranges: tick counts for the plotting area's `plot_size` (px), labels in
/// the ticks' format, "time (s)" below and `y_desc` (the columns' common unit) beside.
fn draw_mesh(
    chart: &mut PanelChart<'_, '_>,
    ((t_start, t_end), (y_lo, y_hi)): ((f64, f64), (f64, f64)),
    y_desc: String,
    (plot_width, plot_height): (u32, u32),
    label_size: f64,
) -> Result<(), DrawFailure> {
    let x_ticks = tick_count(plot_width, 110, 12);
    let y_ticks = tick_count(plot_height, 24, MAX_Y_TICKS).max(4);
    let x_format = TickFormat::new(t_start, t_end, x_ticks);
    let y_format = TickFormat::new(y_lo, y_hi, y_ticks);
    let x_formatter = |x: &f64| x_format.format(*x);
    let y_formatter = |y: &f64| y_format.format(*y);
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc(y_desc)
        .x_labels(x_ticks)
        .y_labels(y_ticks)
        .x_label_formatter(&x_formatter)
        .y_label_formatter(&y_formatter)
        .label_style((FONT_FAMILY, label_size))
        .axis_desc_style((FONT_FAMILY, label_size))
        .bold_line_style(RGBColor(222, 222, 222))
        .light_line_style(RGBColor(244, 244, 244))
        .axis_style(RGBColor(80, 80, 80))
        .max_light_lines(4)
        .draw()?;
    Ok(())
}

/// Draws the recording's `columns` (indices), each in its series colour, as polylines reduced
/// by `reduction`, pinned to the chart's time and value ranges; an isolated point as a dot. Returns whether
/// anything was drawn.
fn draw_signals(
    chart: &mut PanelChart<'_, '_>,
    rec: &Recording,
    columns: &[usize],
    reduction: Reduction,
    ((t_start, t_end), (y_lo, y_hi)): ((f64, f64), (f64, f64)),
) -> Result<bool, DrawFailure> {
    let mut drew_anything = false;
    for (k, &j) in columns.iter().enumerate() {
        let style = series_color(k).stroke_width(2);
        for mut line in polylines(&rec.times, rec.column_values(j), reduction) {
            drew_anything = true;
            // Values beyond the axis limits (only possible beyond ±1e300, see `value_range`) would
            // overflow plotters' pixel arithmetic: pin them to the frame.
            for (t, v) in &mut line {
                *t = t.clamp(t_start, t_end);
                *v = v.clamp(y_lo, y_hi);
            }
            // Points on the same pixel as their predecessor add nothing to the picture.
            line.dedup_by_key(|point| chart.backend_coord(point));
            if let [point] = line[..] {
                // An isolated point (one row, or a row between gaps) is drawn as a dot.
                chart.draw_series(std::iter::once(Circle::new(point, 2, style.filled())))?;
            } else {
                // Segment by segment: plotters outlines a thick polyline as one polygon with
                // mitred joins, which spikes and self-intersects on zig-zags (oscillating or
                // decimated signals). Separate 2-point strokes have no joins to go wrong.
                let segments = line
                    .windows(2)
                    .map(|pair| PathElement::new(pair.to_vec(), style));
                chart.draw_series(segments)?;
            }
        }
    }
    Ok(drew_anything)
}

/// Writes `message` in grey centred on `center` (time s, value), the middle of a panel with
/// nothing to draw.
fn draw_centered_message(
    chart: &PanelChart<'_, '_>,
    message: &str,
    center: (f64, f64),
    label_size: f64,
) -> Result<(), DrawFailure> {
    let style = TextStyle::from((FONT_FAMILY, label_size * 1.4).into_font())
        .color(&RGBColor(120, 120, 120))
        .pos(Pos::new(HPos::Center, VPos::Center));
    chart
        .plotting_area()
        .draw(&Text::new(message, center, style))?;
    Ok(())
}

/// Colour of the vertical lines at located events.
pub const EVENT_MARKER: RGBColor = RGBColor(196, 186, 232);

/// The times of the recording's events: where a row repeats the time of the row before (a located
/// zero crossing or a time event records the instant twice, before and after its handlers).
pub fn event_times(rec: &Recording) -> Vec<f64> {
    let mut times: Vec<f64> = rec
        .times
        .windows(2)
        .filter(|w| w[0] == w[1] && w[0].is_finite())
        .map(|w| w[0])
        .collect();
    times.dedup();
    times
}

/// Events closer than this on average (px of the time axis) are marked by ticks, not lines.
pub const DENSE_EVENT_PIXELS: u32 = 4;

/// Length of an event tick when events are dense, px.
pub const EVENT_TICK_PIXELS: u32 = 8;

/// A thin vertical line across the panel at each event time, under the curves; when there are
/// more events than one per [`DENSE_EVENT_PIXELS`] of the time axis (hundreds of contact events,
/// whose lines would cover the curves), a tick of [`EVENT_TICK_PIXELS`] at the bottom of the
/// panel instead.
fn draw_event_markers<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    rec: &Recording,
    (y_lo, y_hi): (f64, f64),
    (plot_width, plot_height): (u32, u32),
) -> Result<(), DrawFailure>
where
    DB::ErrorType: 'static,
{
    let times = event_times(rec);
    let dense = times.len() as u64 * u64::from(DENSE_EVENT_PIXELS) > u64::from(plot_width);
    let top = if dense {
        let tick = f64::from(EVENT_TICK_PIXELS) / f64::from(plot_height.max(1));
        y_lo + (y_hi - y_lo) * tick.min(1.0)
    } else {
        y_hi
    };
    let lines = times
        .into_iter()
        .map(|t| PathElement::new(vec![(t, y_lo), (t, top)], EVENT_MARKER.stroke_width(1)));
    chart.draw_series(lines)?;
    Ok(())
}

/// The unit all columns of a panel share, if they do.
fn common_unit<'a>(rec: &'a Recording, columns: &[usize]) -> Option<&'a str> {
    let mut units = columns.iter().map(|&j| rec.columns[j].unit.as_deref());
    let first = units.next()??;
    units
        .all(|u| u == Some(first))
        .then_some(first)
        .filter(|u| !u.is_empty())
}

/// Legend rows: a colour swatch and the label; labels are shortened with "…" to fit, and rows that
/// do not fit the panel's height are summarised as "… and N more".
fn draw_legend(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    labels: &[String],
    top: i32,
    label_size: f64,
) -> Result<(), DrawFailure> {
    let (width, height) = area.dim_in_pixel();
    let font = TextStyle::from((FONT_FAMILY, label_size).into_font());
    let text_style = font.color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
    let row_height = (1.5 * label_size).ceil() as i32;
    let swatch = swatch_width(label_size) as i32;
    let text_x = swatch + 8;
    let max_text_width = (width as i32 - text_x - 4).max(0) as u32;
    let available_rows = ((height as i32 - top) / row_height).max(1) as usize;
    let shown = if labels.len() > available_rows {
        available_rows - 1
    } else {
        labels.len()
    };

    for (k, label) in labels.iter().enumerate().take(shown) {
        let y = top + row_height / 2 + k as i32 * row_height;
        let color = series_color(k);
        area.draw(&PathElement::new(
            vec![(2, y), (swatch, y)],
            color.stroke_width(3),
        ))?;
        let label = fit_text(area, label, &font, max_text_width)?;
        area.draw(&Text::new(label, (text_x, y), text_style.clone()))?;
    }
    if shown < labels.len() {
        let y = top + row_height / 2 + shown as i32 * row_height;
        let more = format!("… and {} more", labels.len() - shown);
        area.draw(&Text::new(more, (text_x, y), text_style))?;
    }
    Ok(())
}

/// `text`, shortened in the middle with "…" until it is at most `max_width` px wide. The middle
/// goes because signal names differ at their ends (`block.port[3]` vs `block.port[4]`, the unit);
/// from a label with an element index, only the name before the index is shortened while that
/// leaves the index, the unit and any note whole ("contact: no…force[3] (force, N) (hidden by [7])").
fn fit_text(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    text: &str,
    font: &TextStyle<'_>,
    max_width: u32,
) -> Result<String, DrawFailure> {
    if area.estimate_text_size(text, font)?.0 <= max_width {
        return Ok(text.to_string());
    }
    // The element's index is the first '[' after the block's "name: " (a block name of an array
    // has brackets of its own: "legs[3]/hip: q[0]").
    let port_at = text.find(": ").map_or(0, |i| i + 2);
    let index_at = text[port_at..].find('[').map(|i| i + port_at);
    if let Some(split) = index_at.filter(|&i| i > 0) {
        let (name, tail) = text.split_at(split);
        let name: Vec<char> = name.chars().collect();
        for keep in (2..name.len()).rev() {
            let candidate = shortened(&name, keep) + tail;
            if area.estimate_text_size(&candidate, font)?.0 <= max_width {
                return Ok(candidate);
            }
        }
    }
    let chars: Vec<char> = text.chars().collect();
    for keep in (0..chars.len()).rev() {
        let candidate = shortened(&chars, keep);
        if area.estimate_text_size(&candidate, font)?.0 <= max_width {
            return Ok(candidate);
        }
    }
    Ok("…".to_string())
}

/// `chars` with all but `keep` of them replaced by "…" in the middle.
fn shortened(chars: &[char], keep: usize) -> String {
    let head = keep / 2;
    let tail = keep - head;
    chars[..head]
        .iter()
        .chain(std::iter::once(&'…'))
        .chain(&chars[chars.len() - tail..])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colors_are_distinct() {
        let colors: Vec<RGBColor> = (0..30).map(series_color).collect();
        for (a, ca) in colors.iter().enumerate() {
            for cb in &colors[a + 1..] {
                assert_ne!((ca.0, ca.1, ca.2), (cb.0, cb.1, cb.2));
            }
        }
    }
}
