//! Animated GIF encoding of rendered frames (the `gif` crate: pure Rust, LZW by weezl).
//!
//! Every frame uses the fixed global palette ([`super::palette`]). The first frame is the whole
//! image; each later frame is only the rectangle of pixels that changed since the previous one,
//! kept over it (disposal "keep"), which makes files and encoding several times smaller for
//! scenes where most of the image is still. The animation loops forever.

use super::error::RenderError;
use super::palette;
use super::raster::Canvas;
use std::borrow::Cow;
use std::io::Write;

/// Writes frames to a GIF stream.
pub struct GifStream<W: Write> {
    encoder: gif::Encoder<W>,
    previous: Option<Vec<u8>>,
    delay_cs: u16,
    frames: usize,
}

fn encode_error(e: gif::EncodingError) -> RenderError {
    RenderError::Encode(e.to_string())
}

impl<W: Write> GifStream<W> {
    /// A GIF of `width`×`height` px (each at most 65535) whose frames show for `delay_cs`
    /// hundredths of a second each.
    pub fn new(out: W, width: u32, height: u32, delay_cs: u16) -> Result<Self, RenderError> {
        let (w, h) = (to_u16(width)?, to_u16(height)?);
        let mut encoder =
            gif::Encoder::new(out, w, h, &palette::rgb_table()).map_err(encode_error)?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(encode_error)?;
        Ok(Self {
            encoder,
            previous: None,
            delay_cs,
            frames: 0,
        })
    }

    /// Appends a frame (the canvas must have the stream's size).
    pub fn push(&mut self, canvas: &Canvas) -> Result<(), RenderError> {
        let (w, h) = (canvas.width as usize, canvas.height as usize);
        // The changed rectangle [i0, i1)×[j0, j1); a whole frame first, one pixel when nothing
        // changed (a frame must still take its time).
        let [i0, i1, j0, j1] = match &self.previous {
            None => [0, w, 0, h],
            Some(prev) => changed_rectangle(prev, &canvas.color, w, h).unwrap_or([0, 1, 0, 1]),
        };
        let mut buffer = Vec::with_capacity((i1 - i0) * (j1 - j0));
        for j in j0..j1 {
            buffer.extend_from_slice(&canvas.color[j * w + i0..j * w + i1]);
        }
        let frame = gif::Frame {
            delay: self.delay_cs,
            dispose: gif::DisposalMethod::Keep,
            left: to_u16(i0 as u32)?,
            top: to_u16(j0 as u32)?,
            width: to_u16((i1 - i0) as u32)?,
            height: to_u16((j1 - j0) as u32)?,
            buffer: Cow::Owned(buffer),
            ..gif::Frame::default()
        };
        self.encoder.write_frame(&frame).map_err(encode_error)?;
        match &mut self.previous {
            Some(prev) => prev.copy_from_slice(&canvas.color),
            None => self.previous = Some(canvas.color.clone()),
        }
        self.frames += 1;
        Ok(())
    }

    /// Number of frames written.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Ends the stream (writes the trailer).
    pub fn finish(self) -> Result<W, RenderError> {
        self.encoder
            .into_inner()
            .map_err(|e| RenderError::Encode(e.to_string()))
    }
}

fn to_u16(v: u32) -> Result<u16, RenderError> {
    u16::try_from(v).map_err(|_| RenderError::Encode(format!("{v} px is too large for a GIF")))
}

/// The bounding rectangle [i0, i1, j0, j1] of the pixels where `a` and `b` differ; `None` when
/// they are equal.
fn changed_rectangle(a: &[u8], b: &[u8], w: usize, h: usize) -> Option<[usize; 4]> {
    let row_differs = |j: usize| a[j * w..(j + 1) * w] != b[j * w..(j + 1) * w];
    let j0 = (0..h).find(|&j| row_differs(j))?;
    let j1 = (j0..h).rev().find(|&j| row_differs(j))? + 1;
    let (mut i0, mut i1) = (w, 0);
    for j in j0..j1 {
        let (ra, rb) = (&a[j * w..(j + 1) * w], &b[j * w..(j + 1) * w]);
        if let Some(first) = ra.iter().zip(rb).position(|(x, y)| x != y) {
            i0 = i0.min(first);
            let last = ra
                .iter()
                .zip(rb)
                .rposition(|(x, y)| x != y)
                .unwrap_or(first);
            i1 = i1.max(last + 1);
        }
    }
    Some([i0, i1, j0, j1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changed_rectangle_bounds_every_difference() {
        let (w, h) = (6, 5);
        let a = vec![0u8; w * h];
        let mut b = a.clone();
        assert_eq!(changed_rectangle(&a, &b, w, h), None);
        b[w + 4] = 1; // (4, 1)
        b[3 * w + 2] = 1; // (2, 3)
        assert_eq!(changed_rectangle(&a, &b, w, h), Some([2, 5, 1, 4]));
    }
}
