//! Assembles the viewer page: the style, the controls, the data (JSON in a
//! `<script type="application/json">`), three.js and its OrbitControls addon as inert
//! `<script type="text/plain">` blocks, three.js's licence, and the page's script, which turns
//! the two library blocks into `blob:` module URLs and imports them (a page opened from disk may
//! not fetch files beside it, and has no network).
//!
//! None of the embedded texts may contain `</script` or `<!--` (either would end or confuse the
//! element that holds it): the JSON writer escapes `<` in strings, and `tests/view_page.rs`
//! checks the vendored files.

/// three.js 0.170.0, `build/three.module.min.js` (see `src/view/vendor/README.md`).
pub const THREE_JS: &str = include_str!("vendor/three.module.min.js");
/// three.js 0.170.0, `examples/jsm/controls/OrbitControls.js`.
pub const ORBIT_CONTROLS_JS: &str = include_str!("vendor/OrbitControls.js");
/// three.js's licence (MIT).
pub const THREE_LICENSE: &str = include_str!("vendor/LICENSE");
/// The page's own script.
pub const VIEWER_JS: &str = include_str!("viewer.js");
/// The page's style.
pub const VIEWER_CSS: &str = include_str!("viewer.css");

/// The id of the element that holds the JSON data.
pub const DATA_ID: &str = "blockdyn-data";

/// `text` with `&`, `<`, `>` and `"` written as entities (for the title).
fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The whole page, with the data `json` (written by [`super::data::write_json`]).
pub fn assemble(title: &str, json: &str) -> String {
    let title = escape_html(title);
    let version = env!("CARGO_PKG_VERSION");
    let mut page = String::with_capacity(
        THREE_JS.len() + ORBIT_CONTROLS_JS.len() + VIEWER_JS.len() + json.len() + 8192,
    );
    page.push_str(&format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="blockdyn {version}">
<title>{title} (blockdyn viewer)</title>
<style>
{VIEWER_CSS}</style>
</head>
<body>
<header><h1>{title}</h1><span class="hint">drag: orbit · right-drag or shift-drag: pan · wheel: zoom · space: play/pause</span></header>
<div id="scene"></div>
<div id="controls">
<button id="play" type="button">Play</button>
<div id="track"><input id="slider" type="range" min="0" max="1" step="any" value="0" aria-label="time"><div id="marks"></div></div>
<span id="time">t = 0 s</span>
<label>speed <select id="speed"><option value="0.1">0.1×</option><option value="0.25">0.25×</option><option value="0.5">0.5×</option><option value="1" selected>1×</option><option value="2">2×</option><option value="5">5×</option></select></label>
<label><input id="forces" type="checkbox" checked> contact forces</label>
</div>
<div id="plots"></div>
<pre id="status">{{"state":"loading"}}</pre>
"#
    ));
    page.push_str(&format!(
        "<script type=\"application/json\" id=\"{DATA_ID}\">{json}</script>\n"
    ));
    page.push_str(
        "<script type=\"text/plain\" id=\"three-license\">\nthree.js r170, MIT licence:\n",
    );
    page.push_str(THREE_LICENSE);
    page.push_str("</script>\n<script type=\"text/plain\" id=\"three-src\">");
    page.push_str(THREE_JS);
    page.push_str("</script>\n<script type=\"text/plain\" id=\"orbit-src\">");
    page.push_str(ORBIT_CONTROLS_JS);
    page.push_str("</script>\n<script>\n");
    page.push_str(VIEWER_JS);
    page.push_str("</script>\n</body>\n</html>\n");
    page
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_is_escaped_and_every_part_is_in_the_page() {
        let page = assemble("a<b & \"c\"", "{\"x\":1}");
        assert!(page.contains("<title>a&lt;b &amp; &quot;c&quot; (blockdyn viewer)</title>"));
        assert!(
            page.contains(r#"<script type="application/json" id="blockdyn-data">{"x":1}</script>"#)
        );
        assert!(page.contains(THREE_JS) && page.contains(ORBIT_CONTROLS_JS));
        assert!(page.contains(THREE_LICENSE) && page.contains(VIEWER_JS));
    }

    #[test]
    fn no_embedded_text_can_end_its_script_element() {
        for text in [THREE_JS, ORBIT_CONTROLS_JS, THREE_LICENSE, VIEWER_JS] {
            let lower = text.to_ascii_lowercase();
            assert!(!lower.contains("</script") && !lower.contains("<!--"));
        }
    }
}
