//! Labels on a frame (the simulated time), drawn with the embedded DejaVu Sans through plotters'
//! text rendering into a small RGB buffer, then copied onto the indexed canvas in four grey levels
//! over a background-coloured box.

use super::palette::{BACKGROUND, TEXT};
use super::raster::Canvas;
use crate::plot::font::{ensure_fonts_registered, FONT_FAMILY};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Padding around a label's box, px.
const PADDING: u32 = 4;

/// Draws `text` with its top-left corner at (x, y), `size` px high. Returns a message when the
/// embedded font is missing or plotters fails (a broken build, not bad input).
pub fn draw_label(
    canvas: &mut Canvas,
    text: &str,
    x: u32,
    y: u32,
    size: f64,
) -> Result<(), String> {
    if !ensure_fonts_registered() {
        return Err("the embedded DejaVu Sans font could not be loaded".into());
    }
    let style = TextStyle::from((FONT_FAMILY, size).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let box_w = canvas.width.saturating_sub(x + PADDING);
    let box_h = ((1.4 * size).ceil() as u32).min(canvas.height.saturating_sub(y + PADDING));
    if box_w == 0 || box_h == 0 {
        return Ok(());
    }
    let mut rgb = vec![255u8; box_w as usize * box_h as usize * 3];
    let text_w = {
        let root = BitMapBackend::with_buffer(&mut rgb, (box_w, box_h)).into_drawing_area();
        let (w, _) = root
            .estimate_text_size(text, &style)
            .map_err(|e| e.to_string())?;
        let middle = (box_h / 2) as i32;
        root.draw_text(text, &style, (0, middle))
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
        w.min(box_w)
    };
    // The box behind the text, then the glyphs: darkness 0..255 in four levels.
    let (x0, y0) = (x.saturating_sub(PADDING), y.saturating_sub(PADDING));
    let x1 = (x + text_w + PADDING).min(canvas.width);
    let y1 = (y + box_h + PADDING / 2).min(canvas.height);
    for j in y0..y1 {
        for i in x0..x1 {
            canvas.color[(j * canvas.width + i) as usize] = BACKGROUND;
        }
    }
    for j in 0..box_h {
        for i in 0..text_w {
            let darkness = 255 - rgb[3 * (j * box_w + i) as usize] as usize;
            let level = darkness * TEXT.len() / 256;
            if level > 0 {
                let k = ((y + j) * canvas.width + x + i) as usize;
                canvas.color[k] = TEXT[level.min(TEXT.len() - 1)];
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_puts_dark_pixels_where_it_is_written_only() {
        let mut c = Canvas::new(200, 60);
        draw_label(&mut c, "t = 1.25 s", 10, 10, 18.0).unwrap();
        let dark = |i0: u32, i1: u32, j0: u32, j1: u32| {
            (j0..j1)
                .flat_map(|j| (i0..i1).map(move |i| (i, j)))
                .filter(|&(i, j)| c.at(i, j) == TEXT[3])
                .count()
        };
        assert!(dark(10, 200, 10, 36) > 50, "the glyphs are drawn");
        assert_eq!(dark(0, 200, 40, 60), 0, "nothing below the label");
    }
}
