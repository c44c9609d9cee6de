//! The embedded font. plotters is built without system-font support (there are none on the target
//! machines), so text renders only after a font is registered from bytes: DejaVu Sans from the
//! `dejavu` crate, registered once per process as plotters' default family "sans-serif".

use std::sync::OnceLock;

use plotters::style::{register_font, FontStyle};

/// Family name under which the font is registered; plotters' default text style uses it too.
pub const FONT_FAMILY: &str = "sans-serif";

/// Registers DejaVu Sans (regular and bold) once. Returns `false` when the embedded bytes could not
/// be parsed as a font (which would be a broken build, reported as an error by the caller).
pub fn ensure_fonts_registered() -> bool {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    *REGISTERED.get_or_init(|| {
        register_font(FONT_FAMILY, FontStyle::Normal, dejavu::sans::regular()).is_ok()
            && register_font(FONT_FAMILY, FontStyle::Bold, dejavu::sans::bold()).is_ok()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn embedded_font_registers() {
        assert!(super::ensure_fonts_registered());
        assert!(super::ensure_fonts_registered());
    }
}
