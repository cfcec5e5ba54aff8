//! Escaping for the markup formats this crate writes (JUnit XML, the HTML reports): one
//! function serves both, since what XML needs is also valid in HTML.

/// Text escaped for XML and HTML character data and attribute values, so IR such as
/// `<0;1,0>` and bucket keys show as written. The apostrophe becomes `&#39;` (valid in both
/// languages); control characters XML 1.0 cannot carry at all become `?`.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t') => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_characters_and_xml_illegal_controls_are_replaced() {
        assert_eq!(
            escape("mov(8) g2<8;8,1>:F & 'x' \"y\"\u{1}\n"),
            "mov(8) g2&lt;8;8,1&gt;:F &amp; &#39;x&#39; &quot;y&quot;?\n"
        );
    }
}
