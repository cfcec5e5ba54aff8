//! The INPUTS section's texture format lines: parsed, printed back, and malformed ones
//! reported at their line and column. Files without them stay valid (unorm).

use compiler::inputs::TextureFormat;
use compiler::text::{parse_program, print_program};

const PROGRAM: &str = "eu 1\ntarget skl\ndispatch 16\nthreads 1\nattr attr0 2\nvgrf v0 8\n\nSTART B0\n    tex_logical(16) v0:F, attr0:F, attr0:F, 2:UD\nEND B0\n";

fn with_inputs(lines: &str) -> String {
    format!("{PROGRAM}\nINPUTS\n{lines}END INPUTS\n")
}

#[test]
fn texture_formats_parse_and_print_back() {
    let text = with_inputs("    texture 2 float\n    texture 5 unorm\n");
    let p = parse_program(&text).unwrap();
    let inputs = p.inputs.as_ref().unwrap();
    assert_eq!(inputs.texture_format(2), TextureFormat::Float);
    assert_eq!(inputs.texture_format(5), TextureFormat::Unorm);
    assert_eq!(inputs.texture_format(7), TextureFormat::Unorm);
    let printed = print_program(&p);
    assert!(
        printed.contains("    texture 2 float\n    texture 5 unorm\n"),
        "{printed}"
    );
    assert_eq!(parse_program(&printed).unwrap(), p);
}

#[test]
fn files_without_texture_lines_stay_valid() {
    let p = parse_program(&with_inputs("    thread 0 attr0 0.5:F*16\n")).unwrap();
    assert!(p.inputs.unwrap().textures.is_empty());
}

#[test]
fn malformed_texture_lines_are_errors_at_their_position() {
    let cases = [
        (
            "    texture 0 srgb\n",
            13,
            19,
            "unknown texture format `srgb`",
        ),
        (
            "    texture 0 float\n    texture 0 unorm\n",
            14,
            20,
            "texture 0 format given twice",
        ),
        ("    texture 0\n", 13, 14, "expected a texture format"),
        ("    texture 0 float extra\n", 13, 21, "extra"),
        ("    texture 300 float\n", 13, 13, "texture index"),
    ];
    for (lines, line, col, needle) in cases {
        let e = parse_program(&with_inputs(lines)).unwrap_err();
        assert!(e.msg.contains(needle), "{lines:?}: {e}");
        assert_eq!((e.line, e.col), (line, col), "{lines:?}: {e}");
    }
}
